// The CUDA Runtime API: event management (CUDART_EVENT).
//
// Every function has exactly the prototype of NVIDIA's header, which this file includes, so a
// mismatch is a compile error. Every function forwards to ocelot::runtime::Runtime.

#include "runtime/api/ApiBoundary.h"

#include <cuda_runtime_api.h>

using namespace ocelot::runtime::api;

extern "C" {

cudaError_t CUDARTAPI cudaEventCreate(cudaEvent_t* event) {
  return call([&] { return runtime().eventCreate(event, cudaEventDefault); });
}

cudaError_t CUDARTAPI cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags) {
  return call([&] { return runtime().eventCreate(event, flags); });
}

cudaError_t CUDARTAPI cudaEventDestroy(cudaEvent_t event) {
  return call([&] { return runtime().eventDestroy(event); });
}

cudaError_t CUDARTAPI cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  return call([&] { return runtime().eventElapsedTime(ms, start, end); });
}

cudaError_t CUDARTAPI cudaEventQuery(cudaEvent_t event) {
  return call([&] { return runtime().eventQuery(event); });
}

cudaError_t CUDARTAPI cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  return call([&] { return runtime().eventRecord(event, stream); });
}

cudaError_t CUDARTAPI cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream,
                                               unsigned int flags) {
  return call([&] { return runtime().eventRecordWithFlags(event, stream, flags); });
}

cudaError_t CUDARTAPI cudaEventSynchronize(cudaEvent_t event) {
  return call([&] { return runtime().eventSynchronize(event); });
}

} // extern "C"
