#pragma once

#include "passes/DominatorTree.h"

#include <algorithm>
#include <span>
#include <vector>

namespace ocelot::passes {

/// A natural loop: a header that dominates the sources of its back edges (latches), and every
/// node that reaches a latch without passing through the header. Back edges to one header form
/// one loop.
struct Loop {
  static constexpr uint32_t kNoLoop = UINT32_MAX;
  using Node = ControlFlowGraph::Node;

  Node header = ControlFlowGraph::kNone;
  std::vector<Node> nodes;                   ///< sorted; includes the header
  std::vector<Node> latches;                 ///< sorted sources of the back edges
  std::vector<ControlFlowGraph::Edge> exits; ///< edges from inside to outside
  uint32_t parent = kNoLoop;                 ///< index of the innermost enclosing loop
  std::vector<uint32_t> children;
  unsigned depth = 1; ///< 1 for outermost loops

  bool contains(Node node) const { return std::binary_search(nodes.begin(), nodes.end(), node); }
};

/// All natural loops of a function with their nesting. Loops are indexed so that an enclosing
/// loop comes before the loops it contains. Retreating edges whose target does not dominate their
/// source make the graph irreducible there; they are listed and form no loop.
class LoopInfo {
public:
  using Node = ControlFlowGraph::Node;

  LoopInfo(const ControlFlowGraph& cfg, const DominatorTree& dominators);

  const std::vector<Loop>& loops() const { return loops_; }
  /// The innermost loop containing `node`, or nullptr.
  const Loop* loopFor(Node node) const {
    return innermost_[node] == Loop::kNoLoop ? nullptr : &loops_[innermost_[node]];
  }
  uint32_t loopIndexFor(Node node) const { return innermost_[node]; }
  /// How many loops contain `node` (0 outside loops).
  unsigned depth(Node node) const {
    return innermost_[node] == Loop::kNoLoop ? 0 : loops_[innermost_[node]].depth;
  }
  bool isHeader(Node node) const {
    const Loop* loop = loopFor(node);
    return loop != nullptr && loop->header == node;
  }
  const std::vector<ControlFlowGraph::Edge>& irreducibleEdges() const { return irreducible_; }

private:
  std::vector<Loop> loops_;
  std::vector<uint32_t> innermost_;
  std::vector<ControlFlowGraph::Edge> irreducible_;
};

struct LoopAnalysis {
  static AnalysisKey Key;
  static constexpr std::string_view Name = "loops";
  static constexpr bool ControlFlowOnly = true;
  using Result = LoopInfo;
  Result run(ir::Function& function, AnalysisManager& am);
};

} // namespace ocelot::passes
