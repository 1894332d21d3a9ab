#pragma once

#include "runtime/core/CopyRegion.h"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <driver_types.h>

namespace ocelot::runtime {

class Device;
class Stream;

/// A device's copies and fills beyond the 1D ones (Device::copy, Device::fill): 2D and 3D copies to,
/// from and between arrays, peer copies, batches and 2D fills. Each runs in `stream`'s order and,
/// unless `async`, completes before the call returns.
class Copies {
public:
  virtual ~Copies() = default;

  /// Every 2D and 3D copy, as the API layer normalized it (see CopyRegion).
  virtual cudaError_t copy3D(const CopyRegion& region, Stream& stream, bool async) = 0;
  /// cudaMemcpyPeer / cudaMemcpy3DPeer: this device is the destination's.
  virtual cudaError_t copyPeer(void* destination, const void* source, Device& sourceDevice,
                               size_t bytes, Stream& stream, bool async) = 0;
  virtual cudaError_t copy3DPeer(const CopyRegion& region, Device& sourceDevice, Stream& stream,
                                 bool async) = 0;
  /// cudaMemcpyBatchAsync and cudaMemcpy3DBatchAsync.
  virtual cudaError_t copyBatch(void* const* destinations, const void* const* sources,
                                const size_t* sizes, size_t count,
                                cudaMemcpyAttributes* attributes, size_t* attributeIndices,
                                size_t attributeCount, Stream& stream) = 0;
  virtual cudaError_t copy3DBatch(size_t /*count*/, cudaMemcpy3DBatchOp* /*operations*/,
                                  unsigned long long /*flags*/, Stream& /*stream*/) {
    return cudaErrorNotSupported;
  }
  /// cudaMemset2D (and cudaMemset3D, one 2D fill per slice): `height` rows of `width` bytes.
  virtual cudaError_t fill2D(void* destination, size_t pitch, unsigned char value, size_t width,
                             size_t height, Stream& stream, bool async) = 0;
};

} // namespace ocelot::runtime
