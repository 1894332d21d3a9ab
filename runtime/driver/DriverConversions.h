#pragma once

#include "runtime/core/CopyRegion.h"

#include <cuda.h>

#include <driver_types.h>
#include <texture_types.h>

namespace ocelot::runtime::driver {

/// A unified address as the driver's device pointer.
inline CUdeviceptr toDevicePointer(const void* pointer) {
  return reinterpret_cast<CUdeviceptr>(pointer);
}

/// cudaMemLocation and CUmemLocation have the same layout and numbering.
inline CUmemLocation toDriverLocation(cudaMemLocation location) {
  CUmemLocation out{};
  out.type = static_cast<CUmemLocationType>(location.type);
  out.id = location.id;
  return out;
}

/// The Runtime API describes array and texture formats with cudaChannelFormatDesc, the driver
/// with an array format and a channel count. Formats the driver has no array format for give
/// false (the runtime validated the description already, so that is
/// cudaErrorInvalidChannelDescriptor).
bool toArrayFormat(const cudaChannelFormatDesc& format, CUarray_format* arrayFormat,
                   unsigned int* channels);
cudaChannelFormatDesc toChannelFormat(CUarray_format format, unsigned int channels);

/// A validated 2D/3D copy as the driver's descriptor. Linear memory is passed as unified
/// addresses, so the driver tells host from device memory as cudaMemcpyDefault does.
CUDA_MEMCPY3D toDriverCopy(const CopyRegion& region);
/// The reverse, for graph memcpy nodes the driver reports.
CopyRegion toCopyRegion(const CUDA_MEMCPY3D& copy);

/// Texture and surface descriptions. `toDriverResource` fails (false) for a format the driver
/// cannot express.
bool toDriverResource(const cudaResourceDesc& resource, CUDA_RESOURCE_DESC* out);
cudaResourceDesc toRuntimeResource(const CUDA_RESOURCE_DESC& resource);
CUDA_TEXTURE_DESC toDriverTexture(const cudaTextureDesc& description);
cudaTextureDesc toRuntimeTexture(const CUDA_TEXTURE_DESC& description);
CUDA_RESOURCE_VIEW_DESC toDriverView(const cudaResourceViewDesc& view);
cudaResourceViewDesc toRuntimeView(const CUDA_RESOURCE_VIEW_DESC& view);

} // namespace ocelot::runtime::driver
