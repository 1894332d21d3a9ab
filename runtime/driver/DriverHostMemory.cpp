// A GPU's page-locked host memory.
#include "runtime/driver/DriverHostMemory.h"

namespace ocelot::runtime::driver {

// Page-locked memory is always mapped into the device's address space (the runtime's contexts map
// host memory, and with unified addressing the device pointer is the host pointer), so NVIDIA's
// runtime asks the driver for mapped memory whatever the flags say; cudaHostGetFlags then reports
// cudaHostAllocMapped too (0x2 for cudaHostAllocDefault, 0x6 for WriteCombined). The cudaHostAlloc*
// and cudaHostRegister* flags have the values of the driver's CU_MEMHOSTALLOC_* / _REGISTER_*.
cudaError_t DriverHostMemory::allocate(void** pointer, size_t bytes, unsigned int flags) {
  return toCudaError(invoke(api_.memHostAlloc, pointer, bytes, flags | cudaHostAllocMapped));
}

cudaError_t DriverHostMemory::free(void* pointer) {
  return toCudaError(invoke(api_.memFreeHost, pointer));
}

cudaError_t DriverHostMemory::registerRange(void* pointer, size_t bytes, unsigned int flags) {
  return toCudaError(invoke(api_.memHostRegister, pointer, bytes, flags | cudaHostRegisterMapped));
}

cudaError_t DriverHostMemory::unregisterRange(void* pointer) {
  return toCudaError(invoke(api_.memHostUnregister, pointer));
}

cudaError_t DriverHostMemory::devicePointer(void* host, void** device) {
  CUdeviceptr found = 0;
  CUresult result = invoke(api_.memHostGetDevicePointer, &found, host, 0u);
  if (result == CUDA_SUCCESS)
    *device = reinterpret_cast<void*>(found);
  return toCudaError(result);
}

cudaError_t DriverHostMemory::flags(void* host, unsigned int* flags) {
  // Only the allocation flags are reported (cudaHostRegisterReadOnly memory reads back as 0x2).
  unsigned int driverFlags = 0;
  CUresult result = invoke(api_.memHostGetFlags, &driverFlags, host);
  if (result == CUDA_SUCCESS)
    *flags =
        driverFlags & (cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined);
  return toCudaError(result);
}

} // namespace ocelot::runtime::driver
