// The CUDA Runtime API: memory management (CUDART_MEMORY, CUDART_UNIFIED): allocation of device,
// pitched, page-locked and managed memory, variables by their registered names, pointer
// attributes and unified-memory hints. Copies and fills are in CopyApi.cpp.
//
// Every function has exactly the prototype of NVIDIA's header, which this file includes, so a
// mismatch is a compile error.

#include "runtime/api/ApiBoundary.h"
#include "runtime/api/MemoryCalls.h"

#include <cuda_runtime_api.h>

#include <cstring>
#include <limits>

namespace ocelot::runtime::api {
namespace {

constexpr unsigned int kHostAllocFlags =
    cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined;
constexpr unsigned int kHostRegisterFlags = cudaHostRegisterPortable | cudaHostRegisterMapped |
                                            cudaHostRegisterIoMemory | cudaHostRegisterReadOnly;

bool validRangeAttribute(int attribute) {
  return attribute >= cudaMemRangeAttributeReadMostly &&
         attribute <= cudaMemRangeAttributeLastPrefetchLocationId;
}

cudaError_t allocateHost(void** pointer, size_t bytes, unsigned int flags) {
  return onCurrentDevice([&](Scope& scope) {
    if (pointer == nullptr || (flags & ~kHostAllocFlags) != 0)
      return cudaErrorInvalidValue;
    if (bytes == 0) {
      *pointer = nullptr;
      return cudaSuccess;
    }
    return scope.hostMemory().allocate(pointer, bytes, flags);
  });
}

/// cudaMallocPitch (and cudaMalloc3D, one pitched allocation of height x depth rows).
cudaError_t allocatePitch(void** pointer, size_t* pitch, size_t width, size_t height) {
  return onCurrentDevice([&](Scope& scope) {
    if (pointer == nullptr || pitch == nullptr)
      return cudaErrorInvalidValue;
    if (width == 0 || height == 0) {
      *pointer = nullptr;
      *pitch = 0;
      return cudaSuccess;
    }
    // A request no device could hold is an allocation failure, whatever the row width (the
    // driver would otherwise reject a row wider than its maximum pitch as an invalid value).
    size_t total = 0;
    size_t free = 0;
    if (height > std::numeric_limits<size_t>::max() / width ||
        (scope.device().memoryInfo(&free, &total) == cudaSuccess && width * height > total))
      return cudaErrorMemoryAllocation;
    return scope.device().allocatePitch(pointer, pitch, width, height);
  });
}

cudaError_t rangeAttributes(void** data, size_t* dataSizes, cudaMemRangeAttribute* attributes,
                            size_t count, const void* pointer, size_t bytes) {
  return onCurrentDevice([&](Scope& scope) {
    if (data == nullptr || dataSizes == nullptr || attributes == nullptr || count == 0 ||
        pointer == nullptr || bytes == 0)
      return cudaErrorInvalidValue;
    for (size_t i = 0; i < count; ++i) {
      int attribute = 0;
      std::memcpy(&attribute, &attributes[i], sizeof attribute);
      if (!validRangeAttribute(attribute) || data[i] == nullptr)
        return cudaErrorInvalidValue;
    }
    return scope.managedMemory().rangeAttributes(data, dataSizes, attributes, count, pointer,
                                                 bytes);
  });
}

/// A copy to or from a registered variable: the variable's storage on the current device, checked
/// against the copy (`toSymbol`: HostToDevice allowed, otherwise DeviceToHost).
template <class Copy>
cudaError_t symbolCopy(const void* symbol, size_t bytes, size_t offset, int kind, bool toSymbol,
                       cudaStream_t stream, const std::source_location& where, Copy copy) {
  return callAt(where, [&] {
    Scope scope(runtime());
    ocelot::runtime::Device* device = nullptr;
    void* address = nullptr;
    size_t size = 0;
    if (cudaError_t error = runtime().symbolStorage(symbol, &device, &address, &size);
        error != cudaSuccess)
      return error;
    if (kind != (toSymbol ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost) &&
        kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
      return cudaErrorInvalidMemcpyDirection;
    if (offset > size || bytes > size - offset)
      return cudaErrorInvalidValue;
    if (bytes == 0)
      return cudaSuccess;
    Stream& queue = Scope::stream(*device, stream);
    return scope.result(
        timedTransfer(*device, scope.thread().currentDevice, queue, false,
                      toSymbol ? "copy to symbol" : "copy from symbol", bytes,
                      [&] { return copy(*device, static_cast<char*>(address) + offset, queue); }));
  });
}

} // namespace

cudaError_t copyToSymbol(const void* symbol, const void* source, size_t bytes, size_t offset,
                         int kind, cudaStream_t stream, bool async,
                         const std::source_location& where) {
  return symbolCopy(symbol, bytes, offset, kind, true, stream, where,
                    [&](Device& device, void* storage, Stream& queue) {
                      // The symbol is device memory; the application's side is checked.
                      if (kind == cudaMemcpyDeviceToDevice)
                        if (cudaError_t error = device.checkCopyKind(source, source, kind);
                            error != cudaSuccess)
                          return error;
                      return device.copy(storage, source, bytes, queue, async);
                    });
}

cudaError_t copyFromSymbol(void* destination, const void* symbol, size_t bytes, size_t offset,
                           int kind, cudaStream_t stream, bool async,
                           const std::source_location& where) {
  return symbolCopy(symbol, bytes, offset, kind, false, stream, where,
                    [&](Device& device, void* storage, Stream& queue) {
                      if (kind == cudaMemcpyDeviceToDevice)
                        if (cudaError_t error =
                                device.checkCopyKind(destination, destination, kind);
                            error != cudaSuccess)
                          return error;
                      return device.copy(destination, storage, bytes, queue, async);
                    });
}

cudaError_t prefetch(const void* pointer, size_t bytes, cudaMemLocation location,
                     unsigned int flags, cudaStream_t stream) {
  return onCurrentDevice([&](Scope& scope) {
    if (pointer == nullptr || bytes == 0)
      return cudaErrorInvalidValue;
    Stream& queue = scope.stream(stream);
    return scope.managedMemory().prefetch(pointer, bytes, location, flags, queue);
  });
}

cudaError_t prefetchBatch(void** pointers, size_t* sizes, size_t count, bool discard,
                          cudaMemLocation* locations, size_t* locationIndices, size_t locationCount,
                          unsigned long long flags, cudaStream_t stream) {
  return onCurrentDevice([&](Scope& scope) {
    if (count == 0 || pointers == nullptr || sizes == nullptr)
      return cudaErrorInvalidValue;
    if (locations != nullptr && (locationCount == 0 || locationIndices == nullptr))
      return cudaErrorInvalidValue;
    Stream& queue = scope.stream(stream);
    return scope.managedMemory().prefetchBatch(pointers, sizes, count, discard, locations,
                                               locationIndices, locationCount, flags, queue);
  });
}

} // namespace ocelot::runtime::api

using namespace ocelot::runtime::api;
using ocelot::runtime::Scope;

extern "C" {

cudaError_t CUDARTAPI cudaFree(void* devPtr) {
  return onCurrentDevice(
      [&](Scope& scope) { return devPtr == nullptr ? cudaSuccess : scope.device().free(devPtr); });
}

cudaError_t CUDARTAPI cudaFreeHost(void* ptr) {
  return onCurrentDevice(
      [&](Scope& scope) { return ptr == nullptr ? cudaSuccess : scope.hostMemory().free(ptr); });
}

cudaError_t CUDARTAPI cudaGetSymbolAddress(void** devPtr, const void* symbol) {
  return call([&] { return runtime().getSymbolAddress(devPtr, symbol); });
}

cudaError_t CUDARTAPI cudaGetSymbolSize(size_t* size, const void* symbol) {
  return call([&] { return runtime().getSymbolSize(size, symbol); });
}

cudaError_t CUDARTAPI cudaHostAlloc(void** pHost, size_t size, unsigned int flags) {
  return allocateHost(pHost, size, flags);
}

cudaError_t CUDARTAPI cudaHostGetDevicePointer(void** pDevice, void* pHost, unsigned int flags) {
  return onCurrentDevice([&](Scope& scope) {
    // The flags are reserved and must be zero.
    if (pDevice == nullptr || pHost == nullptr || flags != 0)
      return cudaErrorInvalidValue;
    return scope.hostMemory().devicePointer(pHost, pDevice);
  });
}

cudaError_t CUDARTAPI cudaHostGetFlags(unsigned int* pFlags, void* pHost) {
  return onCurrentDevice([&](Scope& scope) {
    if (pFlags == nullptr || pHost == nullptr)
      return cudaErrorInvalidValue;
    return scope.hostMemory().flags(pHost, pFlags);
  });
}

cudaError_t CUDARTAPI cudaHostRegister(void* ptr, size_t size, unsigned int flags) {
  return onCurrentDevice([&](Scope& scope) {
    if (ptr == nullptr || size == 0 || (flags & ~kHostRegisterFlags) != 0)
      return cudaErrorInvalidValue;
    return scope.hostMemory().registerRange(ptr, size, flags);
  });
}

cudaError_t CUDARTAPI cudaHostUnregister(void* ptr) {
  return onCurrentDevice([&](Scope& scope) {
    return ptr == nullptr ? cudaErrorInvalidValue : scope.hostMemory().unregisterRange(ptr);
  });
}

cudaError_t CUDARTAPI cudaMalloc(void** devPtr, size_t size) {
  return onCurrentDevice([&](Scope& scope) {
    if (devPtr == nullptr)
      return cudaErrorInvalidValue;
    if (size == 0) {
      *devPtr = nullptr;
      return cudaSuccess;
    }
    // The driver says "out of memory" as CUDA_ERROR_OUT_OF_MEMORY, which maps to this already;
    // anything else keeps its own code.
    return scope.device().allocate(devPtr, size);
  });
}

cudaError_t CUDARTAPI cudaMalloc3D(struct cudaPitchedPtr* pitchedDevPtr, struct cudaExtent extent) {
  return call([&] {
    if (pitchedDevPtr == nullptr) {
      Scope(runtime()).initialize();
      return cudaErrorInvalidValue;
    }
    if (extent.height != 0 && extent.depth > std::numeric_limits<size_t>::max() / extent.height)
      return cudaErrorMemoryAllocation;
    void* memory = nullptr;
    size_t pitch = 0;
    if (cudaError_t error =
            allocatePitch(&memory, &pitch, extent.width, extent.height * extent.depth);
        error != cudaSuccess)
      return error;
    *pitchedDevPtr = cudaPitchedPtr{memory, pitch, extent.width, extent.height};
    return cudaSuccess;
  });
}

cudaError_t CUDARTAPI cudaMallocHost(void** ptr, size_t size) {
  return allocateHost(ptr, size, cudaHostAllocDefault);
}

cudaError_t CUDARTAPI cudaMallocManaged(void** devPtr, size_t size, unsigned int flags) {
  return onCurrentDevice([&](Scope& scope) {
    if (devPtr == nullptr || (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost))
      return cudaErrorInvalidValue;
    // NVIDIA's runtime answers a zero-byte request with success (and no memory).
    if (size == 0) {
      *devPtr = nullptr;
      return cudaSuccess;
    }
    return scope.managedMemory().allocate(devPtr, size, flags);
  });
}

cudaError_t CUDARTAPI cudaMallocPitch(void** devPtr, size_t* pitch, size_t width, size_t height) {
  return call([&] { return allocatePitch(devPtr, pitch, width, height); });
}

cudaError_t CUDARTAPI cudaMemAdvise(const void* devPtr, size_t count, enum cudaMemoryAdvise advice,
                                    struct cudaMemLocation location) {
  return onCurrentDevice([&](Scope& scope) {
    const int value = raw(advice);
    if (devPtr == nullptr || count == 0 || value < cudaMemAdviseSetReadMostly ||
        value > cudaMemAdviseUnsetAccessedBy)
      return cudaErrorInvalidValue;
    return scope.managedMemory().advise(devPtr, count, static_cast<cudaMemoryAdvise>(value),
                                        location);
  });
}

cudaError_t CUDARTAPI cudaMemDiscardAndPrefetchBatchAsync(void** dptrs, size_t* sizes, size_t count,
                                                          struct cudaMemLocation* prefetchLocs,
                                                          size_t* prefetchLocIdxs,
                                                          size_t numPrefetchLocs,
                                                          unsigned long long flags,
                                                          cudaStream_t stream) {
  return prefetchBatch(dptrs, sizes, count, true, prefetchLocs, prefetchLocIdxs, numPrefetchLocs,
                       flags, stream);
}

cudaError_t CUDARTAPI cudaMemDiscardBatchAsync(void** dptrs, size_t* sizes, size_t count,
                                               unsigned long long flags, cudaStream_t stream) {
  return prefetchBatch(dptrs, sizes, count, true, nullptr, nullptr, 0, flags, stream);
}

cudaError_t CUDARTAPI cudaMemGetInfo(size_t* freeBytes, size_t* totalBytes) {
  return onCurrentDevice([&](Scope& scope) {
    // NVIDIA's runtime accepts null for either result (cudaMemGetInfo(nullptr, nullptr) succeeds).
    size_t free = 0, total = 0;
    if (cudaError_t error = scope.device().memoryInfo(&free, &total); error != cudaSuccess)
      return error;
    if (freeBytes != nullptr)
      *freeBytes = free;
    if (totalBytes != nullptr)
      *totalBytes = total;
    return cudaSuccess;
  });
}

cudaError_t CUDARTAPI cudaMemPrefetchAsync(const void* devPtr, size_t count,
                                           struct cudaMemLocation location, unsigned int flags,
                                           cudaStream_t stream) {
  return prefetch(devPtr, count, location, flags, stream);
}

cudaError_t CUDARTAPI cudaMemPrefetchBatchAsync(void** dptrs, size_t* sizes, size_t count,
                                                struct cudaMemLocation* prefetchLocs,
                                                size_t* prefetchLocIdxs, size_t numPrefetchLocs,
                                                unsigned long long flags, cudaStream_t stream) {
  return prefetchBatch(dptrs, sizes, count, false, prefetchLocs, prefetchLocIdxs, numPrefetchLocs,
                       flags, stream);
}

cudaError_t CUDARTAPI cudaMemRangeGetAttribute(void* data, size_t dataSize,
                                               enum cudaMemRangeAttribute attribute,
                                               const void* devPtr, size_t count) {
  return rangeAttributes(&data, &dataSize, &attribute, 1, devPtr, count);
}

cudaError_t CUDARTAPI cudaMemRangeGetAttributes(void** data, size_t* dataSizes,
                                                enum cudaMemRangeAttribute* attributes,
                                                size_t numAttributes, const void* devPtr,
                                                size_t count) {
  return rangeAttributes(data, dataSizes, attributes, numAttributes, devPtr, count);
}

cudaError_t CUDARTAPI cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t count,
                                           size_t offset, enum cudaMemcpyKind kind) {
  return copyFromSymbol(dst, symbol, count, offset, raw(kind), nullptr, false);
}

cudaError_t CUDARTAPI cudaMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t count,
                                                size_t offset, enum cudaMemcpyKind kind,
                                                cudaStream_t stream) {
  return copyFromSymbol(dst, symbol, count, offset, raw(kind), stream, true);
}

cudaError_t CUDARTAPI cudaMemcpyToSymbol(const void* symbol, const void* src, size_t count,
                                         size_t offset, enum cudaMemcpyKind kind) {
  return copyToSymbol(symbol, src, count, offset, raw(kind), nullptr, false);
}

cudaError_t CUDARTAPI cudaMemcpyToSymbolAsync(const void* symbol, const void* src, size_t count,
                                              size_t offset, enum cudaMemcpyKind kind,
                                              cudaStream_t stream) {
  return copyToSymbol(symbol, src, count, offset, raw(kind), stream, true);
}

cudaError_t CUDARTAPI cudaPointerGetAttributes(struct cudaPointerAttributes* attributes,
                                               const void* ptr) {
  return onCurrentDevice([&](Scope& scope) {
    if (attributes == nullptr)
      return cudaErrorInvalidValue;
    cudaError_t error = scope.device().pointerAttributes(attributes, ptr);
    if (error != cudaSuccess || attributes->type != cudaMemoryTypeUnregistered)
      return error;
    // Memory of another device: each CPU device (OCELOT_CPU_DEVICES) knows only its own, and
    // answers with its ordinal. (NVIDIA's driver answers for every device at once.)
    cudaPointerAttributes other{};
    ocelot::runtime::Device* device = nullptr;
    for (int ordinal = 0; runtime().deviceByOrdinal(ordinal, &device) == cudaSuccess; ++ordinal)
      if (device != &scope.device() && device->pointerAttributes(&other, ptr) == cudaSuccess &&
          other.type != cudaMemoryTypeUnregistered) {
        *attributes = other;
        break;
      }
    return cudaSuccess;
  });
}

} // extern "C"
