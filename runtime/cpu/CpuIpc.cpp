#include "runtime/cpu/CpuIpc.h"

#include "runtime/cpu/CpuDevice.h"

namespace ocelot::runtime::cpu {

cudaError_t CpuIpc::memoryHandle(void* pointer, cudaIpcMemHandle_t*) {
  auto allocation = device_.memory().find(reinterpret_cast<uintptr_t>(pointer));
  if (!allocation || allocation->kind != DeviceMemory::Kind::Device)
    return cudaErrorInvalidValue;
  return cudaErrorNotSupported;
}

} // namespace ocelot::runtime::cpu
