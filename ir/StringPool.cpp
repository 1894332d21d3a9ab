#include "ir/StringPool.h"

#include <algorithm>
#include <cstring>

namespace ocelot::ir {

namespace {
// Chunks grow from 4 KB to 64 KB so that small modules stay small and large ones allocate rarely.
constexpr size_t kFirstChunkSize = 4 * 1024;
constexpr size_t kChunkSize = 64 * 1024;
} // namespace

std::string_view StringPool::intern(std::string_view text) {
  if (auto it = strings_.find(text); it != strings_.end())
    return *it;
  std::string_view stored = store(text);
  strings_.insert(stored);
  return stored;
}

std::string_view StringPool::store(std::string_view text) {
  if (text.empty())
    return std::string_view();
  if (text.size() >= kChunkSize / 4) {
    // Large strings get a chunk of their own and leave the current chunk's free space alone.
    chunks_.push_back(std::make_unique<char[]>(text.size()));
    bytesAllocated_ += text.size();
    std::memcpy(chunks_.back().get(), text.data(), text.size());
    return std::string_view(chunks_.back().get(), text.size());
  }
  if (text.size() > remaining_) {
    size_t size = std::clamp(bytesAllocated_, kFirstChunkSize, kChunkSize);
    chunks_.push_back(std::make_unique<char[]>(size));
    bytesAllocated_ += size;
    cursor_ = chunks_.back().get();
    remaining_ = size;
  }
  std::memcpy(cursor_, text.data(), text.size());
  std::string_view view(cursor_, text.size());
  cursor_ += text.size();
  remaining_ -= text.size();
  return view;
}

} // namespace ocelot::ir
