#pragma once

#include <cstddef>
#include <driver_types.h>

namespace ocelot::runtime {

/// What a channel format (cudaChannelFormatDesc) describes: how many channels an element has, how
/// wide each is and how many bytes one element (for block-compressed formats: one 4x4 block)
/// takes.
struct ChannelLayout {
  unsigned int channels = 0;
  unsigned int bitsPerChannel = 0;
  size_t elementBytes = 0;
};

/// Checks a channel format as the Runtime API does for arrays, textures and surfaces: the non-zero
/// channel widths must lead (x, then y, ...), agree, number 1, 2 or 4, and suit the kind (8, 16 or
/// 32 bits for integers, 16 or 32 for floats; the fixed shapes of the normalized, NV12 and
/// block-compressed kinds). Anything else is cudaErrorInvalidChannelDescriptor.
cudaError_t channelLayout(const cudaChannelFormatDesc& format, ChannelLayout* layout);

} // namespace ocelot::runtime
