#pragma once

#include "ocelot/Instrumentor.h"
#include "passes/Pass.h"

#include <cstdint>
#include <functional>

namespace ocelot::instrumentors {

/// Keeps probe counters that are updated in loops in per-thread registers (docs/probes.md,
/// "Counters in loops"). Runs after the probes are inlined. A counter update qualifies when it is
/// `red` or `atom` `.add` of a 32- or 64-bit integer (`.global` or generic, no other modifier,
/// an atom's result unused) to an address that is this instrumentor's buffer address (the load
/// BufferAccess::bufferAddress emits) plus an offset computed only from immediates and special
/// registers that keep their value for the thread's lifetime (%ctaid, %tid, %ntid, %nctaid,
/// %laneid: a counter index, a stripe) -- followed exactly through its definitions, never guessed.
/// Such an update in a loop becomes an `add` into a register (the same guard: each lane adds what
/// it would have added atomically), zeroed at the function's entry and flushed, with one
/// `red.add` per lane whose register is not 0, on every edge out of the outermost loop without
/// calls around it (in the edge's target or source, or before the source's `@%p bra` under the
/// branch's condition: no new blocks; zeroed again there, since the loop may run again) and before
/// every `ret` and `exit` inside that loop. The totals are the same; the order of the additions
/// is not observable, unless the kernel reads or overwrites the counter, so a counter is left alone
/// when any instruction that may touch it reads it (`ld`, an atom whose result is used) or writes
/// it otherwise than by an integer add (`st`, `atom.exch`, streams' records at indices an atomic
/// returned). Counters of loops that call functions stay atomic (a callee may `exit`).
/// At most `registerBudget` 32-bit registers per function (a 64-bit counter takes two), innermost
/// loops first, as bbcount places its register counters.
class ProbeCounterPromotionPass final : public passes::KernelPass {
public:
  /// Told, per function where counters moved, how many 32-bit register units they take.
  using Report = std::function<void(const ir::Function&, uint32_t units)>;

  explicit ProbeCounterPromotionPass(const BufferAccess& buffer, uint32_t registerBudget = 32,
                                     Report report = nullptr)
      : buffer_(buffer), budget_(registerBudget), report_(std::move(report)) {}

  std::string_view name() const override { return "probe-counter-promotion"; }
  bool appliesTo(const ir::Function& function) const override;
  passes::PreservedAnalyses run(ir::Function& function, passes::AnalysisManager& analyses) override;

  /// Counter updates replaced by register adds, and registers (counters) used, over every function
  /// the pass ran on.
  uint32_t promotedUpdates() const { return promotedUpdates_; }
  uint32_t promotedCounters() const { return promotedCounters_; }

private:
  const BufferAccess& buffer_;
  uint32_t budget_;
  Report report_;
  uint32_t promotedUpdates_ = 0;
  uint32_t promotedCounters_ = 0;
};

} // namespace ocelot::instrumentors
