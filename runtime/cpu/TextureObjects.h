#pragma once

#include <cstddef>
#include <cstdint>
#include <driver_types.h>
#include <texture_types.h>
#include <vector>

namespace ocelot::runtime::cpu {

/// A CUDA array on the CPU device: elements stored row by row, slice by slice, in device memory.
struct CpuArray {
  cudaChannelFormatDesc format{};
  cudaExtent extent{}; ///< as created (height/depth 0 for lower dimensions)
  unsigned int flags = 0;
  uint32_t elementBytes = 0;
  size_t width = 0, height = 1, depth = 1;
  size_t rowBytes = 0, sliceBytes = 0;
  std::byte* data = nullptr;
};

/// What a texture or surface object handle refers to, resolved when it is created so that the
/// tex/suld/sust handlers only read plain fields.
struct TextureObject {
  cudaResourceDesc resource{};
  cudaTextureDesc description{};
  bool surface = false;
  const std::byte* data = nullptr;
  size_t width = 0, height = 1, depth = 1; ///< in elements
  size_t pitch = 0, slicePitch = 0;        ///< bytes
  uint32_t elementBytes = 0;
  uint32_t channels = 0;
  uint32_t channelBits[4] = {};
  cudaChannelFormatKind kind = cudaChannelFormatKindNone;
  /// Mipmapped resources: every level's layout (levels[0] is the fields above).
  std::vector<TextureObject> levels;
};

/// A mipmapped array: its levels are CpuArrays of the device (halving extents).
struct CpuMipmappedArray {
  std::vector<cudaArray_t> levels;
};

/// Handles are indices (plus one) into the device's table of objects; the table only grows, so
/// handlers can read it without locks while the device adds objects.
inline constexpr uint32_t kMaxTextureObjects = 1 << 16;

} // namespace ocelot::runtime::cpu
