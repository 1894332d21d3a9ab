#include "ocelot/BasicBlockCounts.h"

#include "ocelot/JsonWriter.h"

#include <cstdio>

namespace ocelot {

std::string_view modeName(BasicBlockCounts::Mode mode) {
  return mode == BasicBlockCounts::Mode::PerThread ? "per-thread" : "per-warp";
}

BasicBlockCounts::BasicBlockCounts(Mode mode, uint64_t threads, std::vector<Block> blocks,
                                   std::vector<uint64_t> perThread)
    : mode_(mode), threads_(threads), blocks_(std::move(blocks)), perThread_(std::move(perThread)) {
}

uint64_t BasicBlockCounts::entryCount() const {
  return blocks_.empty() ? 0 : blocks_.front().count;
}

uint64_t BasicBlockCounts::dynamicInstructions() const {
  uint64_t total = 0;
  for (const Block& b : blocks_)
    total += b.count * b.instructions;
  return total;
}

uint64_t BasicBlockCounts::blockExecutions() const {
  uint64_t total = 0;
  for (const Block& b : blocks_)
    total += b.count;
  return total;
}

const BasicBlockCounts::Block* BasicBlockCounts::find(std::string_view function,
                                                      uint32_t index) const {
  for (const Block& b : blocks_)
    if (b.function == function && b.index == index)
      return &b;
  return nullptr;
}

std::span<const uint64_t> BasicBlockCounts::threadCounts(size_t row) const {
  if (perThread_.empty() || row >= blocks_.size() || threads_ == 0)
    return {};
  return std::span<const uint64_t>(perThread_).subspan(row * threads_, threads_);
}

void BasicBlockCounts::writeJson(JsonWriter& out) const {
  out.beginObject();
  out.key("mode").value(modeName(mode_));
  out.key("threads").value(threads_);
  out.key("block_executions").value(blockExecutions());
  out.key("dynamic_instructions").value(dynamicInstructions());
  out.key("blocks").beginArray();
  for (const Block& b : blocks_) {
    out.beginObject();
    out.key("function").value(b.function);
    out.key("index").value(b.index);
    out.key("label").value(b.label);
    out.key("instructions").value(b.instructions);
    out.key("location").value(b.location);
    out.key("count").value(b.count);
    if (!b.counted)
      out.key("counted").value(false);
    if (b.derived)
      out.key("derived").value(true);
    if (b.mayHaveWrapped)
      out.key("may_have_wrapped").value(true);
    if (mode_ == Mode::PerThread)
      out.key("active_threads").value(b.activeThreads);
    out.endObject();
  }
  out.endArray();
  out.endObject();
}

std::string BasicBlockCounts::summary() const {
  char text[160];
  std::snprintf(text, sizeof text, "%zu blocks, %llu block executions, %llu instructions (%s)",
                blocks_.size(), static_cast<unsigned long long>(blockExecutions()),
                static_cast<unsigned long long>(dynamicInstructions()),
                std::string(modeName(mode_)).c_str());
  std::string result = text;
  size_t wrapped = 0;
  for (const Block& b : blocks_)
    wrapped += b.mayHaveWrapped ? 1 : 0;
  if (wrapped != 0)
    result += "; " + std::to_string(wrapped) +
              " blocks counted in 32-bit registers may have wrapped (the launch ran over 2^32 "
              "cycles)";
  return result;
}

} // namespace ocelot
