#pragma once

#include "runtime/core/Copies.h"

#include <driver_types.h>

namespace ocelot::runtime::cpu {

class CpuDevice;

/// The CPU device's copies and fills: the 1D ones (Device::copy, Device::fill) and those of the
/// Copies area, and what streams and graphs run for them.
class CpuCopies final : public Copies {
public:
  explicit CpuCopies(CpuDevice& device) : device_(device) {}

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

  /// Whether a copy or fill may touch what it names (graph nodes are checked when they are made,
  /// as stream work is when it is issued): see DeviceMemory::copyable.
  bool copyable(const CopyRegion& region) const;
  bool fillable(const cudaMemsetParamsV2& fill) const;

  /// What a stream or a graph runs (no validation; on a stream's thread).
  void runCopy3D(const CopyRegion& region);
  static void runMemset(const cudaMemsetParamsV2& fill);

private:
  /// Whether a copy may read or write these bytes (DeviceMemory::copyable).
  bool copyable(const void* pointer, size_t bytes) const;
  bool copyable(const CopyEndpoint& side, const CopyRegion& region) const;

  CpuDevice& device_;
};

} // namespace ocelot::runtime::cpu
