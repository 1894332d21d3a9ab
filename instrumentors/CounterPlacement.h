#pragma once

#include "ir/Function.h"
#include "passes/AnalysisManager.h"

#include <cstdint>
#include <vector>

namespace ocelot::instrumentors {

/// How the basic-block counter counts one block.
enum class CounterKind : uint8_t {
  Atomic,      ///< code at the block's entry adds the warp's active lanes to a counter in memory
  Register,    ///< a per-thread register counts entries; flushed to memory when the thread exits
  Derived,     ///< no code: the count equals that of the block it is derived from
  Unreachable, ///< no path from the entry reaches it: its count is 0
};

struct BlockCounter {
  CounterKind kind = CounterKind::Atomic;
  uint32_t source = 0;    ///< Derived: the block (layout index) whose count this one has
  uint32_t register_ = 0; ///< Register: which of the function's register counters
};

struct PlacementOptions {
  /// Derive counts of blocks that run exactly as often as another block (straight-line chains and
  /// control equivalence).
  bool derive = true;
  /// Register counters the function may use (0: none). Only valid where every thread that starts
  /// the function leaves it through a ret or exit of the function itself (kernels whose callees
  /// never `exit`), because that is where registers are flushed.
  uint32_t maxRegisters = 0;
};

struct CounterPlacement {
  std::vector<BlockCounter> blocks; ///< per block, in layout order
  uint32_t registers = 0;           ///< register counters used
};

/// Decides how to count each block of `function`:
///  * a block B whose only predecessor P has B as its only successor and makes no call (a call
///    may never return: `exit` in a callee) runs exactly as often as P: derived;
///  * so does a block B that post-dominates, within one iteration of their common innermost loop
///    (or within the function), a block A that dominates it (control equivalence: the header,
///    the join after an if/else and the latch of a loop all run once per iteration); not in
///    regions that make calls, nor in irreducible functions;
///  * of the remaining blocks, those in loops, innermost first, get register counters (up to
///    maxRegisters): one `add` per entry instead of a warp vote and an atomic;
///  * everything else is counted at its entry with one atomic per warp.
CounterPlacement placeCounters(ir::Function& function, passes::AnalysisManager& analyses,
                               const PlacementOptions& options);

/// Whether `block` calls a function (which may `exit` and never return): counts cannot be derived
/// across it, nor kept in registers through it.
bool blockMakesCalls(const ir::BasicBlock& block);
/// The instructions of `block`: register counters go to the shortest blocks first.
uint32_t blockInstructionCount(const ir::BasicBlock& block);

} // namespace ocelot::instrumentors
