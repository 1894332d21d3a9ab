// A GPU's copies: 1D, 2D/3D (arrays included), peer and batched copies, 1D and 2D fills.
#include "runtime/driver/DriverCopies.h"

#include "runtime/core/Stream.h"
#include "runtime/driver/DriverConversions.h"
#include "runtime/driver/DriverDevice.h"

#include <vector>

namespace ocelot::runtime::driver {
namespace {

static_assert(sizeof(cudaMemcpyAttributes) == sizeof(CUmemcpyAttributes));

/// The peer form of a 3D copy (the contexts are the caller's to fill in).
CUDA_MEMCPY3D_PEER toPeerCopy(const CUDA_MEMCPY3D& plain) {
  CUDA_MEMCPY3D_PEER copy{};
  copy.srcXInBytes = plain.srcXInBytes;
  copy.srcY = plain.srcY;
  copy.srcZ = plain.srcZ;
  copy.srcMemoryType = plain.srcMemoryType;
  copy.srcDevice = plain.srcDevice;
  copy.srcArray = plain.srcArray;
  copy.srcPitch = plain.srcPitch;
  copy.srcHeight = plain.srcHeight;
  copy.dstXInBytes = plain.dstXInBytes;
  copy.dstY = plain.dstY;
  copy.dstZ = plain.dstZ;
  copy.dstMemoryType = plain.dstMemoryType;
  copy.dstDevice = plain.dstDevice;
  copy.dstArray = plain.dstArray;
  copy.dstPitch = plain.dstPitch;
  copy.dstHeight = plain.dstHeight;
  copy.WidthInBytes = plain.WidthInBytes;
  copy.Height = plain.Height;
  copy.Depth = plain.Depth;
  return copy;
}

} // namespace

template <class InStream, class Synchronous>
cudaError_t DriverCopies::ordered(Stream& stream, bool async, InStream inStream,
                                  Synchronous synchronous) {
  const cudaStream_t handle = stream.handle();
  if (!async && handle != cudaStreamPerThread)
    return toCudaError(synchronous());
  if (CUresult result = inStream(handle); result != CUDA_SUCCESS)
    return toCudaError(result);
  return async ? cudaSuccess : toCudaError(api_.streamSynchronize(handle));
}

cudaError_t DriverCopies::copy(void* destination, const void* source, size_t bytes, Stream& stream,
                               bool async) {
  CUdeviceptr to = toDevicePointer(destination), from = toDevicePointer(source);
  return ordered(
      stream, async, [&](CUstream handle) { return api_.memcpyAsync(to, from, bytes, handle); },
      [&] { return api_.memcpy(to, from, bytes); });
}

cudaError_t DriverCopies::fill(void* destination, unsigned char value, size_t bytes, Stream& stream,
                               bool async) {
  CUdeviceptr to = toDevicePointer(destination);
  return ordered(
      stream, async, [&](CUstream handle) { return api_.memsetD8Async(to, value, bytes, handle); },
      [&] { return api_.memsetD8(to, value, bytes); });
}

cudaError_t DriverCopies::copy3D(const CopyRegion& region, Stream& stream, bool async) {
  CUDA_MEMCPY3D copy = toDriverCopy(region);
  return ordered(
      stream, async, [&](CUstream handle) { return invoke(api_.memcpy3DAsync, &copy, handle); },
      [&] { return invoke(api_.memcpy3D, &copy); });
}

cudaError_t DriverCopies::copyPeer(void* destination, const void* source, Device& sourceDevice,
                                   size_t bytes, Stream& stream, bool async) {
  CUcontext destinationContext = nullptr, sourceContext = nullptr;
  if (cudaError_t error = device_.primaryContext(&destinationContext); error != cudaSuccess)
    return error;
  if (cudaError_t error = static_cast<DriverDevice&>(sourceDevice).primaryContext(&sourceContext);
      error != cudaSuccess)
    return error;
  CUdeviceptr to = toDevicePointer(destination), from = toDevicePointer(source);
  return ordered(
      stream, async,
      [&](CUstream handle) {
        return invoke(api_.memcpyPeerAsync, to, destinationContext, from, sourceContext, bytes,
                      handle);
      },
      [&] { return invoke(api_.memcpyPeer, to, destinationContext, from, sourceContext, bytes); });
}

cudaError_t DriverCopies::copy3DPeer(const CopyRegion& region, Device& sourceDevice, Stream& stream,
                                     bool async) {
  CUDA_MEMCPY3D_PEER copy = toPeerCopy(toDriverCopy(region));
  if (cudaError_t error = device_.primaryContext(&copy.dstContext); error != cudaSuccess)
    return error;
  if (cudaError_t error = static_cast<DriverDevice&>(sourceDevice).primaryContext(&copy.srcContext);
      error != cudaSuccess)
    return error;
  return ordered(
      stream, async, [&](CUstream handle) { return invoke(api_.memcpy3DPeerAsync, &copy, handle); },
      [&] { return invoke(api_.memcpy3DPeer, &copy); });
}

cudaError_t DriverCopies::copyBatch(void* const* destinations, const void* const* sources,
                                    const size_t* sizes, size_t count,
                                    cudaMemcpyAttributes* attributes, size_t* attributeIndices,
                                    size_t attributeCount, Stream& stream) {
  // The driver takes non-const arrays of addresses; copies keep the application's arrays intact.
  std::vector<CUdeviceptr> to(count), from(count);
  std::vector<size_t> bytes(sizes, sizes + count);
  for (size_t i = 0; i < count; ++i) {
    to[i] = toDevicePointer(destinations[i]);
    from[i] = toDevicePointer(sources[i]);
  }
  // cudaMemcpyAttributes and CUmemcpyAttributes have the same layout.
  return toCudaError(invoke(api_.memcpyBatchAsync, to.data(), from.data(), bytes.data(), count,
                            reinterpret_cast<CUmemcpyAttributes*>(attributes), attributeIndices,
                            attributeCount, stream.handle()));
}

cudaError_t DriverCopies::fill2D(void* destination, size_t pitch, unsigned char value, size_t width,
                                 size_t height, Stream& stream, bool async) {
  CUdeviceptr to = toDevicePointer(destination);
  return ordered(
      stream, async,
      [&](CUstream handle) {
        return invoke(api_.memsetD2D8Async, to, pitch, value, width, height, handle);
      },
      [&] { return invoke(api_.memsetD2D8, to, pitch, value, width, height); });
}

} // namespace ocelot::runtime::driver
