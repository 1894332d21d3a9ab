// Runtime: streams and events, on the current device.

#include "runtime/core/Runtime.h"

namespace ocelot::runtime {

cudaError_t Runtime::streamCreate(cudaStream_t* stream, unsigned int flags, int priority) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (stream == nullptr || (flags & ~static_cast<unsigned int>(cudaStreamNonBlocking)) != 0)
    return cudaErrorInvalidValue;
  return deviceResult(device->createStream(stream, flags, priority));
}

cudaError_t Runtime::streamDestroy(cudaStream_t stream) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  return deviceResult(device->destroyStream(stream));
}

cudaError_t Runtime::streamSynchronize(cudaStream_t stream) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  return deviceResult(device->synchronizeStream(stream));
}

cudaError_t Runtime::streamQuery(cudaStream_t stream) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  return deviceResult(device->queryStream(stream));
}

cudaError_t Runtime::streamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (event == nullptr)
    return cudaErrorInvalidResourceHandle;
  return deviceResult(device->waitEvent(stream, event, flags));
}

cudaError_t Runtime::eventCreate(cudaEvent_t* event, unsigned int flags) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  // cudaEventInterprocess requires cudaEventDisableTiming.
  constexpr unsigned int kValid =
      cudaEventBlockingSync | cudaEventDisableTiming | cudaEventInterprocess;
  if (event == nullptr || (flags & ~kValid) != 0 ||
      ((flags & cudaEventInterprocess) != 0 && (flags & cudaEventDisableTiming) == 0))
    return cudaErrorInvalidValue;
  return deviceResult(device->createEvent(event, flags));
}

cudaError_t Runtime::eventDestroy(cudaEvent_t event) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (event == nullptr)
    return cudaErrorInvalidResourceHandle;
  return deviceResult(device->destroyEvent(event));
}

cudaError_t Runtime::eventRecord(cudaEvent_t event, cudaStream_t stream) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (event == nullptr)
    return cudaErrorInvalidResourceHandle;
  return deviceResult(device->recordEvent(event, stream));
}

cudaError_t Runtime::eventSynchronize(cudaEvent_t event) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (event == nullptr)
    return cudaErrorInvalidResourceHandle;
  return deviceResult(device->synchronizeEvent(event));
}

cudaError_t Runtime::eventQuery(cudaEvent_t event) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (event == nullptr)
    return cudaErrorInvalidResourceHandle;
  return deviceResult(device->queryEvent(event));
}

cudaError_t Runtime::eventElapsedTime(float* milliseconds, cudaEvent_t start, cudaEvent_t end) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (milliseconds == nullptr)
    return cudaErrorInvalidValue;
  if (start == nullptr || end == nullptr)
    return cudaErrorInvalidResourceHandle;
  return deviceResult(device->elapsedTime(milliseconds, start, end));
}

} // namespace ocelot::runtime
