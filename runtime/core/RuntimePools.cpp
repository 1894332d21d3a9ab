// Runtime: stream-ordered allocation (cudaMallocAsync & co.) and memory pools.

#include "runtime/core/Runtime.h"

namespace ocelot::runtime {
namespace {

bool validPoolAttribute(int attribute) {
  return attribute >= cudaMemPoolReuseFollowEventDependencies &&
         attribute <= cudaMemPoolAttrUsedMemHigh;
}

bool validAllocationType(int type) {
  return type == cudaMemAllocationTypePinned || type == cudaMemAllocationTypeManaged;
}

bool validGraphMemAttribute(int attribute) {
  return attribute >= cudaGraphMemAttrUsedMemCurrent &&
         attribute <= cudaGraphMemAttrReservedMemHigh;
}

} // namespace

cudaError_t Runtime::mallocAsync(void** pointer, size_t bytes, cudaMemPool_t pool,
                                 cudaStream_t stream) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (pointer == nullptr)
    return cudaErrorInvalidValue;
  Stream* queue = nullptr;
  if (cudaError_t error = streamOn(*device, stream, &queue); error != cudaSuccess)
    return error;
  return deviceResult(device->allocateAsync(pointer, bytes, pool, *queue));
}

cudaError_t Runtime::mallocFromPoolAsync(void** pointer, size_t bytes, cudaMemPool_t pool,
                                         cudaStream_t stream) {
  // A null pool here is an error, not "the current pool".
  if (pool == nullptr) {
    if (cudaError_t error = initialize(); error != cudaSuccess)
      return error;
    return cudaErrorInvalidValue;
  }
  return mallocAsync(pointer, bytes, pool, stream);
}

cudaError_t Runtime::freeAsync(void* pointer, cudaStream_t stream) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (pointer == nullptr)
    return cudaErrorInvalidValue;
  Stream* queue = nullptr;
  if (cudaError_t error = streamOn(*device, stream, &queue); error != cudaSuccess)
    return error;
  return deviceResult(device->freeAsync(pointer, *queue));
}

cudaError_t Runtime::memPoolCreate(cudaMemPool_t* pool, const cudaMemPoolProps* properties) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (pool == nullptr || properties == nullptr)
    return cudaErrorInvalidValue;
  // A pool on a device that does not exist is an invalid value (not an invalid device).
  if (properties->location.type == cudaMemLocationTypeDevice &&
      (properties->location.id < 0 || properties->location.id >= platform_.platform->deviceCount()))
    return cudaErrorInvalidValue;
  return deviceResult(device->createPool(pool, *properties));
}

cudaError_t Runtime::memPoolDestroy(cudaMemPool_t pool) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (pool == nullptr)
    return cudaErrorInvalidValue;
  return deviceResult(device->destroyPool(pool));
}

cudaError_t Runtime::memPoolGetAttribute(cudaMemPool_t pool, int attribute, void* value) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (pool == nullptr || value == nullptr || !validPoolAttribute(attribute))
    return cudaErrorInvalidValue;
  return deviceResult(device->poolAttribute(pool, static_cast<cudaMemPoolAttr>(attribute), value));
}

cudaError_t Runtime::memPoolSetAttribute(cudaMemPool_t pool, int attribute, void* value) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (pool == nullptr || value == nullptr || !validPoolAttribute(attribute))
    return cudaErrorInvalidValue;
  return deviceResult(
      device->setPoolAttribute(pool, static_cast<cudaMemPoolAttr>(attribute), value));
}

cudaError_t Runtime::memPoolTrimTo(cudaMemPool_t pool, size_t keep) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (pool == nullptr)
    return cudaErrorInvalidValue;
  return deviceResult(device->trimPool(pool, keep));
}

cudaError_t Runtime::memPoolGetAccess(cudaMemAccessFlags* flags, cudaMemPool_t pool,
                                      cudaMemLocation* location) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (flags == nullptr || pool == nullptr || location == nullptr)
    return cudaErrorInvalidValue;
  return deviceResult(device->poolAccess(flags, pool, *location));
}

cudaError_t Runtime::memPoolSetAccess(cudaMemPool_t pool, const cudaMemAccessDesc* descs,
                                      size_t count) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (pool == nullptr || (count != 0 && descs == nullptr))
    return cudaErrorInvalidValue;
  return deviceResult(device->setPoolAccess(pool, descs, count));
}

cudaError_t Runtime::deviceGetDefaultMemPool(cudaMemPool_t* pool, int ordinal) {
  Device* device = nullptr;
  if (cudaError_t error = deviceByOrdinal(ordinal, &device); error != cudaSuccess)
    return error;
  if (pool == nullptr)
    return cudaErrorInvalidValue;
  cudaMemLocation location{cudaMemLocationTypeDevice, ordinal};
  return deviceResult(device->defaultPool(pool, location, cudaMemAllocationTypePinned));
}

cudaError_t Runtime::deviceGetMemPool(cudaMemPool_t* pool, int ordinal) {
  Device* device = nullptr;
  if (cudaError_t error = deviceByOrdinal(ordinal, &device); error != cudaSuccess)
    return error;
  if (pool == nullptr)
    return cudaErrorInvalidValue;
  cudaMemLocation location{cudaMemLocationTypeDevice, ordinal};
  return deviceResult(device->currentPool(pool, location, cudaMemAllocationTypePinned));
}

cudaError_t Runtime::deviceSetMemPool(int ordinal, cudaMemPool_t pool) {
  Device* device = nullptr;
  if (cudaError_t error = deviceByOrdinal(ordinal, &device); error != cudaSuccess)
    return error;
  if (pool == nullptr)
    return cudaErrorInvalidValue;
  cudaMemLocation location{cudaMemLocationTypeDevice, ordinal};
  return deviceResult(device->setCurrentPool(location, cudaMemAllocationTypePinned, pool));
}

// The location-based pool queries of CUDA 13 are answered by the device the location names; host
// locations by the current device.
cudaError_t Runtime::memGetDefaultMemPool(cudaMemPool_t* pool, cudaMemLocation* location,
                                          int type) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (pool == nullptr || location == nullptr || !validAllocationType(type))
    return cudaErrorInvalidValue;
  if (location->type == cudaMemLocationTypeDevice)
    if (cudaError_t error = deviceByOrdinal(location->id, &device); error != cudaSuccess)
      return cudaErrorInvalidValue;
  return deviceResult(
      device->defaultPool(pool, *location, static_cast<cudaMemAllocationType>(type)));
}

cudaError_t Runtime::memGetMemPool(cudaMemPool_t* pool, cudaMemLocation* location, int type) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (pool == nullptr || location == nullptr || !validAllocationType(type))
    return cudaErrorInvalidValue;
  if (location->type == cudaMemLocationTypeDevice)
    if (cudaError_t error = deviceByOrdinal(location->id, &device); error != cudaSuccess)
      return cudaErrorInvalidValue;
  return deviceResult(
      device->currentPool(pool, *location, static_cast<cudaMemAllocationType>(type)));
}

cudaError_t Runtime::memSetMemPool(cudaMemLocation* location, int type, cudaMemPool_t pool) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (location == nullptr || pool == nullptr || !validAllocationType(type))
    return cudaErrorInvalidValue;
  if (location->type == cudaMemLocationTypeDevice)
    if (cudaError_t error = deviceByOrdinal(location->id, &device); error != cudaSuccess)
      return cudaErrorInvalidValue;
  return deviceResult(
      device->setCurrentPool(*location, static_cast<cudaMemAllocationType>(type), pool));
}

cudaError_t Runtime::memPoolExportToShareableHandle(void* handle, cudaMemPool_t pool, int type,
                                                    unsigned int flags) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (handle == nullptr || pool == nullptr || flags != 0)
    return cudaErrorInvalidValue;
  return deviceResult(
      device->exportPool(handle, pool, static_cast<cudaMemAllocationHandleType>(type), flags));
}

cudaError_t Runtime::memPoolImportFromShareableHandle(cudaMemPool_t* pool, void* handle, int type,
                                                      unsigned int flags) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (pool == nullptr || flags != 0)
    return cudaErrorInvalidValue;
  return deviceResult(
      device->importPool(pool, handle, static_cast<cudaMemAllocationHandleType>(type), flags));
}

cudaError_t Runtime::memPoolExportPointer(cudaMemPoolPtrExportData* data, void* pointer) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (data == nullptr || pointer == nullptr)
    return cudaErrorInvalidValue;
  return deviceResult(device->exportPoolPointer(data, pointer));
}

cudaError_t Runtime::memPoolImportPointer(void** pointer, cudaMemPool_t pool,
                                          cudaMemPoolPtrExportData* data) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (pointer == nullptr || pool == nullptr || data == nullptr)
    return cudaErrorInvalidValue;
  return deviceResult(device->importPoolPointer(pointer, pool, data));
}

cudaError_t Runtime::deviceGraphMemAttribute(int ordinal, int attribute, void* value, bool set) {
  Device* device = nullptr;
  if (cudaError_t error = deviceByOrdinal(ordinal, &device); error != cudaSuccess)
    return error;
  if (value == nullptr || !validGraphMemAttribute(attribute))
    return cudaErrorInvalidValue;
  return deviceResult(
      device->graphMemAttribute(static_cast<cudaGraphMemAttributeType>(attribute), value, set));
}

cudaError_t Runtime::deviceGraphMemTrim(int ordinal) {
  Device* device = nullptr;
  if (cudaError_t error = deviceByOrdinal(ordinal, &device); error != cudaSuccess)
    return error;
  return deviceResult(device->trimGraphMemory());
}

} // namespace ocelot::runtime
