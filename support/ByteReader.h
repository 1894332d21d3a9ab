#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>

namespace ocelot::support {

/// Bounds-checked little-endian reads from a byte buffer. Every read names its absolute offset and
/// yields nothing when any byte of it lies outside the buffer, so the parsers never compute an
/// address they have not checked. Offsets are 64-bit and checked without overflow.
class ByteReader {
public:
  explicit ByteReader(std::span<const std::byte> bytes) : bytes_(bytes) {}

  uint64_t size() const { return bytes_.size(); }

  /// True when [offset, offset + length) lies inside the buffer.
  bool contains(uint64_t offset, uint64_t length) const {
    return offset <= bytes_.size() && length <= bytes_.size() - offset;
  }

  std::optional<uint16_t> u16(uint64_t offset) const { return read<uint16_t>(offset); }
  std::optional<uint32_t> u32(uint64_t offset) const { return read<uint32_t>(offset); }
  std::optional<uint64_t> u64(uint64_t offset) const { return read<uint64_t>(offset); }

  /// The bytes [offset, offset + length), or nothing when they are not all inside the buffer.
  std::optional<std::span<const std::byte>> bytes(uint64_t offset, uint64_t length) const {
    if (!contains(offset, length))
      return std::nullopt;
    return bytes_.subspan(static_cast<size_t>(offset), static_cast<size_t>(length));
  }

private:
  template <class T> std::optional<T> read(uint64_t offset) const {
    if (!contains(offset, sizeof(T)))
      return std::nullopt;
    // Assemble little-endian explicitly: fatbinaries are little-endian on every host CUDA runs on,
    // and this stays correct (and alignment-free) wherever the buffer lies.
    T value = 0;
    for (size_t i = 0; i < sizeof(T); ++i)
      value |= static_cast<T>(static_cast<T>(bytes_[static_cast<size_t>(offset) + i]) << (8 * i));
    return value;
  }

  std::span<const std::byte> bytes_;
};

} // namespace ocelot::support
