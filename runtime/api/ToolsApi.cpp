// The CUDA Runtime API: error-log management and profiler control (CUDART_LOGS,
// cuda_profiler_api.h).
//
// Every function has exactly the prototype of NVIDIA's header, which this file includes, so a
// mismatch is a compile error. Implemented functions forward to ocelot::runtime::Runtime; the
// others return notImplemented(__func__), which logs the name once and returns
// cudaErrorNotSupported.

#include "runtime/api/ApiBoundary.h"

#include <cuda_profiler_api.h>
#include <cuda_runtime_api.h>

using namespace ocelot::runtime::api;

extern "C" {

cudaError_t CUDARTAPI cudaLogsCurrent(cudaLogIterator* /*iterator_out*/, unsigned int /*flags*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaLogsDumpToFile(cudaLogIterator* /*iterator*/, const char* /*pathToFile*/,
                                         unsigned int /*flags*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaLogsDumpToMemory(cudaLogIterator* /*iterator*/, char* /*buffer*/,
                                           size_t* /*size*/, unsigned int /*flags*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaLogsRegisterCallback(cudaLogsCallback_t /*callbackFunc*/,
                                               void* /*userData*/,
                                               cudaLogsCallbackHandle* /*callback_out*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaLogsUnregisterCallback(cudaLogsCallbackHandle /*callback*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaProfilerStart() {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaProfilerStop() {
  return notImplemented(__func__);
}

} // extern "C"
