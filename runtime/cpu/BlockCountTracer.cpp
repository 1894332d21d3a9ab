#include "runtime/cpu/BlockCountTracer.h"

#include <bit>
#include <cstdio>

namespace ocelot::runtime::cpu {

void BlockCountTracer::launchBegin(const DecodedKernel& kernel) {
  blockCount_ = kernel.blocks.size();
  counts_ = std::make_unique<std::atomic<uint64_t>[]>(blockCount_);
  for (size_t i = 0; i < blockCount_; ++i)
    counts_[i].store(0, std::memory_order_relaxed);
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
  line += "]}\n";
  if (std::FILE* out = std::fopen(path_.c_str(), "a")) {
    std::fputs(line.c_str(), out);
    std::fclose(out);
  }
}

} // namespace ocelot::runtime::cpu
