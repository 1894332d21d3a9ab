#pragma once

#include "instrumentors/CounterPlacement.h"
#include "ocelot/CodeStructure.h"
#include "ocelot/Instrumentor.h"
#include "passes/CallGraph.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace ocelot::instrumentors {

/// One counted basic block: what the profile says about it and how it is counted.
struct CountedBlock {
  std::string function;
  uint32_t index = 0; ///< layout index in its function (before instrumentation)
  std::string label;
  uint32_t instructions = 0;
  std::string location;
  bool counted = true; ///< false: its function cannot reach the buffer
  CounterKind kind = CounterKind::Atomic;
  uint32_t sourceRow = 0; ///< Derived: the row whose count this block has
};

/// The basic-block counter's state for one module: the counter layout every launch of the
/// module's kernels uses. Rows [0, functionRows) are the blocks of the device functions (their
/// code is shared by all kernels); a kernel's own blocks follow, so a launch of kernel K needs
/// functionRows + blocks(K) rows. A row is `stripes` counters wide in the per-warp mode (warps
/// spread their atomics over them by CTA) and one counter per thread in the per-thread mode.
class BlockCountState final : public InstrumentorModuleState {
public:
  struct Kernel {
    std::vector<CountedBlock> rows;              ///< rows functionRows() + i
    std::vector<uint32_t> reachableFunctionRows; ///< rows of the device functions it may call
    uint32_t registerCounters = 0;
  };

  bool perThread = false;
  /// Per-warp mode: count the warps that enter each block (one per warp entry, whatever its active
  /// lanes) instead of the lanes (threads) that do. Probe tools' OCELOT_BLOCK_COUNTS "warps".
  bool countWarps = false;
  uint32_t stripes = 1;
  std::vector<CountedBlock> functionRows;
  std::unordered_map<std::string, Kernel> kernels;
  /// Which row counts a block, while the module is being instrumented (block identity is the
  /// IR's block object; blocks instrumentation adds are not in it).
  std::unordered_map<const ir::BasicBlock*, uint32_t> rowOf;
  /// Register counter of a block (Register kind), by block.
  std::unordered_map<const ir::BasicBlock*, uint32_t> registerOf;
  /// Register counters per function and the rows they count.
  std::unordered_map<const ir::Function*, std::vector<uint32_t>> registerRows;
  /// The module's code as analyzed (blocks, edges, loops, lines), for reports.
  std::shared_ptr<const CodeStructure> structure;
  /// Set by the first launch whose result carries `structure` into the profile file; later
  /// launches refer to it by id.
  mutable std::atomic<bool> structureWritten{false};

  /// Records how `function` is counted: its block b (layout index) in row firstRow + b, as
  /// `placement` says (rowOf, registerOf and registerRows, which the counting passes read).
  void record(const ir::Function& function, const CounterPlacement& placement, uint32_t firstRow);

  uint32_t functionRowCount() const { return static_cast<uint32_t>(functionRows.size()); }
  const CountedBlock& row(const Kernel& kernel, uint32_t index) const {
    return index < functionRows.size() ? functionRows[index]
                                       : kernel.rows[index - functionRows.size()];
  }
};

/// The register counters a kernel may use: `wanted` where the per-warp mode can flush them (sm_80
/// for redux.sync, every thread leaving through the kernel's own ret or exit: see
/// PlacementOptions::maxRegisters), else 0.
uint32_t kernelRegisterCounters(const ir::Function& kernel, const passes::CallGraph& calls,
                                unsigned architecture, bool linked, uint32_t wanted);

} // namespace ocelot::instrumentors
