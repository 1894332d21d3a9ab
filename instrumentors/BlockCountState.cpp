#include "instrumentors/BlockCountState.h"

namespace ocelot::instrumentors {

namespace {

/// Whether every thread that starts `kernel` leaves through a ret or exit of the kernel itself,
/// so that counters kept in registers can be flushed there: no callee may `exit`, and every
/// call must have a known callee.
bool threadsLeaveThroughKernel(const ir::Function& kernel, const passes::CallGraph& calls,
                               bool linked) {
  for (const ir::Function* f : calls.reachableFrom(kernel)) {
    for (const auto& site : calls.callsFrom(*f)) {
      if (site.callee == nullptr)
        return false; // an indirect call nothing in the module matches
      if (!site.callee->hasBody() && linked)
        return false; // defined in another unit: unknown
    }
    if (f == &kernel)
      continue;
    bool exits = false;
    for (const auto& block : f->blocks())
      block->forEachInstruction(
          [&](const ir::Instruction& inst) { exits = exits || inst.form().has(ir::kExit); });
    if (exits)
      return false;
  }
  return true;
}

} // namespace

void BlockCountState::record(const ir::Function& function, const CounterPlacement& placement,
                             uint32_t firstRow) {
  std::vector<uint32_t> rows(placement.registers);
  for (uint32_t b = 0; b < placement.blocks.size(); ++b) {
    const BlockCounter& counter = placement.blocks[b];
    const ir::BasicBlock* block = function.blocks()[b].get();
    if (counter.kind == CounterKind::Atomic || counter.kind == CounterKind::Register)
      rowOf[block] = firstRow + b;
    if (counter.kind == CounterKind::Register) {
      registerOf[block] = counter.register_;
      rows[counter.register_] = firstRow + b;
    }
  }
  registerRows[&function] = std::move(rows);
}

uint32_t kernelRegisterCounters(const ir::Function& kernel, const passes::CallGraph& calls,
                                unsigned architecture, bool linked, uint32_t wanted) {
  if (wanted == 0 || architecture < 80)
    return 0;
  return threadsLeaveThroughKernel(kernel, calls, linked) ? wanted : 0;
}

} // namespace ocelot::instrumentors
