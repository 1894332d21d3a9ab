#pragma once

#include "passes/BitVector.h"
#include "passes/ControlFlowGraph.h"
#include "passes/RegisterNumbering.h"

#include <vector>

namespace ocelot::passes {

/// Which registers are live (may be read before being overwritten) at the start and end of each
/// block, by backward iterative dataflow over the CFG:
///   out(b) = ∪ in(s) over successors s        in(b) = use(b) ∪ (out(b) − kill(b))
/// with the rules of ir::forEachRegisterAccess: a guarded, partial (`%v.x`) or unknown-opcode
/// write does not kill, so `@%p mov %r1, 0` keeps an earlier %r1 live. At the virtual exit the
/// `.reg` return registers of a `.func` are live.
///
/// Sets range over the "global names" only (registers read in some block before any write in
/// it): a register that never lives across a block boundary cannot be live-in anywhere, and in
/// nvcc's PTX most registers are such temporaries. Liveness inside a block is recomputed on
/// demand from the block's live-out by LiveScanner.
class Liveness {
public:
  using Node = ControlFlowGraph::Node;

  Liveness(const ControlFlowGraph& cfg, const RegisterNumbering& numbering);

  const RegisterNumbering& numbering() const { return *numbering_; }
  bool isLiveIn(Node node, ir::RegisterRef ref) const { return test(liveIn_, node, ref); }
  bool isLiveOut(Node node, ir::RegisterRef ref) const { return test(liveOut_, node, ref); }
  /// The same, by RegisterNumbering id.
  bool isLiveIn(Node node, uint32_t id) const { return testId(liveIn_, node, id); }
  bool isLiveOut(Node node, uint32_t id) const { return testId(liveOut_, node, id); }
  /// Sorted register numbers (RegisterNumbering ids).
  std::vector<uint32_t> liveIn(Node node) const { return expand(liveIn_[node]); }
  std::vector<uint32_t> liveOut(Node node) const { return expand(liveOut_[node]); }
  /// Registers live when the function ends (`.reg` returns of a `.func`).
  const std::vector<uint32_t>& liveAtExit() const { return exitLive_; }
  /// Number of registers that are live across some block boundary.
  size_t globalCount() const { return globals_.size(); }
  /// Rounds of the dataflow iteration until it was stable (for the benchmark).
  unsigned iterations() const { return iterations_; }

private:
  friend class LiveScanner;
  bool test(const std::vector<BitVector>& sets, Node node, ir::RegisterRef ref) const {
    return testId(sets, node, numbering_->id(ref));
  }
  bool testId(const std::vector<BitVector>& sets, Node node, uint32_t id) const {
    if (id >= globalIndex_.size() || node >= sets.size())
      return false;
    uint32_t g = globalIndex_[id];
    return g != RegisterNumbering::kNone && sets[node].test(g);
  }
  std::vector<uint32_t> expand(const BitVector& set) const;

  const ControlFlowGraph* cfg_;
  const RegisterNumbering* numbering_;
  std::vector<uint32_t> globals_;     ///< global index -> register id
  std::vector<uint32_t> globalIndex_; ///< register id -> global index or kNone
  std::vector<BitVector> liveIn_, liveOut_;
  std::vector<uint32_t> exitLive_;
  unsigned iterations_ = 0;
};

/// Walks one block from its end to its start, keeping the set of live registers exact at every
/// instruction boundary, and the register pressure (32-bit units and predicates) of that set.
///
///     LiveScanner scan(liveness, node);             // live = live-out of the block
///     for (instructions in reverse) { ...; scan.step(inst); }   // live = live before inst
class LiveScanner {
public:
  LiveScanner(const Liveness& liveness, ControlFlowGraph::Node node);

  /// Moves from after `instruction` to before it.
  void step(const ir::Instruction& instruction);
  /// Live registers, indexed by RegisterNumbering id.
  const BitVector& live() const { return live_; }
  bool isLive(ir::RegisterRef ref) const;
  unsigned liveUnits() const { return units_; }
  unsigned livePredicates() const { return predicates_; }

private:
  void add(uint32_t id);
  void remove(uint32_t id);

  const Liveness& liveness_;
  BitVector live_;
  unsigned units_ = 0;
  unsigned predicates_ = 0;
  std::vector<uint32_t> reads_;
};

struct LivenessAnalysis {
  static AnalysisKey Key;
  static constexpr std::string_view Name = "liveness";
  using Result = Liveness;
  Result run(ir::Function& function, AnalysisManager& am);
};

} // namespace ocelot::passes
