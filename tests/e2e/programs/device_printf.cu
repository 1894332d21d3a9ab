// Device printf: every conversion the CUDA printf supports (%d %i %u %x %X %o %ld %lld %llu %f %e
// %g %c %s %%, widths, precisions and flags), the return value, output from several threads in a
// fixed order (serialized with __syncthreads), from consecutive kernels, and many lines from one
// thread (cudaLimitPrintfFifoSize is raised first: it can only change before any printf kernel).
// Host stdout is flushed around every synchronization so that host and device lines interleave the
// same way however the driver writes them.
#include "e2e_common.h"

__global__ void formats(int* ret) {
  int r = printf("ints: %d %i %u %x %X %o\n", -42, 17, 4000000000u, 0xbeef, 0xbeef, 8);
  ret[0] = r;
  printf("longs: %ld %lld %llu\n", -1234567890123L, -9000000000000000000LL,
         18000000000000000000ULL);
  printf("floats: %f %.3f %e %.2e %g %g\n", 3.5, 2.0f / 3.0f, 12345.678, 0.000123, 1e-10, 100.0);
  printf("chars and strings: %c%c%c [%s] [%10s] [%-6s] 100%%\n", 'O', 'K', '!', "ocelot", "right",
         "left");
  printf("widths: [%5d] [%-5d] [%05d] [%+d] [%8.3f]\n", 42, 42, 42, 42, -1.5);
  ret[1] = printf("no arguments\n");
}

// Threads print in thread order: one thread per step, all threads synchronize between steps.
__global__ void ordered(int rounds) {
  for (int t = 0; t < static_cast<int>(blockDim.x); ++t) {
    if (static_cast<int>(threadIdx.x) == t) {
      printf("block %d thread %d of %d: value %d\n", blockIdx.x, threadIdx.x, blockDim.x,
             rounds * 100 + t * t);
    }
    __syncthreads();
  }
}

__global__ void many_lines(int count) {
  for (int i = 0; i < count; ++i)
    printf("line %03d: %d\n", i, i * i);
}

static void sync_and_flush() {
  std::fflush(stdout);
  CHECK(cudaDeviceSynchronize());
  std::fflush(stdout);
}

int main() {
  // The FIFO size can only change before the first kernel that uses printf.
  CHECK(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, size_t(4) << 20));
  size_t fifo = 0;
  CHECK(cudaDeviceGetLimit(&fifo, cudaLimitPrintfFifoSize));
  std::printf("host: printf fifo >= 4 MiB: %s\n", fifo >= (size_t(4) << 20) ? "yes" : "no");
  int* ret = nullptr;
  CHECK(cudaMallocManaged(&ret, 2 * sizeof(int)));
  std::printf("host: before formats\n");
  std::fflush(stdout);
  formats<<<1, 1>>>(ret);
  CHECK_LAUNCH();
  sync_and_flush();
  std::printf("host: printf returned %d and %d\n", ret[0], ret[1]);

  std::printf("host: ordered output from 8 threads\n");
  std::fflush(stdout);
  ordered<<<1, 8>>>(1);
  CHECK_LAUNCH();
  sync_and_flush();

  std::printf("host: two kernels in a row\n");
  std::fflush(stdout);
  ordered<<<1, 3>>>(2);
  ordered<<<1, 2>>>(3);
  CHECK_LAUNCH();
  sync_and_flush();

  std::printf("host: 200 lines from one thread\n");
  std::fflush(stdout);
  many_lines<<<1, 1>>>(200);
  CHECK_LAUNCH();
  sync_and_flush();
  std::printf("host: done\n");
  CHECK(cudaFree(ret));
  return e2e::finish();
}
