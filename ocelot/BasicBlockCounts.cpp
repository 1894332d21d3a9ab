#include "ocelot/BasicBlockCounts.h"

#include <cstdio>
#include <nlohmann/json.hpp>

namespace ocelot {

std::string_view modeName(BasicBlockCounts::Mode mode) {
  return mode == BasicBlockCounts::Mode::PerThread ? "per-thread" : "per-warp";
}

BasicBlockCounts::BasicBlockCounts(Mode mode, uint64_t threads, std::vector<Block> blocks,
                                   std::vector<uint64_t> perThread,
                                   std::shared_ptr<const CodeStructure> structure,
                                   bool writeStructure)
    : mode_(mode), threads_(threads), blocks_(std::move(blocks)), perThread_(std::move(perThread)),
      structure_(std::move(structure)), writeStructure_(writeStructure && structure_ != nullptr) {}

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

Json BasicBlockCounts::json() const {
  Json out = Json::object();
  out["mode"] = modeName(mode_);
  out["threads"] = threads_;
  out["block_executions"] = blockExecutions();
  out["dynamic_instructions"] = dynamicInstructions();
  Json blocks = Json::array();
  for (const Block& b : blocks_) {
    Json block = Json::object();
    block["function"] = b.function;
    block["index"] = b.index;
    block["label"] = b.label;
    block["instructions"] = b.instructions;
    block["location"] = b.location;
    block["count"] = b.count;
    // The exceptional flags are written only when set, to keep large profiles small.
    if (!b.counted)
      block["counted"] = false;
    if (b.derived)
      block["derived"] = true;
    if (b.mayHaveWrapped)
      block["may_have_wrapped"] = true;
    if (mode_ == Mode::PerThread)
      block["active_threads"] = b.activeThreads;
    blocks.push_back(std::move(block));
  }
  out["blocks"] = std::move(blocks);
  if (structure_) {
    out["module"] = structure_->id();
    if (writeStructure_)
      out["cfg"] = structure_->json();
  }
  return out;
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
