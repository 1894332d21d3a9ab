#include "runtime/driver/DriverIpc.h"

#include "runtime/core/Event.h"
#include "runtime/driver/DriverConversions.h"

#include <cstring>

namespace ocelot::runtime::driver {

cudaError_t DriverIpc::memoryHandle(void* pointer, cudaIpcMemHandle_t* handle) {
  return toCudaError(invoke(api_.ipcGetMemHandle, reinterpret_cast<CUipcMemHandle*>(handle),
                            toDevicePointer(pointer)));
}

cudaError_t DriverIpc::openMemoryHandle(cudaIpcMemHandle_t handle, unsigned int flags,
                                        void** pointer) {
  CUipcMemHandle driverHandle{};
  static_assert(sizeof driverHandle == sizeof handle);
  std::memcpy(&driverHandle, &handle, sizeof handle);
  CUdeviceptr opened = 0;
  CUresult result = invoke(api_.ipcOpenMemHandle, &opened, driverHandle, flags);
  if (result == CUDA_SUCCESS)
    *pointer = reinterpret_cast<void*>(opened);
  return toCudaError(result);
}

cudaError_t DriverIpc::closeMemoryHandle(void* pointer) {
  return toCudaError(invoke(api_.ipcCloseMemHandle, toDevicePointer(pointer)));
}

cudaError_t DriverIpc::eventHandle(Event& event, cudaIpcEventHandle_t* handle) {
  return toCudaError(
      invoke(api_.ipcGetEventHandle, reinterpret_cast<CUipcEventHandle*>(handle), event.handle()));
}

cudaError_t DriverIpc::openEventHandle(cudaIpcEventHandle_t handle, cudaEvent_t* event) {
  CUipcEventHandle driverHandle{};
  static_assert(sizeof driverHandle == sizeof handle);
  std::memcpy(&driverHandle, &handle, sizeof handle);
  return toCudaError(invoke(api_.ipcOpenEventHandle, event, driverHandle));
}

} // namespace ocelot::runtime::driver
