// Ocelot's libcuda.so.1: streams and events, the runtime's own (the handles are the same on both
// APIs; CU_STREAM_* and CU_EVENT_* flags share the runtime's values).

#include "runtime/driverapi/DriverShim.h"

using namespace ocelot::runtime::driverapi;

namespace {
cudaStream_t stream(CUstream handle) {
  return reinterpret_cast<cudaStream_t>(handle);
}
cudaEvent_t event(CUevent handle) {
  return reinterpret_cast<cudaEvent_t>(handle);
}
} // namespace

extern "C" {

CUresult CUDAAPI cuStreamCreate(CUstream* created, unsigned int flags) {
  OCELOT_FORWARD(cuStreamCreate, created, flags);
  return DriverShim::result(
      runtimeCalls().cudaStreamCreateWithFlags(reinterpret_cast<cudaStream_t*>(created), flags));
}

CUresult CUDAAPI cuStreamCreateWithPriority(CUstream* created, unsigned int flags, int priority) {
  OCELOT_FORWARD(cuStreamCreateWithPriority, created, flags, priority);
  return DriverShim::result(runtimeCalls().cudaStreamCreateWithPriority(
      reinterpret_cast<cudaStream_t*>(created), flags, priority));
}

CUresult CUDAAPI cuStreamDestroy(CUstream queue) {
  OCELOT_FORWARD(cuStreamDestroy, queue);
  return DriverShim::result(runtimeCalls().cudaStreamDestroy(stream(queue)));
}

CUresult CUDAAPI cuStreamSynchronize(CUstream queue) {
  OCELOT_FORWARD(cuStreamSynchronize, queue);
  return DriverShim::result(runtimeCalls().cudaStreamSynchronize(stream(queue)));
}

CUresult CUDAAPI cuStreamQuery(CUstream queue) {
  OCELOT_FORWARD(cuStreamQuery, queue);
  return DriverShim::result(runtimeCalls().cudaStreamQuery(stream(queue)));
}

CUresult CUDAAPI cuStreamWaitEvent(CUstream queue, CUevent waited, unsigned int flags) {
  OCELOT_FORWARD(cuStreamWaitEvent, queue, waited, flags);
  return DriverShim::result(
      runtimeCalls().cudaStreamWaitEvent(stream(queue), event(waited), flags));
}

CUresult CUDAAPI cuEventCreate(CUevent* created, unsigned int flags) {
  OCELOT_FORWARD(cuEventCreate, created, flags);
  return DriverShim::result(
      runtimeCalls().cudaEventCreateWithFlags(reinterpret_cast<cudaEvent_t*>(created), flags));
}

CUresult CUDAAPI cuEventDestroy(CUevent destroyed) {
  OCELOT_FORWARD(cuEventDestroy, destroyed);
  return DriverShim::result(runtimeCalls().cudaEventDestroy(event(destroyed)));
}

CUresult CUDAAPI cuEventRecord(CUevent recorded, CUstream queue) {
  OCELOT_FORWARD(cuEventRecord, recorded, queue);
  return DriverShim::result(runtimeCalls().cudaEventRecord(event(recorded), stream(queue)));
}

CUresult CUDAAPI cuEventSynchronize(CUevent waited) {
  OCELOT_FORWARD(cuEventSynchronize, waited);
  return DriverShim::result(runtimeCalls().cudaEventSynchronize(event(waited)));
}

CUresult CUDAAPI cuEventQuery(CUevent queried) {
  OCELOT_FORWARD(cuEventQuery, queried);
  return DriverShim::result(runtimeCalls().cudaEventQuery(event(queried)));
}

CUresult CUDAAPI cuEventElapsedTime(float* milliseconds, CUevent start, CUevent end) {
  OCELOT_FORWARD(cuEventElapsedTime, milliseconds, start, end);
  return DriverShim::result(
      runtimeCalls().cudaEventElapsedTime(milliseconds, event(start), event(end)));
}

CUresult CUDAAPI cuLaunchHostFunc(CUstream queue, CUhostFn function, void* userData) {
  OCELOT_FORWARD(cuLaunchHostFunc, queue, function, userData);
  if (function == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  return DriverShim::result(runtimeCalls().cudaLaunchHostFunc(stream(queue), function, userData));
}

} // extern "C"
