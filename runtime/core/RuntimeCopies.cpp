// Runtime: 2D and 3D copies (linear memory and arrays), 2D/3D fills, peer copies and copy batches.
// Every 2D/3D copy is validated here and handed to the device as one CopyRegion in bytes.

#include "runtime/core/ChannelFormat.h"
#include "runtime/core/CopyKind.h"
#include "runtime/core/Runtime.h"

#include <algorithm>
#include <cstring>

namespace ocelot::runtime {
namespace {

bool emptyExtent(const cudaExtent& extent) {
  return extent.width == 0 || extent.height == 0 || extent.depth == 0;
}

} // namespace

cudaError_t Runtime::memcpy3D(const cudaMemcpy3DParms* params, cudaStream_t stream, bool async) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (params == nullptr)
    return cudaErrorInvalidValue;
  int kind = 0;
  std::memcpy(&kind, &params->kind, sizeof kind);
  if (!validCopyKind(kind))
    return cudaErrorInvalidMemcpyDirection;
  CopyRegion region;
  if (cudaError_t error = copyRegionOf(*params, *device, &region); error != cudaSuccess)
    return error;
  if (emptyExtent(params->extent))
    return cudaSuccess;
  Stream* queue = nullptr;
  if (cudaError_t error = streamOn(*device, stream, &queue); error != cudaSuccess)
    return error;
  return deviceResult(device->copy3D(region, *queue, async));
}

// cudaMemcpy2D and its array forms: positions and width in bytes (the 2D API counts bytes even
// within arrays), one slice.
cudaError_t Runtime::memcpy2D(const CopyEndpoint& destination, const CopyEndpoint& source,
                              size_t width, size_t height, int kind, cudaStream_t stream,
                              bool async) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (!validCopyKind(kind))
    return cudaErrorInvalidMemcpyDirection;
  if (width == 0 || height == 0)
    return cudaSuccess;
  bool sourceArray = source.array != nullptr;
  bool destinationArray = destination.array != nullptr;
  if ((!sourceArray && source.pointer == nullptr) ||
      (!destinationArray && destination.pointer == nullptr))
    return cudaErrorInvalidValue;
  if ((!sourceArray && source.pitch < width) || (!destinationArray && destination.pitch < width))
    return cudaErrorInvalidPitchValue;
  CopyRegion region;
  region.source = source;
  region.destination = destination;
  region.source.rowsPerSlice = sourceArray ? 0 : height;
  region.destination.rowsPerSlice = destinationArray ? 0 : height;
  region.widthBytes = width;
  region.height = height;
  region.depth = 1;
  Stream* queue = nullptr;
  if (cudaError_t error = streamOn(*device, stream, &queue); error != cudaSuccess)
    return error;
  return deviceResult(device->copy3D(region, *queue, async));
}

// The deprecated 1D array copies (cudaMemcpyToArray, FromArray, ArrayToArray): `bytes` bytes from a
// starting element, continuing row after row. They become one copy per run that stays within a
// row on both sides.
cudaError_t Runtime::memcpyArrayLinear(const CopyEndpoint& destination, const CopyEndpoint& source,
                                       size_t bytes, int kind, cudaStream_t stream, bool async) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (!validCopyKind(kind))
    return cudaErrorInvalidMemcpyDirection;
  if (bytes == 0)
    return cudaSuccess;
  if ((destination.array == nullptr && destination.pointer == nullptr) ||
      (source.array == nullptr && source.pointer == nullptr))
    return cudaErrorInvalidValue;
  size_t element = 0, sourceRow = 0, destinationRow = 0;
  if (source.array != nullptr)
    if (cudaError_t error = arrayElementBytes(*device, source.array, &element, &sourceRow);
        error != cudaSuccess)
      return error;
  if (destination.array != nullptr)
    if (cudaError_t error =
            arrayElementBytes(*device, destination.array, &element, &destinationRow);
        error != cudaSuccess)
      return error;

  Stream* queue = nullptr;
  if (cudaError_t error = streamOn(*device, stream, &queue); error != cudaSuccess)
    return error;
  CopyEndpoint from = source, to = destination;
  while (bytes > 0) {
    size_t run = bytes;
    if (from.array != nullptr) {
      if (from.x >= sourceRow)
        return cudaErrorInvalidValue;
      run = std::min(run, sourceRow - from.x);
    }
    if (to.array != nullptr) {
      if (to.x >= destinationRow)
        return cudaErrorInvalidValue;
      run = std::min(run, destinationRow - to.x);
    }
    CopyRegion region;
    region.source = from;
    region.destination = to;
    if (from.array == nullptr)
      region.source.pitch = run;
    if (to.array == nullptr)
      region.destination.pitch = run;
    region.widthBytes = run;
    if (cudaError_t error = device->copy3D(region, *queue, async); error != cudaSuccess)
      return deviceResult(error);
    bytes -= run;
    for (CopyEndpoint* side : {&from, &to}) {
      if (side->array == nullptr) {
        side->pointer = static_cast<char*>(side->pointer) + run;
        continue;
      }
      side->x += run;
      size_t row = side == &from ? sourceRow : destinationRow;
      if (side->x == row) {
        side->x = 0;
        ++side->y;
      }
    }
  }
  return cudaSuccess;
}

cudaError_t Runtime::memcpyPeer(void* destination, int destinationDevice, const void* source,
                                int sourceDevice, size_t bytes, cudaStream_t stream, bool async) {
  Device* to = nullptr;
  Device* from = nullptr;
  if (cudaError_t error = deviceByOrdinal(destinationDevice, &to); error != cudaSuccess)
    return error;
  if (cudaError_t error = deviceByOrdinal(sourceDevice, &from); error != cudaSuccess)
    return error;
  Device* current = nullptr;
  if (cudaError_t error = currentDevice(&current); error != cudaSuccess)
    return error;
  if (bytes == 0)
    return cudaSuccess;
  if (destination == nullptr || source == nullptr)
    return cudaErrorInvalidValue;
  if (cudaError_t error = to->activate(); error != cudaSuccess)
    return deviceResult(error);
  Stream* queue = nullptr;
  if (cudaError_t error = streamOn(*to, stream, &queue); error != cudaSuccess)
    return error;
  cudaError_t result = to->copyPeer(destination, source, *from, bytes, *queue, async);
  // The copy ran in the destination's context; the thread's current device stays what it was.
  current->activate();
  return deviceResult(result);
}

cudaError_t Runtime::memcpy3DPeer(const cudaMemcpy3DPeerParms* params, cudaStream_t stream,
                                  bool async) {
  if (params == nullptr) {
    if (cudaError_t error = initialize(); error != cudaSuccess)
      return error;
    return cudaErrorInvalidValue;
  }
  Device* to = nullptr;
  Device* from = nullptr;
  if (cudaError_t error = deviceByOrdinal(params->dstDevice, &to); error != cudaSuccess)
    return error;
  if (cudaError_t error = deviceByOrdinal(params->srcDevice, &from); error != cudaSuccess)
    return error;
  Device* current = nullptr;
  if (cudaError_t error = currentDevice(&current); error != cudaSuccess)
    return error;
  cudaMemcpy3DParms shape{};
  shape.srcArray = params->srcArray;
  shape.srcPos = params->srcPos;
  shape.srcPtr = params->srcPtr;
  shape.dstArray = params->dstArray;
  shape.dstPos = params->dstPos;
  shape.dstPtr = params->dstPtr;
  shape.extent = params->extent;
  shape.kind = cudaMemcpyDefault;
  // Array element sizes are read where each array lives.
  CopyRegion region;
  if (cudaError_t error = copyRegionOf(shape, params->srcArray != nullptr ? *from : *to, &region);
      error != cudaSuccess)
    return error;
  if (emptyExtent(params->extent))
    return cudaSuccess;
  if (cudaError_t error = to->activate(); error != cudaSuccess)
    return deviceResult(error);
  Stream* queue = nullptr;
  if (cudaError_t error = streamOn(*to, stream, &queue); error != cudaSuccess)
    return error;
  cudaError_t result = to->copy3DPeer(region, *from, *queue, async);
  current->activate();
  return deviceResult(result);
}

cudaError_t Runtime::memcpyBatchAsync(void* const* destinations, const void* const* sources,
                                      const size_t* sizes, size_t count,
                                      cudaMemcpyAttributes* attributes, size_t* attributeIndices,
                                      size_t attributeCount, cudaStream_t stream) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (count == 0 || destinations == nullptr || sources == nullptr || sizes == nullptr ||
      attributes == nullptr || attributeIndices == nullptr || attributeCount == 0 ||
      attributeCount > count || attributeIndices[0] != 0)
    return cudaErrorInvalidValue;
  // The legacy NULL stream cannot run a batch (it must be ordered after other streams).
  if (stream == nullptr || stream == cudaStreamLegacy)
    return cudaErrorInvalidValue;
  Stream* queue = nullptr;
  if (cudaError_t error = streamOn(*device, stream, &queue); error != cudaSuccess)
    return error;
  return deviceResult(device->copyBatch(destinations, sources, sizes, count, attributes,
                                        attributeIndices, attributeCount, *queue));
}

cudaError_t Runtime::memcpy3DBatchAsync(size_t count, cudaMemcpy3DBatchOp* operations,
                                        unsigned long long flags, cudaStream_t stream) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (count == 0 || operations == nullptr || flags != 0)
    return cudaErrorInvalidValue;
  if (stream == nullptr || stream == cudaStreamLegacy)
    return cudaErrorInvalidValue;
  Stream* queue = nullptr;
  if (cudaError_t error = streamOn(*device, stream, &queue); error != cudaSuccess)
    return error;
  return deviceResult(device->copy3DBatch(count, operations, flags, *queue));
}

cudaError_t Runtime::memset2D(void* destination, size_t pitch, int value, size_t width,
                              size_t height, cudaStream_t stream, bool async) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (width == 0 || height == 0)
    return cudaSuccess;
  if (destination == nullptr || (height > 1 && pitch < width))
    return cudaErrorInvalidValue;
  Stream* queue = nullptr;
  if (cudaError_t error = streamOn(*device, stream, &queue); error != cudaSuccess)
    return error;
  return deviceResult(device->fill2D(destination, height > 1 ? pitch : std::max(pitch, width),
                                     static_cast<unsigned char>(value), width, height, *queue,
                                     async));
}

cudaError_t Runtime::memset3D(cudaPitchedPtr destination, int value, cudaExtent extent,
                              cudaStream_t stream, bool async) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (emptyExtent(extent))
    return cudaSuccess;
  if (destination.ptr == nullptr || destination.pitch < extent.width ||
      (extent.depth > 1 && destination.ysize < extent.height))
    return cudaErrorInvalidValue;
  auto byte = static_cast<unsigned char>(value);
  Stream* queue = nullptr;
  if (cudaError_t error = streamOn(*device, stream, &queue); error != cudaSuccess)
    return error;
  // Slices that follow each other without a gap are one 2D fill.
  if (extent.depth == 1 || destination.ysize == extent.height)
    return deviceResult(device->fill2D(destination.ptr, destination.pitch, byte, extent.width,
                                       extent.height * extent.depth, *queue, async));
  size_t slice = destination.pitch * destination.ysize;
  for (size_t z = 0; z < extent.depth; ++z) {
    cudaError_t error =
        device->fill2D(static_cast<char*>(destination.ptr) + z * slice, destination.pitch, byte,
                       extent.width, extent.height, *queue, async);
    if (error != cudaSuccess)
      return deviceResult(error);
  }
  return cudaSuccess;
}

} // namespace ocelot::runtime
