// Host work in streams: cudaStreamAddCallback (status argument, stream order) and
// cudaLaunchHostFunc in a device -> host -> device chain: a kernel produces data, a host function
// running in stream order consumes it and prepares input for the next kernel (through mapped host
// memory). Callbacks of one stream are recorded in order; output is printed after synchronization.
#include "e2e_common.h"

#include <mutex>
#include <string>
#include <vector>

__global__ void produce(int* out, int n, int round) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = i * round;
}

__global__ void consume(const int* in, const long long* host_sum, int n, long long* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] + *host_sum;
}

struct Log {
  std::mutex m;
  std::vector<std::string> lines[2];
};
static Log g_log;

struct CallbackTag {
  int stream;
  int index;
};

static void CUDART_CB stream_callback(cudaStream_t, cudaError_t status, void* user) {
  const CallbackTag* tag = static_cast<const CallbackTag*>(user);
  char line[96];
  std::snprintf(line, sizeof line, "callback %d (status %s)", tag->index, cudaGetErrorName(status));
  std::lock_guard<std::mutex> lock(g_log.m);
  g_log.lines[tag->stream].push_back(line);
}

struct HostStep {
  const int* produced; // page-locked host copy of the kernel's output
  long long* sum;      // mapped host memory read by the next kernel
  int n;
  int stream;
};

static void CUDART_CB host_step(void* user) {
  HostStep* st = static_cast<HostStep*>(user);
  long long s = 0;
  for (int i = 0; i < st->n; ++i)
    s += st->produced[i];
  *st->sum = s;
  char line[96];
  std::snprintf(line, sizeof line, "host function: sum %lld", s);
  std::lock_guard<std::mutex> lock(g_log.m);
  g_log.lines[st->stream].push_back(line);
}

int main() {
  const int n = 4096;
  cudaStream_t streams[2];
  CHECK(cudaStreamCreate(&streams[0]));
  CHECK(cudaStreamCreate(&streams[1]));

  int* d_in[2];
  long long* d_out[2];
  int* h_produced[2];
  long long* h_sum[2];
  long long* d_sum[2];
  long long* h_result[2];
  HostStep steps[2];
  CallbackTag tags[2][4];
  for (int k = 0; k < 2; ++k) {
    CHECK(cudaMalloc(&d_in[k], n * sizeof(int)));
    CHECK(cudaMalloc(&d_out[k], n * sizeof(long long)));
    CHECK(cudaMallocHost(&h_produced[k], n * sizeof(int)));
    CHECK(cudaHostAlloc(&h_sum[k], sizeof(long long), cudaHostAllocMapped));
    CHECK(cudaHostGetDevicePointer(&d_sum[k], h_sum[k], 0));
    CHECK(cudaMallocHost(&h_result[k], n * sizeof(long long)));
    *h_sum[k] = -1;
    steps[k] = HostStep{h_produced[k], h_sum[k], n, k};
    for (int c = 0; c < 4; ++c)
      tags[k][c] = CallbackTag{k, c};
  }

  for (int k = 0; k < 2; ++k) {
    cudaStream_t s = streams[k];
    CHECK(cudaStreamAddCallback(s, stream_callback, &tags[k][0], 0));
    produce<<<n / 256, 256, 0, s>>>(d_in[k], n, k + 2);
    CHECK_LAUNCH();
    CHECK(cudaMemcpyAsync(h_produced[k], d_in[k], n * sizeof(int), cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamAddCallback(s, stream_callback, &tags[k][1], 0));
    CHECK(cudaLaunchHostFunc(s, host_step, &steps[k]));
    CHECK(cudaStreamAddCallback(s, stream_callback, &tags[k][2], 0));
    consume<<<n / 256, 256, 0, s>>>(d_in[k], d_sum[k], n, d_out[k]);
    CHECK_LAUNCH();
    CHECK(cudaMemcpyAsync(h_result[k], d_out[k], n * sizeof(long long), cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamAddCallback(s, stream_callback, &tags[k][3], 0));
  }
  CHECK(cudaDeviceSynchronize());

  for (int k = 0; k < 2; ++k) {
    std::printf("stream %d:\n", k);
    for (const std::string& line : g_log.lines[k])
      std::printf("  %s\n", line.c_str());
    long long want_sum = 0;
    for (int i = 0; i < n; ++i)
      want_sum += static_cast<long long>(i) * (k + 2);
    bool ok = *h_sum[k] == want_sum;
    for (int i = 0; i < n; ++i)
      ok = ok && h_result[k][i] == static_cast<long long>(i) * (k + 2) + want_sum;
    e2e::expect(ok, "device -> host function -> device chain");
    e2e::expect(g_log.lines[k].size() == 5, "five host entries in stream order");
  }

  for (int k = 0; k < 2; ++k) {
    CHECK(cudaFree(d_in[k]));
    CHECK(cudaFree(d_out[k]));
    CHECK(cudaFreeHost(h_produced[k]));
    CHECK(cudaFreeHost(h_sum[k]));
    CHECK(cudaFreeHost(h_result[k]));
    CHECK(cudaStreamDestroy(streams[k]));
  }
  std::printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  return e2e::finish();
}
