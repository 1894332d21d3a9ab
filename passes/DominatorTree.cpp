#include "passes/DominatorTree.h"

#include "passes/AnalysisManager.h"

namespace ocelot::passes {

AnalysisKey DominatorTreeAnalysis::Key;
AnalysisKey PostDominatorTreeAnalysis::Key;

DominatorTree DominatorTreeAnalysis::run(ir::Function& function, AnalysisManager& am) {
  return DominatorTree(am.getResult<ControlFlowGraphAnalysis>(function),
                       DominatorTree::Direction::Forward);
}

DominatorTree PostDominatorTreeAnalysis::run(ir::Function& function, AnalysisManager& am) {
  return DominatorTree(am.getResult<ControlFlowGraphAnalysis>(function),
                       DominatorTree::Direction::Post);
}

DominatorTree::DominatorTree(const ControlFlowGraph& cfg, Direction direction)
    : direction_(direction) {
  const size_t n = cfg.size();
  const bool post = direction == Direction::Post;
  root_ = post ? cfg.exit() : cfg.entry();

  // In the direction of the tree: `forward(x)` are the nodes x leads to, `backward(x)` the nodes
  // leading to x. For post-dominators both are the CFG's, reversed.
  std::vector<bool> virtualEdge(n, false); // node -> exit added (post-dominators)
  // The post-dominator search walks CFG edges backwards, and from the exit also the virtual
  // edges.
  auto forwardCount = [&](Node x) -> size_t {
    return cfg.predecessors(x).size() + (x == root_ ? virtualExitEdges_.size() : 0);
  };
  auto forwardAt = [&](Node x, size_t i) -> Node {
    auto preds = cfg.predecessors(x);
    return i < preds.size() ? preds[i].from : virtualExitEdges_[i - preds.size()];
  };
  auto forEachBackward = [&](Node x, auto&& fn) {
    if (post) {
      for (const auto& e : cfg.successors(x))
        fn(e.to);
      if (virtualEdge[x])
        fn(root_);
    } else {
      for (const auto& e : cfg.predecessors(x))
        fn(e.from);
    }
  };

  // Depth-first search from `start` in the tree's direction, appending the post-order.
  std::vector<bool> seen(n, false);
  std::vector<Node> postOrder;
  postOrder.reserve(n);
  auto search = [&](Node start) {
    std::vector<std::pair<Node, size_t>> stack{{start, 0}};
    seen[start] = true;
    while (!stack.empty()) {
      auto [x, next] = stack.back();
      if (next == forwardCount(x)) {
        postOrder.push_back(x);
        stack.pop_back();
        continue;
      }
      ++stack.back().second;
      Node y = forwardAt(x, next);
      if (!seen[y]) {
        seen[y] = true;
        stack.emplace_back(y, 0);
      }
    }
  };

  std::vector<Node> order; // reverse post-order from the root
  if (!post) {
    order = cfg.reversePostOrder();
  } else {
    search(root_);
    // Regions that never reach the exit: connect the last block of each, in layout order.
    for (Node x = static_cast<Node>(cfg.blockCount()); x-- > 0;) {
      if (seen[x])
        continue;
      virtualExitEdges_.push_back(x);
      virtualEdge[x] = true;
      search(x);
    }
    if (!virtualExitEdges_.empty()) {
      // Redo the search with the root's new edges so the order is a true reverse post-order.
      std::fill(seen.begin(), seen.end(), false);
      postOrder.clear();
      search(root_);
    }
    order.assign(postOrder.rbegin(), postOrder.rend());
  }

  auto forEachForward = [&](Node x, auto&& fn) {
    if (post) {
      for (size_t i = 0, count = forwardCount(x); i < count; ++i)
        fn(forwardAt(x, i));
    } else {
      for (const auto& e : cfg.successors(x))
        fn(e.to);
    }
  };
  idom_ = immediateDominators(n, root_, forEachForward, forEachBackward);

  // Children lists, depths and DFS intervals for O(1) dominance queries.
  childStart_.assign(n + 1, 0);
  for (Node x = 0; x < n; ++x)
    if (x != root_ && idom_[x] != kNone)
      ++childStart_[idom_[x] + 1];
  for (size_t i = 0; i < n; ++i)
    childStart_[i + 1] += childStart_[i];
  children_.resize(childStart_[n]);
  std::vector<uint32_t> fill(childStart_.begin(), childStart_.end() - 1);
  for (Node x : order) // children in reverse post-order of the graph
    if (x != root_ && idom_[x] != kNone)
      children_[fill[idom_[x]]++] = x;

  depth_.assign(n, 0);
  enter_.assign(n, 0);
  leave_.assign(n, 0);
  preorder_.reserve(order.size());
  uint32_t clock = 0;
  std::vector<std::pair<Node, uint32_t>> stack{{root_, 0}};
  enter_[root_] = clock++;
  preorder_.push_back(root_);
  while (!stack.empty()) {
    auto [x, next] = stack.back();
    auto kids = children(x);
    if (next < kids.size()) {
      ++stack.back().second;
      Node child = kids[next];
      depth_[child] = depth_[x] + 1;
      enter_[child] = clock++;
      preorder_.push_back(child);
      stack.emplace_back(child, 0);
    } else {
      leave_[x] = clock++;
      stack.pop_back();
    }
  }
}

DominatorTree::Node DominatorTree::nearestCommonDominator(Node a, Node b) const {
  if (!contains(a) || !contains(b))
    return kNone;
  while (depth_[a] > depth_[b])
    a = idom_[a];
  while (depth_[b] > depth_[a])
    b = idom_[b];
  while (a != b) {
    a = idom_[a];
    b = idom_[b];
  }
  return a;
}

} // namespace ocelot::passes
