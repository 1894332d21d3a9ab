// A GPU's managed memory and the hints that say where it should live.
#include "runtime/driver/DriverManagedMemory.h"

#include "runtime/core/Stream.h"
#include "runtime/driver/DriverConversions.h"

namespace ocelot::runtime::driver {

cudaError_t DriverManagedMemory::allocate(void** pointer, size_t bytes, unsigned int flags) {
  CUdeviceptr found = 0;
  CUresult result = invoke(api_.memAllocManaged, &found, bytes, flags);
  if (result == CUDA_SUCCESS)
    *pointer = reinterpret_cast<void*>(found);
  return toCudaError(result);
}

cudaError_t DriverManagedMemory::advise(const void* pointer, size_t bytes, cudaMemoryAdvise advice,
                                        cudaMemLocation location) {
  return toCudaError(invoke(api_.memAdvise, toDevicePointer(pointer), bytes,
                            static_cast<CUmem_advise>(advice), toDriverLocation(location)));
}

cudaError_t DriverManagedMemory::prefetch(const void* pointer, size_t bytes,
                                          cudaMemLocation location, unsigned int flags,
                                          Stream& stream) {
  return toCudaError(invoke(api_.memPrefetchAsync, toDevicePointer(pointer), bytes,
                            toDriverLocation(location), flags, stream.handle()));
}

cudaError_t DriverManagedMemory::prefetchBatch(void** pointers, size_t* sizes, size_t count,
                                               bool discard, cudaMemLocation* locations,
                                               size_t* locationIndices, size_t locationCount,
                                               unsigned long long flags, Stream& stream) {
  auto* addresses = reinterpret_cast<CUdeviceptr*>(pointers);
  auto* driverLocations = reinterpret_cast<CUmemLocation*>(locations);
  const cudaStream_t handle = stream.handle();
  if (locations == nullptr)
    return toCudaError(invoke(api_.memDiscardBatchAsync, addresses, sizes, count, flags, handle));
  if (discard)
    return toCudaError(invoke(api_.memDiscardAndPrefetchBatchAsync, addresses, sizes, count,
                              driverLocations, locationIndices, locationCount, flags, handle));
  return toCudaError(invoke(api_.memPrefetchBatchAsync, addresses, sizes, count, driverLocations,
                            locationIndices, locationCount, flags, handle));
}

cudaError_t DriverManagedMemory::rangeAttributes(void** data, size_t* dataSizes,
                                                 cudaMemRangeAttribute* attributes, size_t count,
                                                 const void* pointer, size_t bytes) {
  return toCudaError(invoke(api_.memRangeGetAttributes, data, dataSizes,
                            reinterpret_cast<CUmem_range_attribute*>(attributes), count,
                            toDevicePointer(pointer), bytes));
}

} // namespace ocelot::runtime::driver
