// Streams: cudaStreamCreate / WithFlags / WithPriority, cudaStreamGetPriority / GetFlags /
// GetDevice / GetId, stream attributes, cudaStreamQuery (idle and, deterministically, busy behind
// a gate kernel), cudaStreamSynchronize, cudaStreamWaitEvent ordering between streams, explicit
// cudaStreamLegacy / cudaStreamPerThread handles, and destroying a stream with pending work.
#include "e2e_gate.h"

__global__ void write_value(int* p, int v) {
  *p = v;
}
__global__ void copy_plus(const int* src, int* dst, int add) {
  *dst = *src + add;
}

int main() {
  int least = 0, greatest = 0;
  CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));

  cudaStream_t plain, nonblocking, high, low;
  CHECK(cudaStreamCreate(&plain));
  CHECK(cudaStreamCreateWithFlags(&nonblocking, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithPriority(&high, cudaStreamNonBlocking, greatest));
  CHECK(cudaStreamCreateWithPriority(&low, cudaStreamDefault, least));
  struct Named {
    cudaStream_t s;
    const char* name;
  };
  const Named all[] = {{plain, "plain"},
                       {nonblocking, "nonblocking"},
                       {high, "high"},
                       {low, "low"},
                       {cudaStreamLegacy, "cudaStreamLegacy"},
                       {cudaStreamPerThread, "cudaStreamPerThread"}};
  unsigned long long ids[6] = {0, 0, 0, 0, 0, 0};
  int k = 0;
  for (const Named& n : all) {
    // Not CHECKed: the special handles are part of what is compared, errors included.
    unsigned flags = 99;
    int prio = 99, dev = -1;
    cudaError_t e1 = cudaStreamGetFlags(n.s, &flags);
    cudaError_t e2 = cudaStreamGetPriority(n.s, &prio);
    cudaError_t e3 = cudaStreamGetDevice(n.s, &dev);
    cudaError_t e4 = cudaStreamGetId(n.s, &ids[k++]);
    std::printf("stream %-20s flags %s %u, priority %s %s, device %s %d, id %s\n", n.name,
                cudaGetErrorName(e1), flags, cudaGetErrorName(e2),
                prio == greatest ? "greatest"
                : prio == least  ? "least"
                                 : "other",
                cudaGetErrorName(e3), dev, cudaGetErrorName(e4));
  }
  (void)cudaGetLastError();
  bool distinct = true;
  for (int i = 0; i < 4; ++i)
    for (int j = i + 1; j < 4; ++j)
      distinct = distinct && ids[i] != ids[j];
  e2e::expect(distinct, "cudaStreamGetId values of created streams are distinct");

  cudaStreamAttrValue v;
  std::memset(&v, 0, sizeof v);
  CHECK(cudaStreamGetAttribute(high, cudaLaunchAttributePriority, &v));
  e2e::expect(v.priority == greatest, "priority attribute of the high-priority stream");
  v.priority = least;
  CHECK(cudaStreamSetAttribute(high, cudaLaunchAttributePriority, &v));
  int prio = 0;
  CHECK(cudaStreamGetPriority(high, &prio));
  std::printf("priority after cudaStreamSetAttribute: %s\n", prio == least ? "least" : "other");

  // Idle streams are ready.
  std::printf("cudaStreamQuery(idle plain): %s\n", cudaGetErrorName(cudaStreamQuery(plain)));

  int* d = nullptr;
  CHECK(cudaMalloc(&d, 4 * sizeof(int)));
  CHECK(cudaMemset(d, 0, 4 * sizeof(int)));
  CHECK(cudaDeviceSynchronize());

  // Busy stream: plain is held by the gate; nonblocking waits on an event recorded after it.
  e2e::Gate gate;
  e2e::preload(write_value, copy_plus);
  cudaEvent_t after_gate;
  CHECK(cudaEventCreateWithFlags(&after_gate, cudaEventDisableTiming));
  gate.close_on(plain);
  write_value<<<1, 1, 0, plain>>>(d, 1234);
  CHECK(cudaEventRecord(after_gate, plain));
  CHECK(cudaStreamWaitEvent(nonblocking, after_gate, 0));
  copy_plus<<<1, 1, 0, nonblocking>>>(d, d + 1, 1);
  // An unrelated non-blocking stream is not held up.
  write_value<<<1, 1, 0, high>>>(d + 2, 77);
  CHECK(cudaStreamSynchronize(high));
  std::printf("while gated: query plain %s, query nonblocking %s, query high %s\n",
              cudaGetErrorName(cudaStreamQuery(plain)),
              cudaGetErrorName(cudaStreamQuery(nonblocking)),
              cudaGetErrorName(cudaStreamQuery(high)));
  gate.open();
  CHECK(cudaStreamSynchronize(nonblocking));
  std::printf("after open: query plain %s, query nonblocking %s\n",
              cudaGetErrorName(cudaStreamQuery(plain)),
              cudaGetErrorName(cudaStreamQuery(nonblocking)));
  int h[4];
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  std::printf("values: %d %d %d\n", h[0], h[1], h[2]);
  e2e::expect(h[0] == 1234 && h[1] == 1235 && h[2] == 77, "cudaStreamWaitEvent orders the streams");
  e2e::expect(!gate.timed_out(), "gate did not time out");

  // Destroying a stream with pending work: the work still completes.
  cudaStream_t doomed;
  CHECK(cudaStreamCreate(&doomed));
  gate.close_on(doomed);
  write_value<<<1, 1, 0, doomed>>>(d + 3, 4321);
  CHECK(cudaStreamDestroy(doomed));
  gate.open();
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  e2e::expect(h[3] == 4321, "work on a destroyed stream completed");

  // Explicit legacy and per-thread handles.
  write_value<<<1, 1, 0, cudaStreamLegacy>>>(d, 1);
  write_value<<<1, 1, 0, cudaStreamPerThread>>>(d + 1, 2);
  CHECK(cudaStreamSynchronize(cudaStreamLegacy));
  CHECK(cudaStreamSynchronize(cudaStreamPerThread));
  CHECK(cudaMemcpy(h, d, 2 * sizeof(int), cudaMemcpyDeviceToHost));
  e2e::expect(h[0] == 1 && h[1] == 2, "launches on cudaStreamLegacy and cudaStreamPerThread");

  CHECK(cudaEventDestroy(after_gate));
  for (cudaStream_t s : {plain, nonblocking, high, low})
    CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(d));
  std::printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  return e2e::finish();
}
