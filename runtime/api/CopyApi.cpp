// The CUDA Runtime API: copies and fills (part of CUDART_MEMORY): 1D, 2D and 3D copies between
// linear memory and arrays, peer copies, batches, and 1D/2D/3D fills.
//
// Every function has exactly the prototype of NVIDIA's header, which this file includes, so a
// mismatch is a compile error. Every 2D/3D copy is validated here and handed to the device as one
// CopyRegion in bytes.

#include "runtime/api/ApiBoundary.h"
#include "runtime/api/MemoryCalls.h"
#include "runtime/core/CopyKind.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstring>

namespace ocelot::runtime::api {
namespace {

bool emptyExtent(const cudaExtent& extent) {
  return extent.width == 0 || extent.height == 0 || extent.depth == 0;
}

/// Runs a copy in the destination device's context (the copy is that device's); the thread's
/// current device stays what it was. `copy` throws nothing (its objects are resolved already).
template <class Copy> cudaError_t onDestination(Device& destination, Device& current, Copy copy) {
  if (cudaError_t error = destination.activate(); error != cudaSuccess)
    return error;
  cudaError_t result = copy();
  current.activate();
  return result;
}

} // namespace

cudaError_t copy(void* destination, const void* source, size_t bytes, int kind, cudaStream_t stream,
                 bool async, const std::source_location& where) {
  return onCurrentDeviceAt(where, [&](Scope& scope) {
    if (!validCopyKind(kind))
      return cudaErrorInvalidMemcpyDirection;
    if (bytes == 0)
      return cudaSuccess;
    if (destination == nullptr || source == nullptr)
      return cudaErrorInvalidValue;
    // With unified addressing the device tells host from device memory itself; a kind that names
    // pageable host memory as a device side is still refused.
    Device& device = scope.device();
    if (cudaError_t error = device.checkCopyKind(destination, source, kind); error != cudaSuccess)
      return error;
    Stream& queue = scope.stream(stream);
    return timedTransfer(device, scope.ordinal(), queue, false, "copy", bytes,
                         [&] { return device.copy(destination, source, bytes, queue, async); });
  });
}

cudaError_t fill(void* destination, int value, size_t bytes, cudaStream_t stream, bool async,
                 const std::source_location& where) {
  return onCurrentDeviceAt(where, [&](Scope& scope) {
    if (bytes == 0)
      return cudaSuccess;
    if (destination == nullptr)
      return cudaErrorInvalidValue;
    Stream& queue = scope.stream(stream);
    return timedTransfer(scope.device(), scope.ordinal(), queue, true, "memset", bytes, [&] {
      return scope.device().fill(destination, static_cast<unsigned char>(value), bytes, queue,
                                 async);
    });
  });
}

cudaError_t copy3D(const cudaMemcpy3DParms* params, cudaStream_t stream, bool async,
                   const std::source_location& where) {
  return onCurrentDeviceAt(where, [&](Scope& scope) {
    if (params == nullptr)
      return cudaErrorInvalidValue;
    int kind = 0;
    std::memcpy(&kind, &params->kind, sizeof kind);
    if (!validCopyKind(kind))
      return cudaErrorInvalidMemcpyDirection;
    CopyRegion region;
    if (cudaError_t error = copyRegionOf(*params, scope.device(), &region); error != cudaSuccess)
      return error;
    if (emptyExtent(params->extent))
      return cudaSuccess;
    Stream& queue = scope.stream(stream);
    return timedTransfer(scope.device(), scope.ordinal(), queue, false, "copy 3D",
                         region.widthBytes * region.height * region.depth,
                         [&] { return scope.copies().copy3D(region, queue, async); });
  });
}

// cudaMemcpy2D and its array forms: positions and width in bytes (the 2D API counts bytes even
// within arrays), one slice.
cudaError_t copy2D(const CopyEndpoint& destination, const CopyEndpoint& source, size_t width,
                   size_t height, int kind, cudaStream_t stream, bool async,
                   const std::source_location& where) {
  return onCurrentDeviceAt(where, [&](Scope& scope) {
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
    Stream& queue = scope.stream(stream);
    return timedTransfer(scope.device(), scope.ordinal(), queue, false, "copy 2D", width * height,
                         [&] { return scope.copies().copy3D(region, queue, async); });
  });
}

// The deprecated 1D array copies (cudaMemcpyToArray, FromArray, ArrayToArray): `bytes` bytes from a
// starting element, continuing row after row. They become one copy per run that stays within a
// row on both sides.
cudaError_t copyArrayLinear(const CopyEndpoint& destination, const CopyEndpoint& source,
                            size_t bytes, int kind, cudaStream_t stream, bool async,
                            const std::source_location& where) {
  return onCurrentDeviceAt(where, [&](Scope& scope) {
    if (!validCopyKind(kind))
      return cudaErrorInvalidMemcpyDirection;
    if (bytes == 0)
      return cudaSuccess;
    if ((destination.array == nullptr && destination.pointer == nullptr) ||
        (source.array == nullptr && source.pointer == nullptr))
      return cudaErrorInvalidValue;
    size_t element = 0, sourceRow = 0, destinationRow = 0;
    if (source.array != nullptr)
      if (cudaError_t error = arrayElementBytes(scope.device(), source.array, &element, &sourceRow);
          error != cudaSuccess)
        return error;
    if (destination.array != nullptr)
      if (cudaError_t error =
              arrayElementBytes(scope.device(), destination.array, &element, &destinationRow);
          error != cudaSuccess)
        return error;
    Stream& queue = scope.stream(stream);
    CopyEndpoint from = source, to = destination;
    size_t left = bytes;
    while (left > 0) {
      size_t run = left;
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
      if (cudaError_t error = scope.copies().copy3D(region, queue, async); error != cudaSuccess)
        return error;
      left -= run;
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
  });
}

namespace {

cudaError_t copyPeer(void* destination, int destinationDevice, const void* source, int sourceDevice,
                     size_t bytes, cudaStream_t stream, bool async) {
  return call([&] {
    Scope scope(runtime());
    Device& to = scope.device(destinationDevice);
    Device& from = scope.device(sourceDevice);
    if (cudaError_t error = scope.open(); error != cudaSuccess)
      return error;
    if (bytes == 0)
      return cudaSuccess;
    if (destination == nullptr || source == nullptr)
      return cudaErrorInvalidValue;
    Stream& queue = Scope::stream(to, stream);
    Copies& copies = Scope::area(to.copies());
    return scope.result(onDestination(to, scope.device(), [&] {
      return timedTransfer(to, destinationDevice, queue, false, "peer copy", bytes, [&] {
        return copies.copyPeer(destination, source, from, bytes, queue, async);
      });
    }));
  });
}

} // namespace

cudaError_t copy3DPeer(const cudaMemcpy3DPeerParms* params, cudaStream_t stream, bool async,
                       const std::source_location& where) {
  return callAt(where, [&] {
    Scope scope(runtime());
    if (params == nullptr) {
      scope.initialize();
      return cudaErrorInvalidValue;
    }
    Device& to = scope.device(params->dstDevice);
    Device& from = scope.device(params->srcDevice);
    if (cudaError_t error = scope.open(); error != cudaSuccess)
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
    if (cudaError_t error = copyRegionOf(shape, params->srcArray != nullptr ? from : to, &region);
        error != cudaSuccess)
      return error;
    if (emptyExtent(params->extent))
      return cudaSuccess;
    Stream& queue = Scope::stream(to, stream);
    Copies& copies = Scope::area(to.copies());
    return scope.result(onDestination(to, scope.device(), [&] {
      return timedTransfer(to, params->dstDevice, queue, false, "peer copy 3D",
                           region.widthBytes * region.height * region.depth,
                           [&] { return copies.copy3DPeer(region, from, queue, async); });
    }));
  });
}

cudaError_t copyBatch(void* const* destinations, const void* const* sources, const size_t* sizes,
                      size_t count, cudaMemcpyAttributes* attributes, size_t* attributeIndices,
                      size_t attributeCount, cudaStream_t stream) {
  return onCurrentDevice([&](Scope& scope) {
    if (count == 0 || destinations == nullptr || sources == nullptr || sizes == nullptr ||
        attributes == nullptr || attributeIndices == nullptr || attributeCount == 0 ||
        attributeCount > count || attributeIndices[0] != 0)
      return cudaErrorInvalidValue;
    // The legacy NULL stream cannot run a batch (it must be ordered after other streams).
    if (stream == nullptr || stream == cudaStreamLegacy)
      return cudaErrorInvalidValue;
    Stream& queue = scope.stream(stream);
    return scope.copies().copyBatch(destinations, sources, sizes, count, attributes,
                                    attributeIndices, attributeCount, queue);
  });
}

cudaError_t copy3DBatch(size_t count, cudaMemcpy3DBatchOp* operations, unsigned long long flags,
                        cudaStream_t stream) {
  return onCurrentDevice([&](Scope& scope) {
    if (count == 0 || operations == nullptr || flags != 0)
      return cudaErrorInvalidValue;
    if (stream == nullptr || stream == cudaStreamLegacy)
      return cudaErrorInvalidValue;
    Stream& queue = scope.stream(stream);
    return scope.copies().copy3DBatch(count, operations, flags, queue);
  });
}

cudaError_t fill2D(void* destination, size_t pitch, int value, size_t width, size_t height,
                   cudaStream_t stream, bool async, const std::source_location& where) {
  return onCurrentDeviceAt(where, [&](Scope& scope) {
    if (width == 0 || height == 0)
      return cudaSuccess;
    if (destination == nullptr || (height > 1 && pitch < width))
      return cudaErrorInvalidValue;
    Stream& queue = scope.stream(stream);
    return timedTransfer(
        scope.device(), scope.ordinal(), queue, true, "memset 2D", width * height, [&] {
          return scope.copies().fill2D(destination, height > 1 ? pitch : std::max(pitch, width),
                                       static_cast<unsigned char>(value), width, height, queue,
                                       async);
        });
  });
}

cudaError_t fill3D(cudaPitchedPtr destination, int value, cudaExtent extent, cudaStream_t stream,
                   bool async, const std::source_location& where) {
  return onCurrentDeviceAt(where, [&](Scope& scope) {
    if (emptyExtent(extent))
      return cudaSuccess;
    if (destination.ptr == nullptr || destination.pitch < extent.width ||
        (extent.depth > 1 && destination.ysize < extent.height))
      return cudaErrorInvalidValue;
    auto byte = static_cast<unsigned char>(value);
    Stream& queue = scope.stream(stream);
    Copies& copies = scope.copies();
    auto fill = [&] {
      // Slices that follow each other without a gap are one 2D fill.
      if (extent.depth == 1 || destination.ysize == extent.height)
        return copies.fill2D(destination.ptr, destination.pitch, byte, extent.width,
                             extent.height * extent.depth, queue, async);
      size_t slice = destination.pitch * destination.ysize;
      for (size_t z = 0; z < extent.depth; ++z)
        if (cudaError_t error =
                copies.fill2D(static_cast<char*>(destination.ptr) + z * slice, destination.pitch,
                              byte, extent.width, extent.height, queue, async);
            error != cudaSuccess)
          return error;
      return cudaSuccess;
    };
    return timedTransfer(scope.device(), scope.ordinal(), queue, true, "memset 3D",
                         extent.width * extent.height * extent.depth, fill);
  });
}

} // namespace ocelot::runtime::api

using namespace ocelot::runtime::api;
using ocelot::runtime::arrayAt;
using ocelot::runtime::linearMemory;

extern "C" {

cudaError_t CUDARTAPI cudaMemcpy(void* dst, const void* src, size_t count,
                                 enum cudaMemcpyKind kind) {
  return copy(dst, src, count, raw(kind), nullptr, false);
}

cudaError_t CUDARTAPI cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch,
                                   size_t width, size_t height, enum cudaMemcpyKind kind) {
  return copy2D(linearMemory(dst, dpitch), linearMemory(src, spitch), width, height, raw(kind),
                nullptr, false);
}

cudaError_t CUDARTAPI cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst,
                                               size_t hOffsetDst, cudaArray_const_t src,
                                               size_t wOffsetSrc, size_t hOffsetSrc, size_t width,
                                               size_t height, enum cudaMemcpyKind kind) {
  return copy2D(arrayAt(dst, wOffsetDst, hOffsetDst), arrayAt(src, wOffsetSrc, hOffsetSrc), width,
                height, raw(kind), nullptr, false);
}

cudaError_t CUDARTAPI cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch,
                                        size_t width, size_t height, enum cudaMemcpyKind kind,
                                        cudaStream_t stream) {
  return copy2D(linearMemory(dst, dpitch), linearMemory(src, spitch), width, height, raw(kind),
                stream, true);
}

cudaError_t CUDARTAPI cudaMemcpy2DFromArray(void* dst, size_t dpitch, cudaArray_const_t src,
                                            size_t wOffset, size_t hOffset, size_t width,
                                            size_t height, enum cudaMemcpyKind kind) {
  return copy2D(linearMemory(dst, dpitch), arrayAt(src, wOffset, hOffset), width, height, raw(kind),
                nullptr, false);
}

cudaError_t CUDARTAPI cudaMemcpy2DFromArrayAsync(void* dst, size_t dpitch, cudaArray_const_t src,
                                                 size_t wOffset, size_t hOffset, size_t width,
                                                 size_t height, enum cudaMemcpyKind kind,
                                                 cudaStream_t stream) {
  return copy2D(linearMemory(dst, dpitch), arrayAt(src, wOffset, hOffset), width, height, raw(kind),
                stream, true);
}

cudaError_t CUDARTAPI cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                          const void* src, size_t spitch, size_t width,
                                          size_t height, enum cudaMemcpyKind kind) {
  return copy2D(arrayAt(dst, wOffset, hOffset), linearMemory(src, spitch), width, height, raw(kind),
                nullptr, false);
}

cudaError_t CUDARTAPI cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                               const void* src, size_t spitch, size_t width,
                                               size_t height, enum cudaMemcpyKind kind,
                                               cudaStream_t stream) {
  return copy2D(arrayAt(dst, wOffset, hOffset), linearMemory(src, spitch), width, height, raw(kind),
                stream, true);
}

cudaError_t CUDARTAPI cudaMemcpy3D(const struct cudaMemcpy3DParms* p) {
  return copy3D(p, nullptr, false);
}

cudaError_t CUDARTAPI cudaMemcpy3DAsync(const struct cudaMemcpy3DParms* p, cudaStream_t stream) {
  return copy3D(p, stream, true);
}

cudaError_t CUDARTAPI cudaMemcpy3DBatchAsync(size_t numOps, struct cudaMemcpy3DBatchOp* opList,
                                             unsigned long long flags, cudaStream_t stream) {
  return copy3DBatch(numOps, opList, flags, stream);
}

cudaError_t CUDARTAPI cudaMemcpy3DPeer(const struct cudaMemcpy3DPeerParms* p) {
  return copy3DPeer(p, nullptr, false);
}

cudaError_t CUDARTAPI cudaMemcpy3DPeerAsync(const struct cudaMemcpy3DPeerParms* p,
                                            cudaStream_t stream) {
  return copy3DPeer(p, stream, true);
}

cudaError_t CUDARTAPI cudaMemcpyArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                             cudaArray_const_t src, size_t wOffsetSrc,
                                             size_t hOffsetSrc, size_t count,
                                             enum cudaMemcpyKind kind) {
  return copyArrayLinear(arrayAt(dst, wOffsetDst, hOffsetDst), arrayAt(src, wOffsetSrc, hOffsetSrc),
                         count, raw(kind), nullptr, false);
}

cudaError_t CUDARTAPI cudaMemcpyAsync(void* dst, const void* src, size_t count,
                                      enum cudaMemcpyKind kind, cudaStream_t stream) {
  return copy(dst, src, count, raw(kind), stream, true);
}

cudaError_t CUDARTAPI cudaMemcpyBatchAsync(void* const* dsts, const void* const* srcs,
                                           const size_t* sizes, size_t count,
                                           struct cudaMemcpyAttributes* attrs, size_t* attrsIdxs,
                                           size_t numAttrs, cudaStream_t stream) {
  return copyBatch(dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, stream);
}

cudaError_t CUDARTAPI cudaMemcpyFromArray(void* dst, cudaArray_const_t src, size_t wOffset,
                                          size_t hOffset, size_t count, enum cudaMemcpyKind kind) {
  return copyArrayLinear(linearMemory(dst, 0), arrayAt(src, wOffset, hOffset), count, raw(kind),
                         nullptr, false);
}

cudaError_t CUDARTAPI cudaMemcpyFromArrayAsync(void* dst, cudaArray_const_t src, size_t wOffset,
                                               size_t hOffset, size_t count,
                                               enum cudaMemcpyKind kind, cudaStream_t stream) {
  return copyArrayLinear(linearMemory(dst, 0), arrayAt(src, wOffset, hOffset), count, raw(kind),
                         stream, true);
}

cudaError_t CUDARTAPI cudaMemcpyPeer(void* dst, int dstDevice, const void* src, int srcDevice,
                                     size_t count) {
  return copyPeer(dst, dstDevice, src, srcDevice, count, nullptr, false);
}

cudaError_t CUDARTAPI cudaMemcpyPeerAsync(void* dst, int dstDevice, const void* src, int srcDevice,
                                          size_t count, cudaStream_t stream) {
  return copyPeer(dst, dstDevice, src, srcDevice, count, stream, true);
}

cudaError_t CUDARTAPI cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                        const void* src, size_t count, enum cudaMemcpyKind kind) {
  return copyArrayLinear(arrayAt(dst, wOffset, hOffset), linearMemory(src, 0), count, raw(kind),
                         nullptr, false);
}

cudaError_t CUDARTAPI cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                             const void* src, size_t count,
                                             enum cudaMemcpyKind kind, cudaStream_t stream) {
  return copyArrayLinear(arrayAt(dst, wOffset, hOffset), linearMemory(src, 0), count, raw(kind),
                         stream, true);
}

cudaError_t CUDARTAPI cudaMemset(void* devPtr, int value, size_t count) {
  return fill(devPtr, value, count, nullptr, false);
}

cudaError_t CUDARTAPI cudaMemset2D(void* devPtr, size_t pitch, int value, size_t width,
                                   size_t height) {
  return fill2D(devPtr, pitch, value, width, height, nullptr, false);
}

cudaError_t CUDARTAPI cudaMemset2DAsync(void* devPtr, size_t pitch, int value, size_t width,
                                        size_t height, cudaStream_t stream) {
  return fill2D(devPtr, pitch, value, width, height, stream, true);
}

cudaError_t CUDARTAPI cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value,
                                   struct cudaExtent extent) {
  return fill3D(pitchedDevPtr, value, extent, nullptr, false);
}

cudaError_t CUDARTAPI cudaMemset3DAsync(struct cudaPitchedPtr pitchedDevPtr, int value,
                                        struct cudaExtent extent, cudaStream_t stream) {
  return fill3D(pitchedDevPtr, value, extent, stream, true);
}

cudaError_t CUDARTAPI cudaMemsetAsync(void* devPtr, int value, size_t count, cudaStream_t stream) {
  return fill(devPtr, value, count, stream, true);
}

} // extern "C"
