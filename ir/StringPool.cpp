#include "ir/StringPool.h"

#include <algorithm>
#include <cstring>

namespace ocelot::ir {

namespace {
// Chunks grow from 4 KB to 64 KB so that small modules stay small and large ones allocate rarely.
constexpr size_t kFirstChunkSize = 4 * 1024;
constexpr size_t kChunkSize = 64 * 1024;
} // namespace

namespace {

/// A word at a time: names are short (registers, labels, mnemonics, section symbols).
uint32_t hashOf(std::string_view text) {
  constexpr uint64_t kMultiplier = 0x9e3779b97f4a7c15ull;
  uint64_t hash = text.size() * kMultiplier;
  const char* p = text.data();
  size_t left = text.size();
  for (; left >= 8; left -= 8, p += 8) {
    uint64_t word;
    std::memcpy(&word, p, 8);
    hash = (hash ^ word) * kMultiplier;
    hash ^= hash >> 32;
  }
  uint64_t tail = 0;
  for (size_t i = 0; i < left; ++i)
    tail |= static_cast<uint64_t>(static_cast<unsigned char>(p[i])) << (8 * i);
  hash = (hash ^ tail) * kMultiplier;
  hash ^= hash >> 29;
  return static_cast<uint32_t>(hash);
}

} // namespace

std::string_view StringPool::intern(std::string_view text) {
  if (text.empty())
    return {};
  if (2 * (count_ + 1) > slots_.size())
    rehash(std::max<size_t>(64, 2 * slots_.size()));
  uint32_t hash = hashOf(text);
  size_t mask = slots_.size() - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    Slot& slot = slots_[i];
    if (slot.data == nullptr) { // free: only stored (non-empty) texts occupy slots
      std::string_view stored = store(text);
      slot = Slot{stored.data(), static_cast<uint32_t>(stored.size()), hash};
      ++count_;
      return stored;
    }
    if (slot.hash == hash && slot.size == text.size() &&
        std::memcmp(slot.data, text.data(), text.size()) == 0)
      return std::string_view(slot.data, slot.size);
  }
}

void StringPool::rehash(size_t capacity) {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(capacity, Slot{});
  size_t mask = capacity - 1;
  for (const Slot& slot : old) {
    if (slot.data == nullptr)
      continue;
    size_t i = slot.hash & mask;
    while (slots_[i].data != nullptr)
      i = (i + 1) & mask;
    slots_[i] = slot;
  }
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
    // Never smaller than the text: strings up to a quarter chunk (16 KB) land here, and names
    // are no longer limited to 4 KB.
    size_t size = std::max(std::clamp(bytesAllocated_, kFirstChunkSize, kChunkSize), text.size());
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
