#pragma once

#include "passes/DominatorTree.h"

#include <algorithm>
#include <memory>
#include <span>
#include <vector>

namespace ocelot::passes {

namespace detail {
/// Which loops hold which blocks, shared by a LoopInfo and its loops (it outlives moves).
struct LoopMembership;
} // namespace detail

/// A natural loop: a header that dominates the sources of its back edges (latches), and every
/// node that reaches a latch without passing through the header. Back edges to one header form
/// one loop. A loop does not list its blocks: nested loops would make that quadratic (a 20k-deep
/// nest holds 200M memberships); contains() answers in O(1) and nodes() lists them on request.
struct Loop {
  static constexpr uint32_t kNoLoop = UINT32_MAX;
  using Node = ControlFlowGraph::Node;

  Node header = ControlFlowGraph::kNone;
  std::vector<Node> latches;                 ///< sorted sources of the back edges
  std::vector<ControlFlowGraph::Edge> exits; ///< edges from inside to outside
  uint32_t parent = kNoLoop;                 ///< index of the innermost enclosing loop
  std::vector<uint32_t> children;
  unsigned depth = 1; ///< 1 for outermost loops
  uint32_t size = 0;  ///< blocks in the loop, its inner loops' included

  /// Whether `node` is in the loop (or in one of its inner loops). O(1).
  bool contains(Node node) const;
  /// The loop's blocks, its inner loops' included, sorted: O(size log size), for printing and
  /// tests; analyses use contains().
  std::vector<Node> nodes() const;

private:
  friend class LoopInfo;
  uint32_t index_ = kNoLoop;
  std::shared_ptr<const detail::LoopMembership> membership_;
};

/// All natural loops of a function with their nesting. Loops are indexed so that an enclosing
/// loop comes before the loops it contains (larger loops first, then by their header's place in
/// reverse post-order). Retreating edges whose target does not dominate their source make the
/// graph irreducible there; they are listed and form no loop. Built in near-linear time: bodies
/// are found innermost first, and a walk that reaches an inner loop jumps to its header.
class LoopInfo {
public:
  using Node = ControlFlowGraph::Node;

  LoopInfo(const ControlFlowGraph& cfg, const DominatorTree& dominators);

  const std::vector<Loop>& loops() const { return loops_; }
  /// The innermost loop containing `node`, or nullptr.
  const Loop* loopFor(Node node) const {
    uint32_t index = loopIndexFor(node);
    return index == Loop::kNoLoop ? nullptr : &loops_[index];
  }
  uint32_t loopIndexFor(Node node) const;
  /// How many loops contain `node` (0 outside loops).
  unsigned depth(Node node) const {
    const Loop* loop = loopFor(node);
    return loop == nullptr ? 0 : loop->depth;
  }
  bool isHeader(Node node) const {
    const Loop* loop = loopFor(node);
    return loop != nullptr && loop->header == node;
  }
  const std::vector<ControlFlowGraph::Edge>& irreducibleEdges() const { return irreducible_; }

private:
  std::vector<Loop> loops_;
  std::shared_ptr<detail::LoopMembership> membership_;
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
