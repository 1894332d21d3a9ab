#pragma once

#include <cstddef>
#include <memory>
#include <string_view>
#include <unordered_set>
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

  std::unordered_set<std::string_view> strings_;
  std::vector<std::unique_ptr<char[]>> chunks_;
  char* cursor_ = nullptr;
  size_t remaining_ = 0;
  size_t bytesAllocated_ = 0;
};

} // namespace ocelot::ir
