#pragma once

#include <cstddef>

namespace ocelot::runtime::cpu {

/// Memory the system provides page by page as it is first touched (an anonymous private mapping):
/// what a CTA's per-thread stacks need, which are sized for the deepest recursion the stack limit
/// allows but mostly stay untouched. A std::vector zeroed all of it up front (16k recursing
/// threads took 4 GB).
class LazyBuffer {
public:
  LazyBuffer() = default;
  ~LazyBuffer();
  LazyBuffer(const LazyBuffer&) = delete;
  LazyBuffer& operator=(const LazyBuffer&) = delete;

  std::byte* data() const { return data_; }
  size_t size() const { return size_; }
  /// At least `bytes` (contents are not kept when it grows). Throws std::bad_alloc when the
  /// system refuses the mapping.
  void reserve(size_t bytes);

private:
  std::byte* data_ = nullptr;
  size_t size_ = 0;
};

} // namespace ocelot::runtime::cpu
