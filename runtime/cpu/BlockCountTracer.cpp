#include "runtime/cpu/BlockCountTracer.h"

#include <bit>
#include <cstdio>

namespace ocelot::runtime::cpu {

void BlockCountTracer::launchBegin(const DecodedKernel& kernel) {
  blockCount_ = kernel.blocks.size();
  counts_ = std::make_unique<std::atomic<uint64_t>[]>(blockCount_);
  for (size_t i = 0; i < blockCount_; ++i)
    counts_[i].store(0, std::memory_order_relaxed);
  atomicPc_.assign(kernel.sources.size(), 0);
  matchPc_.assign(kernel.sources.size(), 0);
  for (size_t pc = 0; pc < kernel.sources.size(); ++pc) {
    atomicPc_[pc] =
        kernel.sources[pc].text.starts_with("atom.") || kernel.sources[pc].text.starts_with("red.");
    matchPc_[pc] = kernel.sources[pc].text.starts_with("match.");
  }
  instructions_ = 0;
  for (const ProgramBlock& block : kernel.blocks)
    instructions_ += block.instructionCount;
  warpInstructions_.store(0, std::memory_order_relaxed);
  threadInstructions_.store(0, std::memory_order_relaxed);
  atomics_.store(0, std::memory_order_relaxed);
  atomicLanes_.store(0, std::memory_order_relaxed);
  matches_.store(0, std::memory_order_relaxed);
}

void BlockCountTracer::instruction(const TraceSite&, uint32_t pc, LaneMask, LaneMask executed) {
  const auto lanes = static_cast<uint64_t>(std::popcount(executed));
  warpInstructions_.fetch_add(1, std::memory_order_relaxed);
  threadInstructions_.fetch_add(lanes, std::memory_order_relaxed);
  if (pc < atomicPc_.size() && atomicPc_[pc] != 0 && lanes != 0) {
    atomics_.fetch_add(1, std::memory_order_relaxed);
    atomicLanes_.fetch_add(lanes, std::memory_order_relaxed);
  }
  if (pc < matchPc_.size() && matchPc_[pc] != 0 && lanes != 0)
    matches_.fetch_add(1, std::memory_order_relaxed);
}

void BlockCountTracer::blockEntered(const TraceSite&, uint32_t block, LaneMask active) {
  if (block < blockCount_)
    counts_[block].fetch_add(static_cast<uint64_t>(std::popcount(active)),
                             std::memory_order_relaxed);
}

void BlockCountTracer::launchRejected(const DecodedKernel& kernel) {
  std::lock_guard lock(mutex_);
  ++launches_[kernel.name];
}

void BlockCountTracer::launchEnd(const DecodedKernel& kernel) {
  std::lock_guard lock(mutex_);
  const uint64_t launch = ++launches_[kernel.name];
  std::string line = "{\"kernel\":\"" + kernel.name +
                     "\",\"kernel_launch\":" + std::to_string(launch) + ",\"blocks\":[";
  for (size_t i = 0; i < blockCount_; ++i) {
    const ProgramBlock& block = kernel.blocks[i];
    if (i != 0)
      line += ",";
    line += "{\"function\":\"" + kernel.functions[block.function].name +
            "\",\"index\":" + std::to_string(block.irBlock) +
            ",\"count\":" + std::to_string(counts_[i].load(std::memory_order_relaxed)) + "}";
  }
  line += "],\"instructions\":" + std::to_string(instructions_) +
          ",\"warp_instructions\":" + std::to_string(warpInstructions_.load()) +
          ",\"thread_instructions\":" + std::to_string(threadInstructions_.load()) +
          ",\"atomics\":" + std::to_string(atomics_.load()) +
          ",\"atomic_lanes\":" + std::to_string(atomicLanes_.load()) +
          ",\"matches\":" + std::to_string(matches_.load()) + "}\n";
  if (std::FILE* out = std::fopen(path_.c_str(), "a")) {
    std::fputs(line.c_str(), out);
    std::fclose(out);
  }
}

} // namespace ocelot::runtime::cpu
