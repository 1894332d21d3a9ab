#pragma once

#include "runtime/cpu/ExecutionTracer.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace ocelot::runtime::cpu {

/// The trace the CPU device writes when OCELOT_CPU_TRACE_OUTPUT names a file: for every launch,
/// one JSON line with the kernel, its launch number and how many threads entered each basic block
/// of the original PTX (function name and IR block index, as BasicBlockCounter reports them).
/// CI compares these exact counts with the bbcount instrumentor's (tests/cpu/compare-bbcount.py).
/// The line also has what the launch executed, as a cost measure of instrumentation on a machine
/// without a GPU (tests/probes/probe_cost.py): PTX instructions in the kernel ("instructions"),
/// warp-level instructions issued ("warp_instructions"), lanes that executed them, guards applied
/// ("thread_instructions"), and of those the `atom` and `red` instructions ("atomics": warp-level,
/// executed by at least one lane; "atomic_lanes") and the `match` instructions ("matches",
/// warp-level: one costs far more than an instruction on a GPU, where it groups 32 keys).
class BlockCountTracer final : public ExecutionTracer {
public:
  explicit BlockCountTracer(std::string path) : path_(std::move(path)) {}

  void launchBegin(const DecodedKernel& kernel) override;
  void launchEnd(const DecodedKernel& kernel) override;
  void blockEntered(const TraceSite& site, uint32_t block, LaneMask active) override;
  void instruction(const TraceSite& site, uint32_t pc, LaneMask active, LaneMask executed) override;
  void launchRejected(const DecodedKernel& kernel) override;

private:
  std::string path_;
  std::mutex mutex_;
  std::unique_ptr<std::atomic<uint64_t>[]> counts_;
  size_t blockCount_ = 0;
  std::vector<uint8_t> atomicPc_; ///< per pc: an `atom` or `red`
  std::vector<uint8_t> matchPc_;  ///< per pc: a `match`
  uint64_t instructions_ = 0;
  std::atomic<uint64_t> warpInstructions_{0}, threadInstructions_{0}, atomics_{0}, atomicLanes_{0},
      matches_{0};
  std::map<std::string, uint64_t> launches_;
};

} // namespace ocelot::runtime::cpu
