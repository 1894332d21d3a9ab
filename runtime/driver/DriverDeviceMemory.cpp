// DriverDevice: page-locked host memory, managed and pitched allocations, pointer and range
// attributes, interprocess handles.
#include "runtime/driver/DriverDevice.h"

#include <array>
#include <cstdint>
#include <cstring>

namespace ocelot::runtime::driver {
namespace {

CUdeviceptr address(const void* pointer) {
  return reinterpret_cast<CUdeviceptr>(pointer);
}

/// cudaMemLocation and CUmemLocation have the same layout and numbering.
CUmemLocation toDriver(cudaMemLocation location) {
  CUmemLocation out{};
  out.type = static_cast<CUmemLocationType>(location.type);
  out.id = location.id;
  return out;
}

} // namespace

// Page-locked memory is always mapped into the device's address space (the runtime's contexts map
// host memory, and with unified addressing the device pointer is the host pointer), so NVIDIA's
// runtime asks the driver for mapped memory whatever the flags say; cudaHostGetFlags then reports
// cudaHostAllocMapped too (0x2 for cudaHostAllocDefault, 0x6 for WriteCombined). The cudaHostAlloc*
// and cudaHostRegister* flags have the values of the driver's CU_MEMHOSTALLOC_* / _REGISTER_*.
cudaError_t DriverDevice::allocateHost(void** pointer, size_t bytes, unsigned int flags) {
  return toCudaError(invoke(api_.memHostAlloc, pointer, bytes, flags | cudaHostAllocMapped));
}

cudaError_t DriverDevice::freeHost(void* pointer) {
  return toCudaError(invoke(api_.memFreeHost, pointer));
}

cudaError_t DriverDevice::registerHost(void* pointer, size_t bytes, unsigned int flags) {
  return toCudaError(invoke(api_.memHostRegister, pointer, bytes, flags | cudaHostRegisterMapped));
}

cudaError_t DriverDevice::unregisterHost(void* pointer) {
  return toCudaError(invoke(api_.memHostUnregister, pointer));
}

cudaError_t DriverDevice::hostDevicePointer(void** device, void* host) {
  CUdeviceptr found = 0;
  CUresult result = invoke(api_.memHostGetDevicePointer, &found, host, 0u);
  if (result == CUDA_SUCCESS)
    *device = reinterpret_cast<void*>(found);
  return toCudaError(result);
}

cudaError_t DriverDevice::hostFlags(unsigned int* flags, void* host) {
  // Only the allocation flags are reported (cudaHostRegisterReadOnly memory reads back as 0x2).
  unsigned int driverFlags = 0;
  CUresult result = invoke(api_.memHostGetFlags, &driverFlags, host);
  if (result == CUDA_SUCCESS)
    *flags =
        driverFlags & (cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined);
  return toCudaError(result);
}

cudaError_t DriverDevice::allocateManaged(void** pointer, size_t bytes, unsigned int flags) {
  CUdeviceptr found = 0;
  CUresult result = invoke(api_.memAllocManaged, &found, bytes, flags);
  if (result == CUDA_SUCCESS)
    *pointer = reinterpret_cast<void*>(found);
  return toCudaError(result);
}

cudaError_t DriverDevice::allocatePitch(void** pointer, size_t* pitch, size_t width,
                                        size_t height) {
  // The element size only bounds the pitch's alignment; 16 bytes (the largest the driver takes)
  // gives rows that suit every element type, as cudaMallocPitch promises.
  CUdeviceptr found = 0;
  CUresult result = invoke(api_.memAllocPitch, &found, pitch, width, height, 16u);
  if (result == CUDA_SUCCESS)
    *pointer = reinterpret_cast<void*>(found);
  return toCudaError(result);
}

cudaError_t DriverDevice::pointerAttributes(cudaPointerAttributes* attributes,
                                            const void* pointer) {
  // cuPointerGetAttributes (unlike the singular form) answers null values for memory the driver
  // does not know instead of failing, which is what cudaPointerGetAttributes reports too.
  unsigned int memoryType = 0;
  int ordinal = -2;
  CUdeviceptr devicePointer = 0;
  void* hostPointer = nullptr;
  int managed = 0;
  std::array<CUpointer_attribute, 5> names{
      CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
      CU_POINTER_ATTRIBUTE_DEVICE_POINTER, CU_POINTER_ATTRIBUTE_HOST_POINTER,
      CU_POINTER_ATTRIBUTE_IS_MANAGED};
  std::array<void*, 5> values{&memoryType, &ordinal, &devicePointer, &hostPointer, &managed};
  CUresult result = invoke(api_.pointerGetAttributes, static_cast<unsigned int>(names.size()),
                           names.data(), values.data(), address(pointer));
  if (result != CUDA_SUCCESS)
    return toCudaError(result);
  *attributes = cudaPointerAttributes{};
  if (managed != 0) {
    attributes->type = cudaMemoryTypeManaged;
  } else if (memoryType == CU_MEMORYTYPE_DEVICE) {
    attributes->type = cudaMemoryTypeDevice;
  } else if (memoryType == CU_MEMORYTYPE_HOST) {
    attributes->type = cudaMemoryTypeHost;
  } else {
    attributes->type = cudaMemoryTypeUnregistered;
    attributes->device = -2;
    attributes->hostPointer = const_cast<void*>(pointer);
    return cudaSuccess;
  }
  attributes->device = ordinal;
  attributes->devicePointer = reinterpret_cast<void*>(devicePointer);
  attributes->hostPointer = attributes->type == cudaMemoryTypeDevice ? nullptr : hostPointer;
  return cudaSuccess;
}

cudaError_t DriverDevice::advise(const void* pointer, size_t bytes, cudaMemoryAdvise advice,
                                 cudaMemLocation location) {
  return toCudaError(invoke(api_.memAdvise, address(pointer), bytes,
                            static_cast<CUmem_advise>(advice), toDriver(location)));
}

cudaError_t DriverDevice::prefetch(const void* pointer, size_t bytes, cudaMemLocation location,
                                   unsigned int flags, Stream& queue) {
  const cudaStream_t stream = queue.handle();
  return toCudaError(
      invoke(api_.memPrefetchAsync, address(pointer), bytes, toDriver(location), flags, stream));
}

cudaError_t DriverDevice::prefetchBatch(void** pointers, size_t* sizes, size_t count, bool discard,
                                        cudaMemLocation* locations, size_t* locationIndices,
                                        size_t locationCount, unsigned long long flags,
                                        Stream& queue) {
  const cudaStream_t stream = queue.handle();
  auto* addresses = reinterpret_cast<CUdeviceptr*>(pointers);
  auto* driverLocations = reinterpret_cast<CUmemLocation*>(locations);
  if (locations == nullptr)
    return toCudaError(invoke(api_.memDiscardBatchAsync, addresses, sizes, count, flags, stream));
  if (discard)
    return toCudaError(invoke(api_.memDiscardAndPrefetchBatchAsync, addresses, sizes, count,
                              driverLocations, locationIndices, locationCount, flags, stream));
  return toCudaError(invoke(api_.memPrefetchBatchAsync, addresses, sizes, count, driverLocations,
                            locationIndices, locationCount, flags, stream));
}

cudaError_t DriverDevice::rangeAttributes(void** data, size_t* dataSizes,
                                          cudaMemRangeAttribute* attributes, size_t count,
                                          const void* pointer, size_t bytes) {
  return toCudaError(invoke(api_.memRangeGetAttributes, data, dataSizes,
                            reinterpret_cast<CUmem_range_attribute*>(attributes), count,
                            address(pointer), bytes));
}

cudaError_t DriverDevice::ipcMemHandle(cudaIpcMemHandle_t* handle, void* pointer) {
  return toCudaError(
      invoke(api_.ipcGetMemHandle, reinterpret_cast<CUipcMemHandle*>(handle), address(pointer)));
}

cudaError_t DriverDevice::openIpcMemHandle(void** pointer, cudaIpcMemHandle_t handle,
                                           unsigned int flags) {
  CUipcMemHandle driverHandle{};
  static_assert(sizeof driverHandle == sizeof handle);
  std::memcpy(&driverHandle, &handle, sizeof handle);
  CUdeviceptr opened = 0;
  CUresult result = invoke(api_.ipcOpenMemHandle, &opened, driverHandle, flags);
  if (result == CUDA_SUCCESS)
    *pointer = reinterpret_cast<void*>(opened);
  return toCudaError(result);
}

cudaError_t DriverDevice::closeIpcMemHandle(void* pointer) {
  return toCudaError(invoke(api_.ipcCloseMemHandle, address(pointer)));
}

cudaError_t DriverDevice::ipcEventHandle(cudaIpcEventHandle_t* handle, cudaEvent_t event) {
  return toCudaError(
      invoke(api_.ipcGetEventHandle, reinterpret_cast<CUipcEventHandle*>(handle), event));
}

cudaError_t DriverDevice::openIpcEventHandle(cudaEvent_t* event, cudaIpcEventHandle_t handle) {
  CUipcEventHandle driverHandle{};
  static_assert(sizeof driverHandle == sizeof handle);
  std::memcpy(&driverHandle, &handle, sizeof handle);
  return toCudaError(invoke(api_.ipcOpenEventHandle, event, driverHandle));
}

} // namespace ocelot::runtime::driver
