// e2e-nvcc-flags: --default-stream per-thread
// Per-thread default streams (built with --default-stream per-thread, so the runtime's _ptds/_ptsz
// entry points are used): each host thread's default stream is independent of the others, while
// the legacy NULL stream (cudaStreamLegacy) still synchronizes with them. Thread A holds its
// default stream with a gate kernel; thread B's default-stream work, synchronous cudaMemcpy and
// cudaStreamSynchronize(0) complete meanwhile; work on cudaStreamLegacy waits.
#include "e2e_gate.h"

#include <atomic>
#include <thread>

__global__ void write_value(int* p, int v) {
  *p = v;
}

int main() {
  int* d = nullptr;
  CHECK(cudaMalloc(&d, 8 * sizeof(int)));
  CHECK(cudaMemset(d, 0, 8 * sizeof(int)));
  CHECK(cudaDeviceSynchronize());
  e2e::Gate gate;
  e2e::preload(write_value);
  cudaEvent_t ev_a, ev_legacy;
  CHECK(cudaEventCreateWithFlags(&ev_a, cudaEventDisableTiming));
  CHECK(cudaEventCreateWithFlags(&ev_legacy, cudaEventDisableTiming));

  std::atomic<int> a_ready{0};
  cudaError_t a_query_own = cudaSuccess, a_sync = cudaErrorUnknown;
  cudaError_t b_sync = cudaErrorUnknown, b_query_own = cudaErrorUnknown, b_query_a = cudaSuccess;
  cudaError_t b_query_legacy = cudaSuccess;
  int b_value = 0;

  std::thread a([&] {
    gate.close_on(0); // 0 is this thread's default stream here
    write_value<<<1, 1>>>(d + 0, 100);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(ev_a, 0));
    a_query_own = cudaStreamQuery(cudaStreamPerThread);
    a_ready.store(1);
    a_sync = cudaStreamSynchronize(0); // returns once main opens the gate
  });
  while (a_ready.load() == 0)
    std::this_thread::yield();

  std::thread b([&] {
    write_value<<<1, 1>>>(d + 1, 200);
    CHECK(cudaGetLastError());
    b_sync = cudaStreamSynchronize(0);
    b_query_own = cudaStreamQuery(0);
    CHECK(cudaMemcpy(&b_value, d + 1, sizeof b_value, cudaMemcpyDeviceToHost)); // per-thread stream
    b_query_a = cudaEventQuery(ev_a);
    // The legacy stream synchronizes with every blocking stream, per-thread ones included.
    write_value<<<1, 1, 0, cudaStreamLegacy>>>(d + 2, 300);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(ev_legacy, cudaStreamLegacy));
    b_query_legacy = cudaEventQuery(ev_legacy);
  });
  b.join();
  gate.open();
  a.join();
  CHECK(cudaStreamSynchronize(cudaStreamLegacy));

  std::printf("thread A: own stream while held %s, synchronize after open %s\n",
              cudaGetErrorName(a_query_own), cudaGetErrorName(a_sync));
  std::printf("thread B: synchronize %s, query own stream %s, value %d\n", cudaGetErrorName(b_sync),
              cudaGetErrorName(b_query_own), b_value);
  std::printf("thread B: event after A's held work %s, legacy-stream event %s\n",
              cudaGetErrorName(b_query_a), cudaGetErrorName(b_query_legacy));
  int h[3];
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  std::printf("values: %d %d %d\n", h[0], h[1], h[2]);
  e2e::expect(b_value == 200, "thread B finished while thread A's default stream was held");
  e2e::expect(b_query_a == cudaErrorNotReady, "thread A's work was still pending");
  e2e::expect(h[0] == 100 && h[1] == 200 && h[2] == 300, "all writes landed");
  e2e::expect(!gate.timed_out(), "gate did not time out");

  // The main thread's default stream is yet another per-thread stream.
  write_value<<<1, 1>>>(d + 3, 400);
  CHECK_LAUNCH();
  CHECK(cudaStreamSynchronize(cudaStreamPerThread));
  CHECK(cudaMemcpy(h, d + 3, sizeof(int), cudaMemcpyDeviceToHost));
  e2e::expect(h[0] == 400, "main thread's default stream");

  CHECK(cudaEventDestroy(ev_a));
  CHECK(cudaEventDestroy(ev_legacy));
  CHECK(cudaFree(d));
  std::printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  return e2e::finish();
}
