// A "gate" for deterministic tests of asynchronous behaviour: a one-thread kernel that spins until
// the host opens the gate by writing a flag in mapped, page-locked host memory. While the gate is
// closed, the stream (and everything ordered after the gate kernel) is guaranteed to be busy, so
// cudaStreamQuery/cudaEventQuery return cudaErrorNotReady deterministically, without relying on
// timing. The kernel gives up after 10 seconds (and records that) so that a wrong implementation
// produces a clear failure instead of a hang.
#pragma once

#include "e2e_common.h"

// `flag` counts how many gates the host has opened; this kernel is gate number `generation` and
// waits until the count reaches it. Counting (instead of a 0/1 flag that every close resets) keeps
// gates independent: closing a second gate before the first kernel has even started cannot re-close
// the first one.
__global__ void e2e_gate_kernel(const volatile int* flag, int generation, volatile int* timed_out) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  while (*flag < generation) {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    if (now - start > 10000000000ull) { // 10 s in nanoseconds
      *timed_out = 1;
      return;
    }
    __nanosleep(1000);
  }
}

namespace e2e {

// Under lazy loading (CUDA's default), a kernel's first launch loads its code, and loading waits
// for the device to go idle: a kernel launched for the first time while a gate is closed waits
// for the gate, which never opens. Tests load every kernel they launch behind a gate first.
template <class... Kernels> void preload(Kernels... kernels) {
  auto load = [](auto kernel) {
    cudaFuncAttributes attributes;
    CHECK(cudaFuncGetAttributes(&attributes, kernel));
  };
  (load(kernels), ...);
}

class Gate {
public:
  Gate() {
    CHECK(cudaHostAlloc(&host_, 2 * sizeof(int), cudaHostAllocMapped));
    host_[0] = 0;
    host_[1] = 0;
    CHECK(cudaHostGetDevicePointer(&dev_, host_, 0));
    preload(e2e_gate_kernel);
  }
  ~Gate() { cudaFreeHost(host_); }
  Gate(const Gate&) = delete;
  Gate& operator=(const Gate&) = delete;

  // Enqueues a spinning kernel on `stream` that waits for the next open().
  void close_on(cudaStream_t stream) {
    e2e_gate_kernel<<<1, 1, 0, stream>>>(dev_, ++closed_, dev_ + 1);
    CHECK(cudaGetLastError());
  }
  // Releases every gate kernel enqueued so far.
  void open() { reinterpret_cast<volatile int*>(host_)[0] = closed_; }
  bool timed_out() const { return reinterpret_cast<volatile int*>(host_)[1] != 0; }

private:
  int* host_ = nullptr;
  int* dev_ = nullptr;
  int closed_ = 0;
};

} // namespace e2e
