#pragma once

// CHECK(call) for the nvcc-built programs that drive Ocelot in-process (tools/online,
// tests/benchmarks/instrumentation): a failed CUDA call throws, naming the call, the error and
// the line.

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace ocelot::online {

inline void checkCuda(cudaError_t error, const char* what, int line) {
  if (error != cudaSuccess)
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorName(error) + " (line " +
                             std::to_string(line) + ")");
}

} // namespace ocelot::online

#define CHECK(call) ::ocelot::online::checkCuda((call), #call, __LINE__)
