#pragma once

#include "ir/Function.h"
#include "passes/PreservedAnalyses.h"

#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace ocelot::passes {

class AnalysisManager;

/// How control gets from one node to the next.
enum class EdgeKind : uint8_t {
  FallThrough, ///< to the next block in layout (also the virtual entry's edge to the first block)
  Branch,      ///< a taken `bra` or `brx.idx`
  Exit,        ///< `ret`, `exit`, `trap`, or falling off the end, to the virtual exit
};

std::string_view edgeKindName(EdgeKind kind);

/// The control-flow graph of one function. Its nodes are the function's own basic blocks (node i
/// is blocks()[i]; nothing is copied) plus a virtual entry and a virtual exit, so that every
/// function has exactly one of each. Edges:
///  * entry -> first block;
///  * `bra L` -> the block that holds label L; guarded (`@%p bra`) also falls through;
///  * `brx.idx %r, table` -> every label of the `.branchtargets` table visible from it;
///  * `ret`, `exit`, `trap` -> exit; guarded ones also fall through;
///  * a block without terminator falls through to the next one (the last one to exit);
///  * `call` does not end a block (SplitBlocksAtCalls makes it do so).
/// Two edges between the same blocks (`@%p bra L` just before L) are one edge, kind Branch.
/// Unreachable blocks stay in the graph and are reported; malformed control flow (an unknown
/// branch target, a terminator in the middle of a block) gives problems(), never a crash.
class ControlFlowGraph {
public:
  using Node = uint32_t;
  static constexpr Node kNone = UINT32_MAX;

  struct Edge {
    Node from;
    Node to;
    EdgeKind kind;
  };
  struct Problem {
    Node node;
    std::string message;
  };

  explicit ControlFlowGraph(ir::Function& function);

  ir::Function& function() const { return *function_; }

  // --- Nodes ------------------------------------------------------------------------------------
  /// Number of nodes: blocks + entry + exit.
  size_t size() const { return blocks_.size() + 2; }
  size_t blockCount() const { return blocks_.size(); }
  Node entry() const { return static_cast<Node>(blocks_.size()); }
  Node exit() const { return static_cast<Node>(blocks_.size() + 1); }
  bool isVirtual(Node node) const { return node >= blocks_.size(); }
  /// The block of `node`, nullptr for entry and exit.
  ir::BasicBlock* block(Node node) const { return isVirtual(node) ? nullptr : blocks_[node]; }
  /// The node of `block`, or kNone when it is not in the graph (added after it was built).
  Node node(const ir::BasicBlock& block) const;
  /// "entry", "exit", "B3", or "B3 ($L__BB0_3)" with `withLabel`.
  std::string name(Node node, bool withLabel = false) const;

  // --- Edges ------------------------------------------------------------------------------------
  std::span<const Edge> successors(Node node) const {
    return {successorEdges_.data() + successorStart_[node],
            successorEdges_.data() + successorStart_[node + 1]};
  }
  std::span<const Edge> predecessors(Node node) const {
    return {predecessorEdges_.data() + predecessorStart_[node],
            predecessorEdges_.data() + predecessorStart_[node + 1]};
  }
  size_t edgeCount() const { return successorEdges_.size(); }

  // --- Order and reachability -------------------------------------------------------------------
  /// Nodes reachable from entry, in reverse post-order (entry first).
  const std::vector<Node>& reversePostOrder() const { return reversePostOrder_; }
  bool isReachable(Node node) const { return reachable_[node]; }
  /// Blocks no path from entry reaches, in layout order.
  std::vector<Node> unreachableBlocks() const;

  const std::vector<Problem>& problems() const { return problems_; }

private:
  void addEdges(Node node, std::vector<Edge>& edges);
  void finish(std::vector<Edge>& edges);

  ir::Function* function_;
  std::vector<ir::BasicBlock*> blocks_;
  std::unordered_map<const ir::BasicBlock*, Node> nodeOf_;
  std::vector<Node> blockOfLabel_; ///< per LabelId
  std::vector<uint32_t> successorStart_, predecessorStart_;
  std::vector<Edge> successorEdges_, predecessorEdges_;
  std::vector<Node> reversePostOrder_;
  std::vector<bool> reachable_;
  std::vector<Problem> problems_;
  std::vector<const ir::BranchTargets*> branchTables_; ///< collected at the first brx.idx
  bool tablesCollected_ = false;
};

/// The CFG of a function, as an analysis.
struct ControlFlowGraphAnalysis {
  static AnalysisKey Key;
  static constexpr std::string_view Name = "control-flow graph";
  static constexpr bool ControlFlowOnly = true;
  using Result = ControlFlowGraph;
  Result run(ir::Function& function, AnalysisManager&) { return ControlFlowGraph(function); }
};

} // namespace ocelot::passes
