// DriverDevice: 2D/3D copies (arrays included), peer copies, batched copies and 2D fills.
#include "runtime/driver/DriverConversions.h"
#include "runtime/driver/DriverDevice.h"

#include <vector>

namespace ocelot::runtime::driver {
namespace {

CUdeviceptr address(const void* pointer) {
  return reinterpret_cast<CUdeviceptr>(pointer);
}

static_assert(sizeof(cudaMemcpyAttributes) == sizeof(CUmemcpyAttributes));

} // namespace

cudaError_t DriverDevice::copy3D(const CopyRegion& region, Stream& queue, bool async) {
  const cudaStream_t stream = queue.handle();
  CUDA_MEMCPY3D copy = toDriverCopy(region);
  // A synchronous copy under per-thread default stream semantics (the _ptds entry points) is an
  // asynchronous copy on the thread's stream followed by waiting for it.
  if (async || stream == cudaStreamPerThread) {
    if (CUresult result = invoke(api_.memcpy3DAsync, &copy, stream); result != CUDA_SUCCESS)
      return toCudaError(result);
    return async ? cudaSuccess : toCudaError(api_.streamSynchronize(stream));
  }
  return toCudaError(invoke(api_.memcpy3D, &copy));
}

cudaError_t DriverDevice::copyPeer(void* destination, const void* source, Device& sourceDevice,
                                   size_t bytes, Stream& queue, bool async) {
  const cudaStream_t stream = queue.handle();
  CUcontext destinationContext = nullptr, sourceContext = nullptr;
  if (cudaError_t error = primaryContext(&destinationContext); error != cudaSuccess)
    return error;
  if (cudaError_t error = driverDevice(sourceDevice).primaryContext(&sourceContext);
      error != cudaSuccess)
    return error;
  if (async || stream == cudaStreamPerThread) {
    if (CUresult result = invoke(api_.memcpyPeerAsync, address(destination), destinationContext,
                                 address(source), sourceContext, bytes, stream);
        result != CUDA_SUCCESS)
      return toCudaError(result);
    return async ? cudaSuccess : toCudaError(api_.streamSynchronize(stream));
  }
  return toCudaError(invoke(api_.memcpyPeer, address(destination), destinationContext,
                            address(source), sourceContext, bytes));
}

cudaError_t DriverDevice::copy3DPeer(const CopyRegion& region, Device& sourceDevice, Stream& queue,
                                     bool async) {
  const cudaStream_t stream = queue.handle();
  CUDA_MEMCPY3D plain = toDriverCopy(region);
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
  if (cudaError_t error = primaryContext(&copy.dstContext); error != cudaSuccess)
    return error;
  if (cudaError_t error = driverDevice(sourceDevice).primaryContext(&copy.srcContext);
      error != cudaSuccess)
    return error;
  if (async || stream == cudaStreamPerThread) {
    if (CUresult result = invoke(api_.memcpy3DPeerAsync, &copy, stream); result != CUDA_SUCCESS)
      return toCudaError(result);
    return async ? cudaSuccess : toCudaError(api_.streamSynchronize(stream));
  }
  return toCudaError(invoke(api_.memcpy3DPeer, &copy));
}

cudaError_t DriverDevice::copyBatch(void* const* destinations, const void* const* sources,
                                    const size_t* sizes, size_t count,
                                    cudaMemcpyAttributes* attributes, size_t* attributeIndices,
                                    size_t attributeCount, Stream& queue) {
  const cudaStream_t stream = queue.handle();
  // The driver takes non-const arrays of addresses; copies keep the application's arrays intact.
  std::vector<CUdeviceptr> to(count), from(count);
  std::vector<size_t> bytes(sizes, sizes + count);
  for (size_t i = 0; i < count; ++i) {
    to[i] = address(destinations[i]);
    from[i] = address(sources[i]);
  }
  // cudaMemcpyAttributes and CUmemcpyAttributes have the same layout.
  return toCudaError(invoke(api_.memcpyBatchAsync, to.data(), from.data(), bytes.data(), count,
                            reinterpret_cast<CUmemcpyAttributes*>(attributes), attributeIndices,
                            attributeCount, stream));
}

cudaError_t DriverDevice::fill2D(void* destination, size_t pitch, unsigned char value, size_t width,
                                 size_t height, Stream& queue, bool async) {
  const cudaStream_t stream = queue.handle();
  if (async || stream == cudaStreamPerThread) {
    if (CUresult result =
            invoke(api_.memsetD2D8Async, address(destination), pitch, value, width, height, stream);
        result != CUDA_SUCCESS)
      return toCudaError(result);
    return async ? cudaSuccess : toCudaError(api_.streamSynchronize(stream));
  }
  return toCudaError(invoke(api_.memsetD2D8, address(destination), pitch, value, width, height));
}

} // namespace ocelot::runtime::driver
