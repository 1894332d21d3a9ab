#pragma once

#include "runtime/core/Copies.h"
#include "runtime/driver/DriverApi.h"

namespace ocelot::runtime::driver {

class DriverDevice;

/// A GPU's copies and fills: the 1D ones (Device::copy, Device::fill) and those of the Copies area.
class DriverCopies final : public Copies {
public:
  DriverCopies(const DriverApi& api, DriverDevice& device) : api_(api), device_(device) {}

  cudaError_t copy(void* destination, const void* source, size_t bytes, Stream& stream, bool async);
  cudaError_t fill(void* destination, unsigned char value, size_t bytes, Stream& stream,
                   bool async);

  cudaError_t copy3D(const CopyRegion& region, Stream& stream, bool async) override;
  cudaError_t copyPeer(void* destination, const void* source, Device& sourceDevice, size_t bytes,
                       Stream& stream, bool async) override;
  cudaError_t copy3DPeer(const CopyRegion& region, Device& sourceDevice, Stream& stream,
                         bool async) override;
  cudaError_t copyBatch(void* const* destinations, const void* const* sources, const size_t* sizes,
                        size_t count, cudaMemcpyAttributes* attributes, size_t* attributeIndices,
                        size_t attributeCount, Stream& stream) override;
  cudaError_t fill2D(void* destination, size_t pitch, unsigned char value, size_t width,
                     size_t height, Stream& stream, bool async) override;

private:
  /// One copy or fill in `stream`'s order: `inStream(handle)` for an asynchronous one, and for a
  /// synchronous one `synchronous()`, except under per-thread default stream semantics (the _ptds
  /// entry points), where it is the asynchronous form on the thread's stream waited for.
  template <class InStream, class Synchronous>
  cudaError_t ordered(Stream& stream, bool async, InStream inStream, Synchronous synchronous);

  const DriverApi& api_;
  DriverDevice& device_;
};

} // namespace ocelot::runtime::driver
