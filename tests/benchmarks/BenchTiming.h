#pragma once
// What the nvcc-built benchmark programs (runtime/runtime_bench.cu,
// instrumentation/launch_overhead_bench.cu) share: CHECK, which ends the program with status 2 on a
// failed CUDA call (the batch reports the run as failed), and the clock and median of their
// timings. Included by a relative path, so that scripts/gpu-batch.sh builds them with plain nvcc.

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t status_ = (call);                                                                  \
    if (status_ != cudaSuccess) {                                                                  \
      std::fprintf(stderr, "FATAL: %s -> %s (line %d)\n", #call, cudaGetErrorName(status_),        \
                   __LINE__);                                                                      \
      std::exit(2);                                                                                \
    }                                                                                              \
  } while (0)

using Clock = std::chrono::steady_clock;

inline double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// The middle value (the upper one of an even count).
inline double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}
