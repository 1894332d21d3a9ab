#pragma once

#include "ocelot/CodeStructure.h"
#include "ocelot/InstrumentorResult.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace ocelot {

/// The basic-block counter's result for one launch: for every basic block of the kernel (and of
/// the device functions it may call), how many times threads entered it.
///
/// Counts are thread counts: a warp of 32 threads entering a block adds 32 (an entry block's
/// count is the number of threads launched). Dynamic instruction counts follow: each block's
/// count times its number of PTX instructions.
class BasicBlockCounts final : public InstrumentorResult {
public:
  enum class Mode {
    PerThread, ///< the paper's counter matrix: one counter per block and thread
    PerWarp,   ///< counts summed per warp (one atomic per warp), in registers across loops
  };

  struct Block {
    std::string function;      ///< the kernel, or a device function it may call
    uint32_t index = 0;        ///< layout index in its function (B<index> in `ocelot ptx cfg`)
    std::string label;         ///< its first label, empty for blocks without one
    uint32_t instructions = 0; ///< PTX instructions of the application (instrumentation excluded)
    std::string location;      ///< "file.cu:12" from `.loc`, empty without line information
    uint64_t count = 0;        ///< thread entries
    /// False when the block could not be instrumented (a device function whose address is taken
    /// gets no counter buffer); its count is then 0 and means nothing.
    bool counted = true;
    /// True when the count was not measured at the block but copied from a block that executes
    /// exactly as often (one that dominates it and that it post-dominates within one iteration of
    /// their common innermost loop).
    bool derived = false;
    /// True when the block was counted in 32-bit per-thread registers (PerWarp mode, blocks in
    /// loops) and the launch ran long enough (2^32 cycles, about 2 s) for one thread to enter it
    /// 2^32 times: the count is then only certain modulo 2^32 per thread. Never set for launches
    /// shorter than that.
    bool mayHaveWrapped = false;
    /// PerThread mode: how many threads entered the block at least once.
    uint64_t activeThreads = 0;
  };

  /// `structure`: the module's code (blocks, edges, lines) the counts refer to, when known;
  /// `writeStructure`: whether json() includes it (the first launch of each instrumented module
  /// does, later ones refer to it by id).
  BasicBlockCounts(Mode mode, uint64_t threads, std::vector<Block> blocks,
                   std::vector<uint64_t> perThread = {},
                   std::shared_ptr<const CodeStructure> structure = nullptr,
                   bool writeStructure = false);

  std::string_view instrumentor() const override { return "bbcount"; }
  Json json() const override;
  std::string summary() const override;

  Mode mode() const { return mode_; }
  /// Threads of the launch.
  uint64_t threads() const { return threads_; }
  const std::vector<Block>& blocks() const { return blocks_; }
  /// The count of the kernel's first block: the number of threads launched.
  uint64_t entryCount() const;
  /// Sum over blocks of count x instructions.
  uint64_t dynamicInstructions() const;
  /// Sum over blocks of the counts.
  uint64_t blockExecutions() const;
  /// The block `index` of `function`, or nullptr.
  const Block* find(std::string_view function, uint32_t index) const;
  /// PerThread mode: the count of each thread (global linear thread id) for block number `row`
  /// of blocks(); empty in PerWarp mode.
  std::span<const uint64_t> threadCounts(size_t row) const;
  /// The module's code the blocks belong to; nullptr when unknown.
  const std::shared_ptr<const CodeStructure>& structure() const { return structure_; }

private:
  Mode mode_;
  uint64_t threads_;
  std::vector<Block> blocks_;
  std::vector<uint64_t> perThread_; ///< rows x threads, row-major
  std::shared_ptr<const CodeStructure> structure_;
  bool writeStructure_ = false;
};

std::string_view modeName(BasicBlockCounts::Mode mode); ///< "per-thread" / "per-warp"

} // namespace ocelot
