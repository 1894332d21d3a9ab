// The CUDA Runtime API: error-log management and profiler control (CUDART_LOGS,
// cuda_profiler_api.h).
//
// Every function has exactly the prototype of NVIDIA's header, which this file includes, so a
// mismatch is a compile error. Implemented functions forward to ocelot::runtime::Runtime; the

#include "runtime/api/ApiBoundary.h"

#include <cuda_profiler_api.h>
#include <cuda_runtime_api.h>

using namespace ocelot::runtime::api;

extern "C" {

cudaError_t CUDARTAPI cudaLogsCurrent(cudaLogIterator* iterator_out, unsigned int flags) {
  return call([&] { return runtime().logsCurrent(iterator_out, flags); });
}

cudaError_t CUDARTAPI cudaLogsDumpToFile(cudaLogIterator* iterator, const char* pathToFile,
                                         unsigned int flags) {
  return call([&] { return runtime().logsDumpToFile(iterator, pathToFile, flags); });
}

cudaError_t CUDARTAPI cudaLogsDumpToMemory(cudaLogIterator* iterator, char* buffer, size_t* size,
                                           unsigned int flags) {
  return call([&] { return runtime().logsDumpToMemory(iterator, buffer, size, flags); });
}

cudaError_t CUDARTAPI cudaLogsRegisterCallback(cudaLogsCallback_t callbackFunc, void* userData,
                                               cudaLogsCallbackHandle* callback_out) {
  return call([&] { return runtime().logsRegisterCallback(callbackFunc, userData, callback_out); });
}

cudaError_t CUDARTAPI cudaLogsUnregisterCallback(cudaLogsCallbackHandle callback) {
  return call([&] { return runtime().logsUnregisterCallback(callback); });
}

cudaError_t CUDARTAPI cudaProfilerStart() {
  return call([] { return runtime().profilerControl(true); });
}

cudaError_t CUDARTAPI cudaProfilerStop() {
  return call([] { return runtime().profilerControl(false); });
}

} // extern "C"
