// Events: cudaEventCreate / WithFlags (default, DisableTiming, BlockingSync), cudaEventRecord and
// cudaEventRecordWithFlags, cudaEventQuery on a never-recorded, a pending (behind a gate kernel,
// deterministically) and a completed event, cudaEventSynchronize, cudaEventElapsedTime (only that
// it is >= 0 is printed; its errors for pending and timing-disabled events are printed), and
// events as cross-stream dependencies.
#include "e2e_gate.h"

__global__ void busy_sum(const int* in, int n, long long* out) {
  __shared__ long long part[256];
  long long acc = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    acc += in[i];
  part[threadIdx.x] = acc;
  __syncthreads();
  if (threadIdx.x == 0) {
    long long t = 0;
    for (int k = 0; k < blockDim.x; ++k)
      t += part[k];
    *out = t;
  }
}

int main() {
  cudaEvent_t plain, notiming, blocking, start, stop;
  CHECK(cudaEventCreate(&plain));
  CHECK(cudaEventCreateWithFlags(&notiming, cudaEventDisableTiming));
  CHECK(cudaEventCreateWithFlags(&blocking, cudaEventBlockingSync));
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));

  std::printf("query never-recorded event: %s\n", cudaGetErrorName(cudaEventQuery(plain)));
  std::printf("synchronize never-recorded event: %s\n",
              cudaGetErrorName(cudaEventSynchronize(plain)));

  const int n = 1 << 22;
  int* d = nullptr;
  long long* d_sum = nullptr;
  CHECK(cudaMalloc(&d, n * sizeof(int)));
  CHECK(cudaMalloc(&d_sum, sizeof(long long)));
  CHECK(cudaMemset(d, 1, n * sizeof(int))); // every int is 0x01010101

  cudaStream_t s, t;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&t, cudaStreamNonBlocking));

  // Timed section.
  CHECK(cudaEventRecord(start, s));
  busy_sum<<<1, 256, 0, s>>>(d, n, d_sum);
  CHECK_LAUNCH();
  CHECK(cudaEventRecordWithFlags(stop, s, cudaEventRecordDefault));
  CHECK(cudaEventSynchronize(stop));
  float ms = -1.0f;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  std::printf("elapsed time >= 0: %s\n", ms >= 0.0f ? "yes" : "no");
  float rev = 0.0f;
  cudaError_t e = cudaEventElapsedTime(&rev, stop, start);
  std::printf("elapsed time stop->start: %s, <= 0: %s\n", cudaGetErrorName(e),
              rev <= 0.0f ? "yes" : "no");
  long long sum = 0;
  CHECK(cudaMemcpy(&sum, d_sum, sizeof sum, cudaMemcpyDeviceToHost));
  e2e::expect(sum == 0x01010101LL * n, "timed kernel result");

  // Timing-disabled events cannot be timed.
  CHECK(cudaEventRecord(notiming, s));
  CHECK(cudaEventSynchronize(notiming));
  e = cudaEventElapsedTime(&ms, start, notiming);
  std::printf("elapsed time with a DisableTiming event: %s\n", cudaGetErrorName(e));
  std::printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));

  // Pending events behind a gate.
  e2e::Gate gate;
  CHECK(cudaEventRecord(start, s));
  gate.close_on(s);
  CHECK(cudaEventRecord(plain, s));
  CHECK(cudaEventRecord(blocking, s));
  CHECK(cudaStreamWaitEvent(t, plain, 0));
  CHECK(cudaEventRecord(stop, t));
  std::printf("pending: query plain %s, query blocking %s, query stop (other stream) %s\n",
              cudaGetErrorName(cudaEventQuery(plain)), cudaGetErrorName(cudaEventQuery(blocking)),
              cudaGetErrorName(cudaEventQuery(stop)));
  e = cudaEventElapsedTime(&ms, start, plain);
  std::printf("elapsed time to a pending event: %s\n", cudaGetErrorName(e));
  std::printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  gate.open();
  CHECK(cudaEventSynchronize(blocking));
  CHECK(cudaEventSynchronize(stop));
  std::printf("completed: query plain %s, query blocking %s, query stop %s\n",
              cudaGetErrorName(cudaEventQuery(plain)), cudaGetErrorName(cudaEventQuery(blocking)),
              cudaGetErrorName(cudaEventQuery(stop)));
  CHECK(cudaEventElapsedTime(&ms, start, plain));
  std::printf("elapsed time across the gate >= 0: %s\n", ms >= 0.0f ? "yes" : "no");
  e2e::expect(!gate.timed_out(), "gate did not time out");

  // Re-recording an event moves it: it now tracks the latest work only.
  CHECK(cudaEventRecord(plain, t));
  CHECK(cudaStreamSynchronize(t));
  std::printf("re-recorded event: %s\n", cudaGetErrorName(cudaEventQuery(plain)));

  for (cudaEvent_t ev : {plain, notiming, blocking, start, stop})
    CHECK(cudaEventDestroy(ev));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaStreamDestroy(t));
  CHECK(cudaFree(d));
  CHECK(cudaFree(d_sum));
  std::printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  return e2e::finish();
}
