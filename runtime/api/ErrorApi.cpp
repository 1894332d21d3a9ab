// The CUDA Runtime API: error handling (CUDART_ERROR).
//
// Every function has exactly the prototype of NVIDIA's header, which this file includes, so a
// mismatch is a compile error. Implemented functions forward to ocelot::runtime::Runtime; the
// others return notImplemented(__func__), which logs the name once and returns
// cudaErrorNotSupported.

#include "runtime/api/ApiBoundary.h"
#include "runtime/core/ErrorTable.h"

#include <cuda_runtime_api.h>

using namespace ocelot::runtime::api;

extern "C" {

const char* CUDARTAPI cudaGetErrorName(cudaError_t error) {
  return ocelot::runtime::errorName(raw(error));
}

const char* CUDARTAPI cudaGetErrorString(cudaError_t error) {
  return ocelot::runtime::errorString(raw(error));
}

cudaError_t CUDARTAPI cudaGetLastError() {
  return query([] { return runtime().getLastError(); });
}

cudaError_t CUDARTAPI cudaPeekAtLastError() {
  return query([] { return runtime().peekAtLastError(); });
}

} // extern "C"
