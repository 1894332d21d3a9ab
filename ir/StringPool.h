#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace ocelot::ir {

/// Owns every identifier, modifier and string of a module exactly once. Interned views stay valid
/// for the pool's lifetime, so IR objects hold std::string_view instead of std::string: parsing
/// allocates once per distinct name, not once per occurrence.
class StringPool {
public:
  StringPool() = default;
  StringPool(const StringPool&) = delete;
  StringPool& operator=(const StringPool&) = delete;

  /// The pool's copy of `text`; equal texts give the same view (same data pointer).
  std::string_view intern(std::string_view text);

  /// Bytes held in the pool's character storage (for memory reports).
  size_t bytesAllocated() const { return bytesAllocated_; }

private:
  std::string_view store(std::string_view text);
  void rehash(size_t capacity);

  /// Open addressing with linear probing (a parse interns a name for every label, symbol and
  /// directive it meets): the hash is kept to skip most comparisons and to rehash cheaply.
  struct Slot {
    const char* data = nullptr;
    uint32_t size = 0;
    uint32_t hash = 0;
  };
  std::vector<Slot> slots_;
  size_t count_ = 0;
  std::vector<std::unique_ptr<char[]>> chunks_;
  char* cursor_ = nullptr;
  size_t remaining_ = 0;
  size_t bytesAllocated_ = 0;
};

} // namespace ocelot::ir
