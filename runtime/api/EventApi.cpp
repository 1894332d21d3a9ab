// The CUDA Runtime API: event management (CUDART_EVENT).
//
// Every function has exactly the prototype of NVIDIA's header, which this file includes, so a
// mismatch is a compile error.

#include "runtime/api/ApiBoundary.h"
#include "runtime/api/StreamCalls.h"

#include <cuda_runtime_api.h>

namespace ocelot::runtime::api {

cudaError_t eventRecord(cudaEvent_t event, cudaStream_t stream, unsigned int flags) {
  return onCurrentDevice([&](Scope& scope) {
    if (event == nullptr)
      return cudaErrorInvalidResourceHandle;
    if ((flags & ~static_cast<unsigned int>(cudaEventRecordExternal)) != 0)
      return cudaErrorInvalidValue;
    Stream& queue = scope.stream(stream);
    return scope.event(event).record(queue, flags);
  });
}

namespace {

cudaError_t createEvent(cudaEvent_t* event, unsigned int flags) {
  return onCurrentDevice([&](Scope& scope) {
    // cudaEventInterprocess requires cudaEventDisableTiming.
    constexpr unsigned int kValid =
        cudaEventBlockingSync | cudaEventDisableTiming | cudaEventInterprocess;
    if (event == nullptr || (flags & ~kValid) != 0 ||
        ((flags & cudaEventInterprocess) != 0 && (flags & cudaEventDisableTiming) == 0))
      return cudaErrorInvalidValue;
    Event* created = nullptr;
    cudaError_t error = scope.device().events().create(flags, &created);
    if (error == cudaSuccess)
      *event = created->handle();
    return error;
  });
}

} // namespace
} // namespace ocelot::runtime::api

using namespace ocelot::runtime::api;
using ocelot::runtime::Scope;

extern "C" {

cudaError_t CUDARTAPI cudaEventCreate(cudaEvent_t* event) {
  return createEvent(event, cudaEventDefault);
}

cudaError_t CUDARTAPI cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags) {
  return createEvent(event, flags);
}

cudaError_t CUDARTAPI cudaEventDestroy(cudaEvent_t event) {
  return onCurrentDevice(
      [&](Scope& scope) { return scope.device().events().destroy(scope.event(event)); });
}

cudaError_t CUDARTAPI cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  return onCurrentDevice([&](Scope& scope) {
    if (ms == nullptr)
      return cudaErrorInvalidValue;
    if (start == nullptr || end == nullptr)
      return cudaErrorInvalidResourceHandle;
    ocelot::runtime::Event& from = scope.event(start);
    return scope.event(end).elapsedSince(from, ms);
  });
}

cudaError_t CUDARTAPI cudaEventQuery(cudaEvent_t event) {
  return onCurrentDevice([&](Scope& scope) { return scope.event(event).query(); });
}

cudaError_t CUDARTAPI cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  return eventRecord(event, stream, 0);
}

cudaError_t CUDARTAPI cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream,
                                               unsigned int flags) {
  return eventRecord(event, stream, flags);
}

cudaError_t CUDARTAPI cudaEventSynchronize(cudaEvent_t event) {
  return onCurrentDevice([&](Scope& scope) { return scope.event(event).synchronize(); });
}

} // extern "C"
