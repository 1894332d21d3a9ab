#pragma once

#include "runtime/core/Ipc.h"

namespace ocelot::runtime::cpu {

class CpuDevice;

/// Interprocess handles of the CPU device: its device memory is this process's own host memory,
/// which no other process can map, so there are none.
class CpuIpc final : public Ipc {
public:
  explicit CpuIpc(CpuDevice& device) : device_(device) {}

  /// cudaErrorNotSupported for device memory, cudaErrorInvalidValue for anything else.
  cudaError_t memoryHandle(void* pointer, cudaIpcMemHandle_t* handle) override;

private:
  CpuDevice& device_;
};

} // namespace ocelot::runtime::cpu
