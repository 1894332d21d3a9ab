#pragma once

#include "runtime/core/Ipc.h"
#include "runtime/driver/DriverApi.h"

namespace ocelot::runtime::driver {

/// Memory and events of a GPU shared with other processes.
class DriverIpc final : public Ipc {
public:
  explicit DriverIpc(const DriverApi& api) : api_(api) {}

  cudaError_t memoryHandle(void* pointer, cudaIpcMemHandle_t* handle) override;
  cudaError_t openMemoryHandle(cudaIpcMemHandle_t handle, unsigned int flags,
                               void** pointer) override;
  cudaError_t closeMemoryHandle(void* pointer) override;
  cudaError_t eventHandle(Event& event, cudaIpcEventHandle_t* handle) override;
  cudaError_t openEventHandle(cudaIpcEventHandle_t handle, cudaEvent_t* event) override;

private:
  const DriverApi& api_;
};

} // namespace ocelot::runtime::driver
