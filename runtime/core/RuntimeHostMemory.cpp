// Runtime: page-locked host memory, managed memory, pitched allocations, pointer attributes,
// unified-memory hints and interprocess handles.

#include "runtime/core/Runtime.h"

#include <cstring>
#include <limits>

namespace ocelot::runtime {
namespace {

constexpr unsigned int kHostAllocFlags =
    cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined;
constexpr unsigned int kHostRegisterFlags = cudaHostRegisterPortable | cudaHostRegisterMapped |
                                            cudaHostRegisterIoMemory | cudaHostRegisterReadOnly;

bool validAdvice(int advice) {
  return advice >= cudaMemAdviseSetReadMostly && advice <= cudaMemAdviseUnsetAccessedBy;
}

bool validRangeAttribute(int attribute) {
  return attribute >= cudaMemRangeAttributeReadMostly &&
         attribute <= cudaMemRangeAttributeLastPrefetchLocationId;
}

} // namespace

cudaError_t Runtime::mallocHost(void** pointer, size_t bytes, unsigned int flags) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (pointer == nullptr || (flags & ~kHostAllocFlags) != 0)
    return cudaErrorInvalidValue;
  if (bytes == 0) {
    *pointer = nullptr;
    return cudaSuccess;
  }
  return deviceResult(device->allocateHost(pointer, bytes, flags));
}

cudaError_t Runtime::freeHost(void* pointer) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (pointer == nullptr)
    return cudaSuccess;
  return deviceResult(device->freeHost(pointer));
}

cudaError_t Runtime::hostRegister(void* pointer, size_t bytes, unsigned int flags) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (pointer == nullptr || bytes == 0 || (flags & ~kHostRegisterFlags) != 0)
    return cudaErrorInvalidValue;
  return deviceResult(device->registerHost(pointer, bytes, flags));
}

cudaError_t Runtime::hostUnregister(void* pointer) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (pointer == nullptr)
    return cudaErrorInvalidValue;
  return deviceResult(device->unregisterHost(pointer));
}

cudaError_t Runtime::hostGetDevicePointer(void** devicePointer, void* host, unsigned int flags) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  // The flags are reserved and must be zero.
  if (devicePointer == nullptr || host == nullptr || flags != 0)
    return cudaErrorInvalidValue;
  return deviceResult(device->hostDevicePointer(devicePointer, host));
}

cudaError_t Runtime::hostGetFlags(unsigned int* flags, void* host) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (flags == nullptr || host == nullptr)
    return cudaErrorInvalidValue;
  return deviceResult(device->hostFlags(flags, host));
}

cudaError_t Runtime::mallocManaged(void** pointer, size_t bytes, unsigned int flags) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (pointer == nullptr || (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost))
    return cudaErrorInvalidValue;
  // NVIDIA's runtime answers a zero-byte request with success (and no memory).
  if (bytes == 0) {
    *pointer = nullptr;
    return cudaSuccess;
  }
  return deviceResult(device->allocateManaged(pointer, bytes, flags));
}

cudaError_t Runtime::mallocPitch(void** pointer, size_t* pitch, size_t width, size_t height) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (pointer == nullptr || pitch == nullptr)
    return cudaErrorInvalidValue;
  if (width == 0 || height == 0) {
    *pointer = nullptr;
    *pitch = 0;
    return cudaSuccess;
  }
  // A request no device could hold is an allocation failure, whatever the row width (the driver
  // would otherwise reject a row wider than its maximum pitch as an invalid value).
  size_t total = 0;
  size_t free = 0;
  if (height > std::numeric_limits<size_t>::max() / width ||
      (device->memoryInfo(&free, &total) == cudaSuccess && width * height > total))
    return cudaErrorMemoryAllocation;
  return deviceResult(device->allocatePitch(pointer, pitch, width, height));
}

cudaError_t Runtime::malloc3D(cudaPitchedPtr* pointer, cudaExtent extent) {
  if (pointer == nullptr) {
    if (cudaError_t error = initialize(); error != cudaSuccess)
      return error;
    return cudaErrorInvalidValue;
  }
  if (extent.height != 0 && extent.depth > std::numeric_limits<size_t>::max() / extent.height)
    return cudaErrorMemoryAllocation;
  void* memory = nullptr;
  size_t pitch = 0;
  if (cudaError_t error = mallocPitch(&memory, &pitch, extent.width, extent.height * extent.depth);
      error != cudaSuccess)
    return error;
  *pointer = cudaPitchedPtr{memory, pitch, extent.width, extent.height};
  return cudaSuccess;
}

cudaError_t Runtime::pointerGetAttributes(cudaPointerAttributes* attributes, const void* pointer) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (attributes == nullptr)
    return cudaErrorInvalidValue;
  return deviceResult(device->pointerAttributes(attributes, pointer));
}

cudaError_t Runtime::memAdvise(const void* pointer, size_t bytes, int advice,
                               cudaMemLocation location) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (pointer == nullptr || bytes == 0 || !validAdvice(advice))
    return cudaErrorInvalidValue;
  return deviceResult(
      device->advise(pointer, bytes, static_cast<cudaMemoryAdvise>(advice), location));
}

cudaError_t Runtime::memPrefetchAsync(const void* pointer, size_t bytes, cudaMemLocation location,
                                      unsigned int flags, cudaStream_t stream) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (pointer == nullptr || bytes == 0)
    return cudaErrorInvalidValue;
  Stream* queue = nullptr;
  if (cudaError_t error = streamOn(*device, stream, &queue); error != cudaSuccess)
    return error;
  return deviceResult(device->prefetch(pointer, bytes, location, flags, *queue));
}

cudaError_t Runtime::memPrefetchBatchAsync(void** pointers, size_t* sizes, size_t count,
                                           bool discard, cudaMemLocation* locations,
                                           size_t* locationIndices, size_t locationCount,
                                           unsigned long long flags, cudaStream_t stream) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (count == 0 || pointers == nullptr || sizes == nullptr)
    return cudaErrorInvalidValue;
  if (locations != nullptr && (locationCount == 0 || locationIndices == nullptr))
    return cudaErrorInvalidValue;
  Stream* queue = nullptr;
  if (cudaError_t error = streamOn(*device, stream, &queue); error != cudaSuccess)
    return error;
  return deviceResult(device->prefetchBatch(pointers, sizes, count, discard, locations,
                                            locationIndices, locationCount, flags, *queue));
}

cudaError_t Runtime::memRangeGetAttributes(void** data, size_t* dataSizes,
                                           cudaMemRangeAttribute* attributes, size_t count,
                                           const void* pointer, size_t bytes) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (data == nullptr || dataSizes == nullptr || attributes == nullptr || count == 0 ||
      pointer == nullptr || bytes == 0)
    return cudaErrorInvalidValue;
  for (size_t i = 0; i < count; ++i) {
    int attribute = 0;
    std::memcpy(&attribute, &attributes[i], sizeof attribute);
    if (!validRangeAttribute(attribute) || data[i] == nullptr)
      return cudaErrorInvalidValue;
  }
  return deviceResult(device->rangeAttributes(data, dataSizes, attributes, count, pointer, bytes));
}

cudaError_t Runtime::ipcGetMemHandle(cudaIpcMemHandle_t* handle, void* pointer) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (handle == nullptr || pointer == nullptr)
    return cudaErrorInvalidValue;
  return deviceResult(device->ipcMemHandle(handle, pointer));
}

cudaError_t Runtime::ipcOpenMemHandle(void** pointer, cudaIpcMemHandle_t handle,
                                      unsigned int flags) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (pointer == nullptr ||
      (flags & ~static_cast<unsigned int>(cudaIpcMemLazyEnablePeerAccess)) != 0)
    return cudaErrorInvalidValue;
  return deviceResult(device->openIpcMemHandle(pointer, handle, flags));
}

cudaError_t Runtime::ipcCloseMemHandle(void* pointer) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (pointer == nullptr)
    return cudaErrorInvalidValue;
  return deviceResult(device->closeIpcMemHandle(pointer));
}

cudaError_t Runtime::ipcGetEventHandle(cudaIpcEventHandle_t* handle, cudaEvent_t event) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (handle == nullptr)
    return cudaErrorInvalidValue;
  if (event == nullptr)
    return cudaErrorInvalidResourceHandle;
  return deviceResult(device->ipcEventHandle(handle, event));
}

cudaError_t Runtime::ipcOpenEventHandle(cudaEvent_t* event, cudaIpcEventHandle_t handle) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (event == nullptr)
    return cudaErrorInvalidValue;
  return deviceResult(device->openIpcEventHandle(event, handle));
}

} // namespace ocelot::runtime
