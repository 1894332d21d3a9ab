// Many host threads using the runtime at once, each with its own streams, events, allocations and
// launches, and one invalid call whose error must stay that thread's own. Prints one line per
// thread in thread order (deterministic); the driver-path test runs it over the fake driver and
// counts the launches that reached the driver.
#include <cuda_runtime.h>

#include <atomic>
#include <cstdio>
#include <thread>
#include <vector>

__global__ void touch(int* data, int value) {
  data[threadIdx.x] = value;
}

namespace {

constexpr int kThreads = 16;
constexpr int kIterations = 100;

std::atomic<int> gHostFunctions{0};

void CUDART_CB countHostFunction(void*) {
  gHostFunctions.fetch_add(1);
}

struct Outcome {
  int failures = 0;
  int ownErrors = 0; ///< the thread saw its own invalid-device error exactly once per iteration
  cudaError_t first = cudaSuccess;
};

void work(int id, Outcome& outcome) {
  auto check = [&](cudaError_t error) {
    if (error != cudaSuccess) {
      if (outcome.failures++ == 0)
        outcome.first = error;
    }
  };
  check(cudaSetDevice(0));
  for (int i = 0; i < kIterations; ++i) {
    cudaStream_t stream = nullptr;
    cudaEvent_t event = nullptr;
    int* data = nullptr;
    check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    check(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
    check(cudaMalloc(&data, 32 * sizeof(int)));
    touch<<<1, 32, 0, stream>>>(data, id);
    check(cudaGetLastError());
    void* args[] = {&data, &id};
    check(cudaLaunchKernel(reinterpret_cast<const void*>(&touch), dim3(1), dim3(32), args, 0,
                           stream));
    check(cudaLaunchHostFunc(stream, countHostFunction, nullptr));
    check(cudaEventRecord(event, stream));
    check(cudaStreamWaitEvent(nullptr, event, 0));
    check(cudaEventSynchronize(event));
    int host[32] = {};
    check(cudaMemcpyAsync(host, data, sizeof host, cudaMemcpyDeviceToHost, stream));
    check(cudaStreamSynchronize(stream));
    // An error of this thread only: the other threads' last errors stay clean.
    if (cudaSetDevice(99) == cudaErrorInvalidDevice &&
        cudaGetLastError() == cudaErrorInvalidDevice && cudaGetLastError() == cudaSuccess)
      ++outcome.ownErrors;
    check(cudaFree(data));
    check(cudaEventDestroy(event));
    check(cudaStreamDestroy(stream));
  }
}

} // namespace

int main() {
  std::vector<Outcome> outcomes(kThreads);
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i)
    threads.emplace_back(work, i, std::ref(outcomes[i]));
  for (std::thread& thread : threads)
    thread.join();
  int failed = 0;
  for (int i = 0; i < kThreads; ++i) {
    std::printf("thread %d: failures %d (first %s), own errors %d/%d\n", i, outcomes[i].failures,
                cudaGetErrorName(outcomes[i].first), outcomes[i].ownErrors, kIterations);
    failed += outcomes[i].failures != 0 || outcomes[i].ownErrors != kIterations;
  }
  std::printf("host functions %d/%d\n", gHostFunctions.load(), kThreads * kIterations);
  std::printf("%s\n", failed == 0 ? "PASS" : "FAIL");
  return failed == 0 ? 0 : 1;
}
