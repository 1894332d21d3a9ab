// A GPU's memory pools and stream-ordered allocation.
#include "runtime/driver/DriverMemoryPool.h"

#include "runtime/core/Stream.h"
#include "runtime/driver/DriverConversions.h"

#include <memory>

namespace ocelot::runtime::driver {
namespace {

CUmemoryPool toDriver(cudaMemPool_t pool) {
  return reinterpret_cast<CUmemoryPool>(pool);
}

bool isThisKindOfDevice(const cudaMemLocation& location, cudaMemAllocationType type) {
  return location.type == cudaMemLocationTypeDevice && type == cudaMemAllocationTypePinned;
}

} // namespace

cudaError_t DriverMemoryPool::attribute(cudaMemPoolAttr attribute, void* value) {
  return toCudaError(
      invoke(api_.memPoolGetAttribute, pool(), static_cast<CUmemPool_attribute>(attribute), value));
}

cudaError_t DriverMemoryPool::setAttribute(cudaMemPoolAttr attribute, void* value) {
  return toCudaError(
      invoke(api_.memPoolSetAttribute, pool(), static_cast<CUmemPool_attribute>(attribute), value));
}

cudaError_t DriverMemoryPool::trim(size_t keep) {
  return toCudaError(invoke(api_.memPoolTrimTo, pool(), keep));
}

cudaError_t DriverMemoryPool::access(cudaMemAccessFlags* flags, const cudaMemLocation& location) {
  CUmemLocation driverLocation = toDriverLocation(location);
  CUmemAccess_flags access{};
  CUresult result = invoke(api_.memPoolGetAccess, &access, pool(), &driverLocation);
  if (result == CUDA_SUCCESS)
    *flags = static_cast<cudaMemAccessFlags>(access);
  return toCudaError(result);
}

cudaError_t DriverMemoryPool::setAccess(const cudaMemAccessDesc* descriptions, size_t count) {
  static_assert(sizeof(cudaMemAccessDesc) == sizeof(CUmemAccessDesc));
  return toCudaError(invoke(api_.memPoolSetAccess, pool(),
                            reinterpret_cast<const CUmemAccessDesc*>(descriptions), count));
}

cudaError_t DriverMemoryPool::exportHandle(void* handle, cudaMemAllocationHandleType type,
                                           unsigned int flags) {
  return toCudaError(invoke(api_.memPoolExportToShareableHandle, handle, pool(),
                            static_cast<CUmemAllocationHandleType>(type),
                            static_cast<unsigned long long>(flags)));
}

cudaError_t DriverMemoryPool::importPointer(void** pointer, cudaMemPoolPtrExportData* data) {
  CUdeviceptr imported = 0;
  CUresult result = invoke(api_.memPoolImportPointer, &imported, pool(),
                           reinterpret_cast<CUmemPoolPtrExportData*>(data));
  if (result == CUDA_SUCCESS)
    *pointer = reinterpret_cast<void*>(imported);
  return toCudaError(result);
}

cudaError_t DriverMemoryPools::create(const cudaMemPoolProps& properties, MemoryPool** pool) {
  static_assert(sizeof(cudaMemPoolProps) == sizeof(CUmemPoolProps));
  CUmemoryPool created = nullptr;
  CUresult result =
      invoke(api_.memPoolCreate, &created, reinterpret_cast<const CUmemPoolProps*>(&properties));
  if (result != CUDA_SUCCESS)
    return toCudaError(result);
  auto handle = reinterpret_cast<cudaMemPool_t>(created);
  *pool = table_.insert(handle, std::make_unique<DriverMemoryPool>(api_, handle));
  return cudaSuccess;
}

cudaError_t DriverMemoryPools::destroy(MemoryPool& pool) {
  const cudaMemPool_t handle = pool.handle();
  cudaError_t result = toCudaError(invoke(api_.memPoolDestroy, toDriver(handle)));
  table_.remove(handle);
  return result;
}

cudaError_t DriverMemoryPools::defaultPool(const cudaMemLocation& location,
                                           cudaMemAllocationType type, cudaMemPool_t* pool) {
  CUmemoryPool found = nullptr;
  CUmemLocation driverLocation = toDriverLocation(location);
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

cudaError_t DriverMemoryPools::currentPool(const cudaMemLocation& location,
                                           cudaMemAllocationType type, cudaMemPool_t* pool) {
  CUmemoryPool found = nullptr;
  CUmemLocation driverLocation = toDriverLocation(location);
  CUresult result = isThisKindOfDevice(location, type) && api_.memGetMemPool == nullptr
                        ? invoke(api_.deviceGetMemPool, &found, static_cast<CUdevice>(location.id))
                        : invoke(api_.memGetMemPool, &found, &driverLocation,
                                 static_cast<CUmemAllocationType>(type));
  if (result == CUDA_SUCCESS)
    *pool = reinterpret_cast<cudaMemPool_t>(found);
  return toCudaError(result);
}

cudaError_t DriverMemoryPools::setCurrentPool(const cudaMemLocation& location,
                                              cudaMemAllocationType type, MemoryPool& pool) {
  CUmemLocation driverLocation = toDriverLocation(location);
  if (isThisKindOfDevice(location, type) && api_.memSetMemPool == nullptr)
    return toCudaError(
        invoke(api_.deviceSetMemPool, static_cast<CUdevice>(location.id), toDriver(pool.handle())));
  return toCudaError(invoke(api_.memSetMemPool, &driverLocation,
                            static_cast<CUmemAllocationType>(type), toDriver(pool.handle())));
}

cudaError_t DriverMemoryPools::allocate(void** pointer, size_t bytes, MemoryPool* pool,
                                        Stream& stream) {
  CUdeviceptr allocated = 0;
  CUresult result = pool == nullptr ? invoke(api_.memAllocAsync, &allocated, bytes, stream.handle())
                                    : invoke(api_.memAllocFromPoolAsync, &allocated, bytes,
                                             toDriver(pool->handle()), stream.handle());
  if (result == CUDA_SUCCESS)
    *pointer = reinterpret_cast<void*>(allocated);
  return toCudaError(result);
}

cudaError_t DriverMemoryPools::free(void* pointer, Stream& stream) {
  return toCudaError(invoke(api_.memFreeAsync, toDevicePointer(pointer), stream.handle()));
}

cudaError_t DriverMemoryPools::importPool(cudaMemPool_t* pool, void* handle,
                                          cudaMemAllocationHandleType type, unsigned int flags) {
  CUmemoryPool imported = nullptr;
  CUresult result =
      invoke(api_.memPoolImportFromShareableHandle, &imported, handle,
             static_cast<CUmemAllocationHandleType>(type), static_cast<unsigned long long>(flags));
  if (result == CUDA_SUCCESS)
    *pool = reinterpret_cast<cudaMemPool_t>(imported);
  return toCudaError(result);
}

cudaError_t DriverMemoryPools::exportPointer(cudaMemPoolPtrExportData* data, void* pointer) {
  static_assert(sizeof(cudaMemPoolPtrExportData) == sizeof(CUmemPoolPtrExportData));
  return toCudaError(invoke(api_.memPoolExportPointer,
                            reinterpret_cast<CUmemPoolPtrExportData*>(data),
                            toDevicePointer(pointer)));
}

MemoryPool* DriverMemoryPools::adopt(cudaMemPool_t handle) {
  return table_.findOrInsert(handle,
                             [&] { return std::make_unique<DriverMemoryPool>(api_, handle); });
}

} // namespace ocelot::runtime::driver
