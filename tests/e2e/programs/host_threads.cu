// Several host threads using the runtime at the same time (std::thread): each thread selects the
// device, creates its own streams and events, allocates, copies, launches and synchronizes many
// times; the per-thread error state (cudaGetLastError) is checked to be private to each thread.
// Results are collected per thread and printed in thread order after join, so output is
// deterministic.
#include "e2e_common.h"

#include <atomic>
#include <thread>
#include <vector>

__global__ void polynomial(const int* x, long long* y, int n, int a, int b, int c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    long long v = x[i];
    y[i] = a * v * v + b * v + c;
  }
}

__global__ void noop() {}

struct Result {
  bool ok = false;
  unsigned long long checksum = 0;
  int iterations = 0;
  cudaError_t own_error = cudaSuccess;
  cudaError_t later_error = cudaErrorUnknown;
};

static void worker(int id, Result* r, std::atomic<int>* bad_launch_done,
                   std::atomic<int>* checked) {
  CHECK(cudaSetDevice(0));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaEvent_t ev;
  CHECK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
  const int n = 20000 + id * 1000;
  std::vector<int> hx(n);
  std::vector<long long> hy(n);
  for (int i = 0; i < n; ++i)
    hx[i] = (i * (id + 3)) % 2001 - 1000;
  int* dx = nullptr;
  long long* dy = nullptr;
  CHECK(cudaMalloc(&dx, n * sizeof(int)));
  CHECK(cudaMalloc(&dy, n * sizeof(long long)));
  CHECK(cudaMemcpyAsync(dx, hx.data(), n * sizeof(int), cudaMemcpyHostToDevice, s));

  if (id == 0) {
    // Thread 0 makes a launch error that only it must see.
    noop<<<1, 4096, 0, s>>>();
    bad_launch_done->store(1);
    r->own_error = cudaPeekAtLastError();
  } else {
    while (bad_launch_done->load() == 0)
      std::this_thread::yield();
    r->own_error = cudaPeekAtLastError(); // must be cudaSuccess in the other threads
  }
  checked->fetch_add(1);

  bool ok = true;
  unsigned long long sum = 0;
  for (int it = 0; it < 25; ++it) {
    int a = id + 1, b = it - 12, c = id * it;
    polynomial<<<(n + 255) / 256, 256, 0, s>>>(dx, dy, n, a, b, c);
    if (cudaPeekAtLastError() != cudaSuccess && id != 0)
      ok = false;
    CHECK(cudaEventRecord(ev, s));
    CHECK(cudaMemcpyAsync(hy.data(), dy, n * sizeof(long long), cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaEventSynchronize(ev));
    for (int i = 0; i < n; ++i) {
      long long v = hx[i];
      ok = ok && hy[i] == a * v * v + b * v + c;
    }
    sum = e2e::fnv1a(hy.data(), n * sizeof(long long), sum ? sum : 1469598103934665603ull);
    r->iterations++;
  }
  r->later_error = cudaGetLastError(); // thread 0: its own launch error, once
  if (id == 0)
    r->later_error = cudaGetLastError(); // and then cleared
  r->ok = ok;
  r->checksum = sum;
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  CHECK(cudaEventDestroy(ev));
  CHECK(cudaStreamDestroy(s));
}

int main() {
  // Create the primary context first so that every thread shares it without racing to create it.
  CHECK(cudaFree(nullptr));
  const int threads = 4;
  std::vector<Result> results(threads);
  std::atomic<int> bad_launch_done{0}, checked{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back(worker, t, &results[t], &bad_launch_done, &checked);
  for (std::thread& t : pool)
    t.join();

  for (int t = 0; t < threads; ++t) {
    const Result& r = results[t];
    std::printf(
        "thread %d: %d iterations, results %s, checksum %016llx, own error %s, final error %s\n", t,
        r.iterations, r.ok ? "ok" : "WRONG", r.checksum, cudaGetErrorName(r.own_error),
        cudaGetErrorName(r.later_error));
    char what[64];
    std::snprintf(what, sizeof what, "thread %d results", t);
    e2e::expect(r.ok, what);
  }
  // CUDA 13 reports an impossible block size as cudaErrorInvalidValue.
  e2e::expect(results[0].own_error == cudaErrorInvalidValue,
              "thread 0 sees its launch error");
  bool private_errors = true;
  for (int t = 1; t < threads; ++t)
    private_errors = private_errors && results[t].own_error == cudaSuccess;
  e2e::expect(private_errors, "other threads do not see thread 0's error");
  std::printf("main thread cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  return e2e::finish();
}
