// Legacy default stream semantics (the program is built without --default-stream per-thread):
// work on the NULL stream waits for all blocking streams and blocking streams wait for the NULL
// stream, while cudaStreamNonBlocking streams do neither. Shown deterministically with a gate
// kernel: while a gate holds one stream, queries of events recorded after dependent work return
// cudaErrorNotReady and independent work completes.
#include "e2e_gate.h"

__global__ void write_value(int* p, int v) {
  *p = v;
}

int main() {
  int* d = nullptr;
  CHECK(cudaMalloc(&d, 8 * sizeof(int)));
  CHECK(cudaMemset(d, 0, 8 * sizeof(int)));
  cudaStream_t blocking, nonblocking;
  CHECK(cudaStreamCreate(&blocking));
  CHECK(cudaStreamCreateWithFlags(&nonblocking, cudaStreamNonBlocking));
  cudaEvent_t on_null, on_blocking, on_nonblocking;
  CHECK(cudaEventCreateWithFlags(&on_null, cudaEventDisableTiming));
  CHECK(cudaEventCreateWithFlags(&on_blocking, cudaEventDisableTiming));
  CHECK(cudaEventCreateWithFlags(&on_nonblocking, cudaEventDisableTiming));
  CHECK(cudaDeviceSynchronize());
  e2e::Gate gate;
  e2e::preload(write_value);

  // Case 1: a blocking stream is held; the NULL stream must wait, a non-blocking stream must not.
  gate.close_on(blocking);
  write_value<<<1, 1>>>(d + 0, 10); // NULL stream
  CHECK_LAUNCH();
  CHECK(cudaEventRecord(on_null, 0));
  write_value<<<1, 1, 0, nonblocking>>>(d + 1, 11);
  CHECK(cudaEventRecord(on_nonblocking, nonblocking));
  CHECK(cudaEventSynchronize(on_nonblocking)); // completes although the gate is closed
  std::printf("case 1 (blocking stream held): NULL-stream event %s, non-blocking event %s\n",
              cudaGetErrorName(cudaEventQuery(on_null)),
              cudaGetErrorName(cudaEventQuery(on_nonblocking)));
  gate.open();
  CHECK(cudaDeviceSynchronize());
  std::printf("case 1 after open: NULL-stream event %s\n",
              cudaGetErrorName(cudaEventQuery(on_null)));

  // Case 2: the NULL stream is held; a blocking stream must wait, a non-blocking stream must not.
  gate.close_on(0);
  write_value<<<1, 1, 0, blocking>>>(d + 2, 12);
  CHECK(cudaEventRecord(on_blocking, blocking));
  write_value<<<1, 1, 0, nonblocking>>>(d + 3, 13);
  CHECK(cudaEventRecord(on_nonblocking, nonblocking));
  CHECK(cudaEventSynchronize(on_nonblocking));
  std::printf("case 2 (NULL stream held): blocking-stream event %s, non-blocking event %s\n",
              cudaGetErrorName(cudaEventQuery(on_blocking)),
              cudaGetErrorName(cudaEventQuery(on_nonblocking)));
  gate.open();
  CHECK(cudaStreamSynchronize(blocking));
  std::printf("case 2 after open: blocking-stream event %s\n",
              cudaGetErrorName(cudaEventQuery(on_blocking)));

  // Case 3: cudaStreamLegacy used explicitly behaves like the NULL stream.
  gate.close_on(blocking);
  write_value<<<1, 1, 0, cudaStreamLegacy>>>(d + 4, 14);
  CHECK(cudaEventRecord(on_null, cudaStreamLegacy));
  std::printf("case 3 (cudaStreamLegacy behind held blocking stream): %s\n",
              cudaGetErrorName(cudaEventQuery(on_null)));
  gate.open();
  CHECK(cudaStreamSynchronize(cudaStreamLegacy));

  // Case 4: cudaStreamSynchronize(0) and cudaDeviceSynchronize wait for everything.
  write_value<<<1, 1, 0, blocking>>>(d + 5, 15);
  write_value<<<1, 1>>>(d + 6, 16);
  CHECK(cudaStreamSynchronize(0));
  int h[8];
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  std::printf("values: %d %d %d %d %d %d %d\n", h[0], h[1], h[2], h[3], h[4], h[5], h[6]);
  e2e::expect(h[0] == 10 && h[1] == 11 && h[2] == 12 && h[3] == 13 && h[4] == 14 && h[5] == 15 &&
                  h[6] == 16,
              "all writes landed");
  e2e::expect(!gate.timed_out(), "gate did not time out");

  CHECK(cudaEventDestroy(on_null));
  CHECK(cudaEventDestroy(on_blocking));
  CHECK(cudaEventDestroy(on_nonblocking));
  CHECK(cudaStreamDestroy(blocking));
  CHECK(cudaStreamDestroy(nonblocking));
  CHECK(cudaFree(d));
  std::printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  return e2e::finish();
}
