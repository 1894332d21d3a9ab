#pragma once

#include "passes/ControlFlowGraph.h"

#include <cstdint>
#include <span>
#include <vector>

namespace ocelot::passes {

/// Immediate dominators by the iterative algorithm of Cooper, Harvey and Kennedy, on any graph of
/// `n` nodes: `order` is a reverse post-order from its first node (the root) in the direction of
/// the tree, and `forEachPredecessor(x, fn)` calls fn(p) for each p with an edge p -> x in that
/// direction. Nodes outside `order` get UINT32_MAX; the root is its own immediate dominator.
template <class ForEachPredecessor>
std::vector<uint32_t> immediateDominators(size_t n, const std::vector<uint32_t>& order,
                                          ForEachPredecessor&& forEachPredecessor) {
  constexpr uint32_t kNoNode = UINT32_MAX;
  std::vector<uint32_t> index(n, kNoNode), idom(n, kNoNode);
  for (uint32_t i = 0; i < order.size(); ++i)
    index[order[i]] = i;
  if (order.empty())
    return idom;
  idom[order.front()] = order.front();
  auto intersect = [&](uint32_t a, uint32_t b) {
    while (a != b) {
      while (index[a] > index[b])
        a = idom[a];
      while (index[b] > index[a])
        b = idom[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 1; i < order.size(); ++i) {
      uint32_t x = order[i], chosen = kNoNode;
      forEachPredecessor(x, [&](uint32_t p) {
        if (index[p] == kNoNode || idom[p] == kNoNode)
          return;
        chosen = chosen == kNoNode ? p : intersect(p, chosen);
      });
      if (chosen != idom[x]) {
        idom[x] = chosen;
        changed = true;
      }
    }
  }
  return idom;
}

/// The dominator tree (or post-dominator tree) of a control-flow graph, by the iterative algorithm
/// of Cooper, Harvey and Kennedy ("A Simple, Fast Dominance Algorithm", 2001) over reverse
/// post-order. Rooted at the virtual entry (for post-dominators: the virtual exit).
///
/// Post-dominators need every node to reach the exit. Blocks that cannot (infinite loops) get a
/// virtual edge to the exit from the last block, in layout order, of each such region; these are
/// listed by virtualExitEdges(). Nodes the root does not reach (unreachable blocks for
/// dominators) are not in the tree: idom() is kNone and dominates() is false for them.
class DominatorTree {
public:
  using Node = ControlFlowGraph::Node;
  static constexpr Node kNone = ControlFlowGraph::kNone;
  enum class Direction : uint8_t { Forward, Post };

  DominatorTree(const ControlFlowGraph& cfg, Direction direction);

  bool isPostDominatorTree() const { return direction_ == Direction::Post; }
  Node root() const { return root_; }
  size_t size() const { return idom_.size(); }
  bool contains(Node node) const {
    return node < idom_.size() && (node == root_ || idom_[node] != kNone);
  }
  /// The immediate (post-)dominator; kNone for the root and for nodes not in the tree.
  Node idom(Node node) const { return node == root_ ? kNone : idom_[node]; }
  std::span<const Node> children(Node node) const {
    return {children_.data() + childStart_[node], children_.data() + childStart_[node + 1]};
  }
  /// Depth in the tree (the root is 0).
  unsigned depth(Node node) const { return depth_[node]; }
  /// Whether `a` (post-)dominates `b` (every node dominates itself). O(1).
  bool dominates(Node a, Node b) const {
    return contains(a) && contains(b) && enter_[a] <= enter_[b] && leave_[b] <= leave_[a];
  }
  bool strictlyDominates(Node a, Node b) const { return a != b && dominates(a, b); }
  /// The deepest node that dominates both; kNone if either is not in the tree.
  Node nearestCommonDominator(Node a, Node b) const;
  /// Tree nodes in depth-first pre-order (parents before children).
  const std::vector<Node>& preorder() const { return preorder_; }
  /// Edges (from, exit) added so that every node reaches the exit (post-dominators only).
  const std::vector<Node>& virtualExitEdges() const { return virtualExitEdges_; }

private:
  Direction direction_;
  Node root_;
  std::vector<Node> idom_;
  std::vector<uint32_t> childStart_;
  std::vector<Node> children_;
  std::vector<unsigned> depth_;
  std::vector<uint32_t> enter_, leave_;
  std::vector<Node> preorder_;
  std::vector<Node> virtualExitEdges_;
};

struct DominatorTreeAnalysis {
  static AnalysisKey Key;
  static constexpr std::string_view Name = "dominator tree";
  static constexpr bool ControlFlowOnly = true;
  using Result = DominatorTree;
  Result run(ir::Function& function, AnalysisManager& am);
};

struct PostDominatorTreeAnalysis {
  static AnalysisKey Key;
  static constexpr std::string_view Name = "post-dominator tree";
  static constexpr bool ControlFlowOnly = true;
  using Result = DominatorTree;
  Result run(ir::Function& function, AnalysisManager& am);
};

} // namespace ocelot::passes
