#include "runtime/core/ChannelFormat.h"

#include <array>
#include <cstring>

namespace ocelot::runtime {
namespace {

/// The fixed shape of the kinds that are not plain signed/unsigned/float channels.
struct FixedShape {
  int kind;
  std::array<int, 4> bits;
  unsigned int channels;
  size_t elementBytes;
};

constexpr FixedShape kFixedShapes[] = {
    {cudaChannelFormatKindNV12, {8, 8, 8, 0}, 3, 1},
    {cudaChannelFormatKindUnsignedNormalized8X1, {8, 0, 0, 0}, 1, 1},
    {cudaChannelFormatKindUnsignedNormalized8X2, {8, 8, 0, 0}, 2, 2},
    {cudaChannelFormatKindUnsignedNormalized8X4, {8, 8, 8, 8}, 4, 4},
    {cudaChannelFormatKindUnsignedNormalized16X1, {16, 0, 0, 0}, 1, 2},
    {cudaChannelFormatKindUnsignedNormalized16X2, {16, 16, 0, 0}, 2, 4},
    {cudaChannelFormatKindUnsignedNormalized16X4, {16, 16, 16, 16}, 4, 8},
    {cudaChannelFormatKindSignedNormalized8X1, {8, 0, 0, 0}, 1, 1},
    {cudaChannelFormatKindSignedNormalized8X2, {8, 8, 0, 0}, 2, 2},
    {cudaChannelFormatKindSignedNormalized8X4, {8, 8, 8, 8}, 4, 4},
    {cudaChannelFormatKindSignedNormalized16X1, {16, 0, 0, 0}, 1, 2},
    {cudaChannelFormatKindSignedNormalized16X2, {16, 16, 0, 0}, 2, 4},
    {cudaChannelFormatKindSignedNormalized16X4, {16, 16, 16, 16}, 4, 8},
    // Block-compressed formats: one element is a 4x4 block of texels.
    {cudaChannelFormatKindUnsignedBlockCompressed1, {8, 8, 8, 8}, 4, 8},
    {cudaChannelFormatKindUnsignedBlockCompressed1SRGB, {8, 8, 8, 8}, 4, 8},
    {cudaChannelFormatKindUnsignedBlockCompressed2, {8, 8, 8, 8}, 4, 16},
    {cudaChannelFormatKindUnsignedBlockCompressed2SRGB, {8, 8, 8, 8}, 4, 16},
    {cudaChannelFormatKindUnsignedBlockCompressed3, {8, 8, 8, 8}, 4, 16},
    {cudaChannelFormatKindUnsignedBlockCompressed3SRGB, {8, 8, 8, 8}, 4, 16},
    {cudaChannelFormatKindUnsignedBlockCompressed4, {8, 0, 0, 0}, 1, 8},
    {cudaChannelFormatKindSignedBlockCompressed4, {8, 0, 0, 0}, 1, 8},
    {cudaChannelFormatKindUnsignedBlockCompressed5, {8, 8, 0, 0}, 2, 16},
    {cudaChannelFormatKindSignedBlockCompressed5, {8, 8, 0, 0}, 2, 16},
    {cudaChannelFormatKindUnsignedBlockCompressed6H, {16, 16, 16, 0}, 3, 16},
    {cudaChannelFormatKindSignedBlockCompressed6H, {16, 16, 16, 0}, 3, 16},
    {cudaChannelFormatKindUnsignedBlockCompressed7, {8, 8, 8, 8}, 4, 16},
    {cudaChannelFormatKindUnsignedBlockCompressed7SRGB, {8, 8, 8, 8}, 4, 16},
    {cudaChannelFormatKindUnsignedNormalized1010102, {10, 10, 10, 2}, 4, 4},
};

} // namespace

cudaError_t channelLayout(const cudaChannelFormatDesc& format, ChannelLayout* layout) {
  int kind = 0;
  std::memcpy(&kind, &format.f, sizeof kind); // any integer the application passed
  std::array<int, 4> bits{format.x, format.y, format.z, format.w};

  for (const FixedShape& shape : kFixedShapes) {
    if (shape.kind != kind)
      continue;
    if (bits != shape.bits)
      return cudaErrorInvalidChannelDescriptor;
    *layout = {shape.channels, static_cast<unsigned int>(shape.bits[0]), shape.elementBytes};
    return cudaSuccess;
  }
  if (kind != cudaChannelFormatKindSigned && kind != cudaChannelFormatKindUnsigned &&
      kind != cudaChannelFormatKindFloat)
    return cudaErrorInvalidChannelDescriptor;

  unsigned int channels = 0;
  while (channels < 4 && bits[channels] != 0)
    ++channels;
  for (unsigned int i = channels; i < 4; ++i)
    if (bits[i] != 0)
      return cudaErrorInvalidChannelDescriptor; // a gap: x and z but no y
  for (unsigned int i = 1; i < channels; ++i)
    if (bits[i] != bits[0])
      return cudaErrorInvalidChannelDescriptor;
  if (channels != 1 && channels != 2 && channels != 4)
    return cudaErrorInvalidChannelDescriptor;
  int width = bits[0];
  bool widthOk = kind == cudaChannelFormatKindFloat ? (width == 16 || width == 32)
                                                    : (width == 8 || width == 16 || width == 32);
  if (!widthOk)
    return cudaErrorInvalidChannelDescriptor;
  *layout = {channels, static_cast<unsigned int>(width),
             static_cast<size_t>(channels) * static_cast<size_t>(width) / 8};
  return cudaSuccess;
}

} // namespace ocelot::runtime
