// DriverDevice: stream-ordered allocation and memory pools (cudaMemPool_t is CUmemoryPool; the
// pool, location and access structures of both APIs have the same layout and numbering).
#include "runtime/driver/DriverDevice.h"

namespace ocelot::runtime::driver {
namespace {

CUmemoryPool toDriver(cudaMemPool_t pool) {
  return reinterpret_cast<CUmemoryPool>(pool);
}

CUmemLocation toDriver(const cudaMemLocation& location) {
  CUmemLocation out{};
  out.type = static_cast<CUmemLocationType>(location.type);
  out.id = location.id;
  return out;
}

bool isThisKindOfDevice(const cudaMemLocation& location, cudaMemAllocationType type) {
  return location.type == cudaMemLocationTypeDevice && type == cudaMemAllocationTypePinned;
}

} // namespace

cudaError_t DriverDevice::allocateAsync(void** pointer, size_t bytes, cudaMemPool_t pool,
                                        Stream& queue) {
  const cudaStream_t stream = queue.handle();
  CUdeviceptr allocated = 0;
  CUresult result = pool == nullptr ? invoke(api_.memAllocAsync, &allocated, bytes, stream)
                                    : invoke(api_.memAllocFromPoolAsync, &allocated, bytes,
                                             toDriver(pool), stream);
  if (result == CUDA_SUCCESS)
    *pointer = reinterpret_cast<void*>(allocated);
  return toCudaError(result);
}

cudaError_t DriverDevice::freeAsync(void* pointer, Stream& queue) {
  const cudaStream_t stream = queue.handle();
  return toCudaError(invoke(api_.memFreeAsync, reinterpret_cast<CUdeviceptr>(pointer), stream));
}

cudaError_t DriverDevice::createPool(cudaMemPool_t* pool, const cudaMemPoolProps& properties) {
  static_assert(sizeof(cudaMemPoolProps) == sizeof(CUmemPoolProps));
  CUmemoryPool created = nullptr;
  CUresult result =
      invoke(api_.memPoolCreate, &created, reinterpret_cast<const CUmemPoolProps*>(&properties));
  if (result == CUDA_SUCCESS)
    *pool = reinterpret_cast<cudaMemPool_t>(created);
  return toCudaError(result);
}

cudaError_t DriverDevice::destroyPool(cudaMemPool_t pool) {
  return toCudaError(invoke(api_.memPoolDestroy, toDriver(pool)));
}

cudaError_t DriverDevice::poolAttribute(cudaMemPool_t pool, cudaMemPoolAttr attribute,
                                        void* value) {
  return toCudaError(invoke(api_.memPoolGetAttribute, toDriver(pool),
                            static_cast<CUmemPool_attribute>(attribute), value));
}

cudaError_t DriverDevice::setPoolAttribute(cudaMemPool_t pool, cudaMemPoolAttr attribute,
                                           void* value) {
  return toCudaError(invoke(api_.memPoolSetAttribute, toDriver(pool),
                            static_cast<CUmemPool_attribute>(attribute), value));
}

cudaError_t DriverDevice::trimPool(cudaMemPool_t pool, size_t keep) {
  return toCudaError(invoke(api_.memPoolTrimTo, toDriver(pool), keep));
}

cudaError_t DriverDevice::poolAccess(cudaMemAccessFlags* flags, cudaMemPool_t pool,
                                     const cudaMemLocation& location) {
  CUmemLocation driverLocation = toDriver(location);
  CUmemAccess_flags access{};
  CUresult result = invoke(api_.memPoolGetAccess, &access, toDriver(pool), &driverLocation);
  if (result == CUDA_SUCCESS)
    *flags = static_cast<cudaMemAccessFlags>(access);
  return toCudaError(result);
}

cudaError_t DriverDevice::setPoolAccess(cudaMemPool_t pool, const cudaMemAccessDesc* descs,
                                        size_t count) {
  static_assert(sizeof(cudaMemAccessDesc) == sizeof(CUmemAccessDesc));
  return toCudaError(invoke(api_.memPoolSetAccess, toDriver(pool),
                            reinterpret_cast<const CUmemAccessDesc*>(descs), count));
}

cudaError_t DriverDevice::defaultPool(cudaMemPool_t* pool, const cudaMemLocation& location,
                                      cudaMemAllocationType type) {
  CUmemoryPool found = nullptr;
  CUmemLocation driverLocation = toDriver(location);
  // Device pools also exist on drivers that predate the location-based calls.
  CUresult result =
      isThisKindOfDevice(location, type) && api_.memGetDefaultMemPool == nullptr
          ? invoke(api_.deviceGetDefaultMemPool, &found, static_cast<CUdevice>(location.id))
          : invoke(api_.memGetDefaultMemPool, &found, &driverLocation,
                   static_cast<CUmemAllocationType>(type));
  if (result == CUDA_SUCCESS)
    *pool = reinterpret_cast<cudaMemPool_t>(found);
  return toCudaError(result);
}

cudaError_t DriverDevice::currentPool(cudaMemPool_t* pool, const cudaMemLocation& location,
                                      cudaMemAllocationType type) {
  CUmemoryPool found = nullptr;
  CUmemLocation driverLocation = toDriver(location);
  CUresult result = isThisKindOfDevice(location, type) && api_.memGetMemPool == nullptr
                        ? invoke(api_.deviceGetMemPool, &found, static_cast<CUdevice>(location.id))
                        : invoke(api_.memGetMemPool, &found, &driverLocation,
                                 static_cast<CUmemAllocationType>(type));
  if (result == CUDA_SUCCESS)
    *pool = reinterpret_cast<cudaMemPool_t>(found);
  return toCudaError(result);
}

cudaError_t DriverDevice::setCurrentPool(const cudaMemLocation& location,
                                         cudaMemAllocationType type, cudaMemPool_t pool) {
  CUmemLocation driverLocation = toDriver(location);
  if (isThisKindOfDevice(location, type) && api_.memSetMemPool == nullptr)
    return toCudaError(
        invoke(api_.deviceSetMemPool, static_cast<CUdevice>(location.id), toDriver(pool)));
  return toCudaError(invoke(api_.memSetMemPool, &driverLocation,
                            static_cast<CUmemAllocationType>(type), toDriver(pool)));
}

cudaError_t DriverDevice::exportPool(void* handle, cudaMemPool_t pool,
                                     cudaMemAllocationHandleType type, unsigned int flags) {
  return toCudaError(invoke(api_.memPoolExportToShareableHandle, handle, toDriver(pool),
                            static_cast<CUmemAllocationHandleType>(type),
                            static_cast<unsigned long long>(flags)));
}

cudaError_t DriverDevice::importPool(cudaMemPool_t* pool, void* handle,
                                     cudaMemAllocationHandleType type, unsigned int flags) {
  CUmemoryPool imported = nullptr;
  CUresult result =
      invoke(api_.memPoolImportFromShareableHandle, &imported, handle,
             static_cast<CUmemAllocationHandleType>(type), static_cast<unsigned long long>(flags));
  if (result == CUDA_SUCCESS)
    *pool = reinterpret_cast<cudaMemPool_t>(imported);
  return toCudaError(result);
}

cudaError_t DriverDevice::exportPoolPointer(cudaMemPoolPtrExportData* data, void* pointer) {
  static_assert(sizeof(cudaMemPoolPtrExportData) == sizeof(CUmemPoolPtrExportData));
  return toCudaError(invoke(api_.memPoolExportPointer,
                            reinterpret_cast<CUmemPoolPtrExportData*>(data),
                            reinterpret_cast<CUdeviceptr>(pointer)));
}

cudaError_t DriverDevice::importPoolPointer(void** pointer, cudaMemPool_t pool,
                                            cudaMemPoolPtrExportData* data) {
  CUdeviceptr imported = 0;
  CUresult result = invoke(api_.memPoolImportPointer, &imported, toDriver(pool),
                           reinterpret_cast<CUmemPoolPtrExportData*>(data));
  if (result == CUDA_SUCCESS)
    *pointer = reinterpret_cast<void*>(imported);
  return toCudaError(result);
}

} // namespace ocelot::runtime::driver
