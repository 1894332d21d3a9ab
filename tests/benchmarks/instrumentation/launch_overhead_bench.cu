// The launch-overhead benchmark (issue 14): what one kernel launch costs the application, with
// NVIDIA's runtime, with Ocelot's, and with Ocelot's under each instrumentor. The program is built
// once with `nvcc -cudart shared` and run with different LD_LIBRARY_PATH and OCELOT_INSTRUMENTORS
// (scripts/gpu-batch.sh, section launch-bench, which prints the ratios and checks the bars).
//
//   tiny_async   a 1-CTA kernel launched back to back, one synchronization at the end
//   tiny_sync    the same kernel, the stream synchronized after each launch
//   work_async   a kernel of about 50 us on the GPU (one CTA of 256 threads per SM, a fixed number
//                of dependent FMAs: --work-iters, which the batch takes from NVIDIA's run so that
//                every run does the same work), back to back
//   work_sync    the same, synchronized after each launch
//   graph_node   a graph of 1,000 kernel nodes (the 1-CTA kernel, in a chain) replayed 1,000 times:
//                microseconds per node launch
//
// Output: one line per metric, tab-separated: name, microseconds per launch (the median of
// several repetitions), "us"; and a line `work_iters N` with the iteration count used. The last
// line is `checksum X`: the kernels' result, which every runtime and instrumentor must agree on.
#include "../BenchTiming.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

void report(const char* name, double microseconds) {
  std::printf("%s\t%.3f\tus\n", name, microseconds);
  std::fflush(stdout);
}

struct Options {
  bool small = false; ///< the CPU device's smoke test: few launches, little work
  int workIters = 0;  ///< 0: calibrate to about 50 us
  int tinyLaunches = 20000;
  int workLaunches = 2000;
  int repetitions = 5;
  int graphNodes = 1000;
  int graphReplays = 1000;
};

} // namespace

// One thread adds one: a checksum of how many threads ran (exact under every instrumentor).
__global__ void tinyKernel(unsigned long long* counter) {
  atomicAdd(counter, 1ull);
}

// A dependent FMA chain per thread, eight per loop iteration so that counters at block entries
// cost little next to the work; the result is kept so that the loop stays.
__global__ void workKernel(float* out, int iters) {
  float a = threadIdx.x * 1e-3f, b = 1.0001f, c = 1e-4f;
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int k = 0; k < 8; ++k)
      a = fmaf(a, b, c);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = a;
}

namespace {

// Microseconds per launch of `launch` called `count` times, then one synchronization (or one after
// each launch): the median of the repetitions.
template <class Launch> double perLaunch(int count, bool syncEach, int repetitions, Launch launch) {
  std::vector<double> samples;
  for (int r = 0; r < repetitions; ++r) {
    auto start = Clock::now();
    for (int i = 0; i < count; ++i) {
      launch();
      if (syncEach)
        CHECK(cudaStreamSynchronize(0));
    }
    CHECK(cudaStreamSynchronize(0));
    samples.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count() /
                      count);
  }
  return median(samples);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--small") == 0) {
      o.small = true;
      o.tinyLaunches = 20;
      o.workLaunches = 4;
      o.repetitions = 1;
      o.graphNodes = 10;
      o.graphReplays = 3;
      if (o.workIters == 0)
        o.workIters = 4;
    } else if (std::strcmp(argv[i], "--work-iters") == 0 && i + 1 < argc) {
      o.workIters = std::atoi(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: %s [--small] [--work-iters N]\n", argv[0]);
      std::exit(2);
    }
  }
  return o;
}

} // namespace

int main(int argc, char** argv) {
  Options o = parse(argc, argv);
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const int ctas = o.small ? 2 : std::max(sms, 1), threads = o.small ? 32 : 256;

  unsigned long long* counter = nullptr;
  float* out = nullptr;
  CHECK(cudaMalloc(&counter, sizeof *counter));
  CHECK(cudaMemset(counter, 0, sizeof *counter));
  CHECK(cudaMalloc(&out, sizeof(float) * ctas * threads));
  unsigned long long expected = 0;

  // Warm up: module load, instrumented module build and JIT, pools.
  tinyKernel<<<1, 32>>>(counter);
  workKernel<<<ctas, threads>>>(out, 1);
  CHECK(cudaDeviceSynchronize());
  expected += 32;

  if (o.workIters == 0) {
    // About 50 us: time a guess, scale, and check once more.
    int iters = 1000;
    for (int round = 0; round < 3; ++round) {
      cudaEvent_t start, stop;
      CHECK(cudaEventCreate(&start));
      CHECK(cudaEventCreate(&stop));
      CHECK(cudaEventRecord(start));
      for (int i = 0; i < 10; ++i)
        workKernel<<<ctas, threads>>>(out, iters);
      CHECK(cudaEventRecord(stop));
      CHECK(cudaEventSynchronize(stop));
      float ms = 0;
      CHECK(cudaEventElapsedTime(&ms, start, stop));
      CHECK(cudaEventDestroy(start));
      CHECK(cudaEventDestroy(stop));
      const double us = 1000.0 * ms / 10;
      iters = std::max(1, static_cast<int>(iters * 50.0 / std::max(us, 0.1)));
    }
    o.workIters = iters;
  }
  std::printf("work_iters\t%d\n", o.workIters);

  report("tiny_async",
         perLaunch(o.tinyLaunches, false, o.repetitions, [&] { tinyKernel<<<1, 32>>>(counter); }));
  report("tiny_sync", perLaunch(o.tinyLaunches / 4, true, o.repetitions,
                                [&] { tinyKernel<<<1, 32>>>(counter); }));
  expected += 32ull * o.repetitions * (o.tinyLaunches + o.tinyLaunches / 4);
  report("work_async", perLaunch(o.workLaunches, false, o.repetitions,
                                 [&] { workKernel<<<ctas, threads>>>(out, o.workIters); }));
  report("work_sync", perLaunch(o.workLaunches / 4, true, o.repetitions,
                                [&] { workKernel<<<ctas, threads>>>(out, o.workIters); }));
  CHECK(cudaGetLastError());

  // A chain of kernel nodes, built explicitly.
  cudaGraph_t graph;
  CHECK(cudaGraphCreate(&graph, 0));
  cudaGraphNode_t previous = nullptr;
  void* args[] = {&counter};
  for (int n = 0; n < o.graphNodes; ++n) {
    cudaKernelNodeParams params{};
    params.func = reinterpret_cast<void*>(tinyKernel);
    params.gridDim = dim3(1);
    params.blockDim = dim3(32);
    params.kernelParams = args;
    cudaGraphNode_t node;
    CHECK(cudaGraphAddKernelNode(&node, graph, previous != nullptr ? &previous : nullptr,
                                 previous != nullptr ? 1 : 0, &params));
    previous = node;
  }
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaGraphLaunch(exec, 0)); // warm
  CHECK(cudaStreamSynchronize(0));
  report("graph_node", perLaunch(o.graphReplays, false, 1, [&] {
                         CHECK(cudaGraphLaunch(exec, 0));
                       }) / o.graphNodes);
  expected += 32ull * o.graphNodes * (o.graphReplays + 1);
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));

  unsigned long long total = 0;
  CHECK(cudaMemcpy(&total, counter, sizeof total, cudaMemcpyDeviceToHost));
  std::printf("checksum\t%llu\n", total);
  if (total != expected) {
    std::fprintf(stderr, "FATAL: the 1-CTA kernel counted %llu threads, expected %llu\n", total,
                 expected);
    return 1;
  }
  CHECK(cudaFree(counter));
  CHECK(cudaFree(out));
  return 0;
}
