#pragma once

#include <cstddef>
#include <cstdint>
#include <driver_types.h>
#include <texture_types.h>
#include <vector>

namespace ocelot::runtime::cpu {

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

/// Handles are indices (plus one) into the device's table of objects (CpuTextures); the table never
/// moves, so handlers can read it without locks while the device adds objects.
inline constexpr uint32_t kMaxTextureObjects = 1 << 16;

} // namespace ocelot::runtime::cpu
