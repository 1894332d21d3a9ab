#pragma once

#include "passes/ControlFlowGraph.h"

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

namespace ocelot::passes {

/// Immediate dominators by the algorithm of Lengauer and Tarjan (semidominators over a depth-first
/// spanning tree, path compression: O(m log n) on every graph, where the iterative algorithm of
/// Cooper, Harvey and Kennedy is quadratic on deep nests), on any graph of `n` nodes rooted at
/// `root`. `forEachSuccessor(x, fn)` calls fn(y) for each edge x -> y in the direction of the tree,
/// `forEachPredecessor(x, fn)` fn(p) for each edge p -> x; both must list the same edges. Nodes the
/// root does not reach get UINT32_MAX; the root is its own immediate dominator. Iterative
/// throughout: graphs may be deeper than the call stack.
template <class ForEachSuccessor, class ForEachPredecessor>
std::vector<uint32_t> immediateDominators(size_t n, uint32_t root,
                                          ForEachSuccessor&& forEachSuccessor,
                                          ForEachPredecessor&& forEachPredecessor) {
  constexpr uint32_t kNoNode = UINT32_MAX;
  std::vector<uint32_t> idom(n, kNoNode);
  if (root >= n)
    return idom;
  // Depth-first pre-order numbers (1-based; 0: not reached), the vertex of each number, and the
  // spanning tree's parent (as a number).
  std::vector<uint32_t> number(n, 0), vertex(1, kNoNode), parent(1, 0);
  {
    // (node, number of the node that pushed it): the pusher whose entry is popped first is the
    // node's parent in a depth-first tree (the same tree as a recursive search would make with
    // the successors in this order).
    std::vector<std::pair<uint32_t, uint32_t>> stack{{root, 0}};
    while (!stack.empty()) {
      auto [x, from] = stack.back();
      stack.pop_back();
      if (number[x] != 0)
        continue;
      number[x] = static_cast<uint32_t>(vertex.size());
      vertex.push_back(x);
      parent.push_back(from);
      size_t before = stack.size();
      forEachSuccessor(x, [&](uint32_t y) {
        if (number[y] == 0)
          stack.emplace_back(y, number[x]);
      });
      std::reverse(stack.begin() + static_cast<std::ptrdiff_t>(before), stack.end());
    }
  }
  const uint32_t count = static_cast<uint32_t>(vertex.size()) - 1; // numbers 1..count
  std::vector<uint32_t> semi(count + 1), label(count + 1), ancestor(count + 1, 0),
      dominator(count + 1, 0), bucketHead(count + 1, 0), bucketNext(count + 1, 0);
  for (uint32_t v = 0; v <= count; ++v)
    semi[v] = label[v] = v;
  std::vector<uint32_t> path;
  // The vertex with the smallest semidominator on the forest path above v (v included).
  auto eval = [&](uint32_t v) {
    if (ancestor[v] == 0)
      return v;
    path.clear();
    for (uint32_t x = v; ancestor[ancestor[x]] != 0; x = ancestor[x])
      path.push_back(x);
    for (size_t i = path.size(); i-- > 0;) { // compress from the top down
      uint32_t x = path[i];
      if (semi[label[ancestor[x]]] < semi[label[x]])
        label[x] = label[ancestor[x]];
      ancestor[x] = ancestor[ancestor[x]];
    }
    return label[v];
  };
  for (uint32_t w = count; w >= 2; --w) {
    forEachPredecessor(vertex[w], [&](uint32_t p) {
      uint32_t v = number[p];
      if (v == 0)
        return; // not reached from the root
      uint32_t u = eval(v);
      if (semi[u] < semi[w])
        semi[w] = semi[u];
    });
    bucketNext[w] = bucketHead[semi[w]];
    bucketHead[semi[w]] = w;
    const uint32_t p = parent[w];
    ancestor[w] = p;
    for (uint32_t v = bucketHead[p]; v != 0; v = bucketNext[v]) {
      uint32_t u = eval(v);
      dominator[v] = semi[u] < semi[v] ? u : p;
    }
    bucketHead[p] = 0;
  }
  for (uint32_t w = 2; w <= count; ++w)
    if (dominator[w] != semi[w])
      dominator[w] = dominator[dominator[w]];
  idom[root] = root;
  for (uint32_t w = 2; w <= count; ++w)
    idom[vertex[w]] = vertex[dominator[w]];
  return idom;
}

/// The dominator tree (or post-dominator tree) of a control-flow graph (immediateDominators above).
/// Rooted at the virtual entry (for post-dominators: the virtual exit).
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
