#pragma once

#include <cuda_runtime_api.h>

#include <driver_types.h>

namespace ocelot::runtime {

class Event;

/// Memory and events shared with other processes (cudaIpc*).
class Ipc {
public:
  virtual ~Ipc() = default;

  virtual cudaError_t memoryHandle(void* pointer, cudaIpcMemHandle_t* handle) = 0;
  virtual cudaError_t openMemoryHandle(cudaIpcMemHandle_t /*handle*/, unsigned int /*flags*/,
                                       void** /*pointer*/) {
    return cudaErrorNotSupported;
  }
  virtual cudaError_t closeMemoryHandle(void* /*pointer*/) { return cudaErrorNotSupported; }
  virtual cudaError_t eventHandle(Event& /*event*/, cudaIpcEventHandle_t* /*handle*/) {
    return cudaErrorNotSupported;
  }
  virtual cudaError_t openEventHandle(cudaIpcEventHandle_t /*handle*/, cudaEvent_t* /*event*/) {
    return cudaErrorNotSupported;
  }
};

} // namespace ocelot::runtime
