// Copies and fills through pointers that name no memory the device may touch (issue 18): never
// allocated, freed, past the end of an allocation, SIZE_MAX sizes, pageable host memory named as a
// device side of the copy, and every call of a child forked after the parent used CUDA. NVIDIA's
// runtime refuses each with an error and writes nothing; so must Ocelot (on the CPU device these
// once crashed the stream thread, wrote into the neighbouring allocation, or hung the child).
// One line per call, as in bad_arguments.cu:
//   "<n> <name>: <cudaGetErrorName(result)> | last: <cudaGetErrorName(cudaGetLastError())>".
// Left out: a wild pointer with cudaMemcpyDefault, which NVIDIA's runtime takes for host memory
// and crashes on (Ocelot returns cudaErrorInvalidValue).
#include "e2e_common.h"

#include <functional>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

__device__ int g_symbol[4];

struct Case {
  const char* name;
  std::function<cudaError_t()> call;
};

int main() {
  // Unbuffered: a call that crashes the process still shows how far the table got.
  std::setvbuf(stdout, nullptr, _IONBF, 0);
  constexpr cudaMemcpyKind H2D = cudaMemcpyHostToDevice, D2H = cudaMemcpyDeviceToHost,
                           D2D = cudaMemcpyDeviceToDevice;
  char *d = nullptr, *d2 = nullptr, *freed = nullptr, *pinned = nullptr;
  CHECK(cudaMalloc(&d, 1024));
  CHECK(cudaMalloc(&d2, 1024));
  CHECK(cudaMalloc(&freed, 1024));
  CHECK(cudaFree(freed));
  CHECK(cudaMallocHost(&pinned, 4096));
  cudaStream_t s = nullptr;
  CHECK(cudaStreamCreate(&s));
  static char host[4096], host2[4096];
  std::vector<char> big(size_t{1} << 30);
  // An address no allocation holds, far from the program's own memory.
  void* wild = reinterpret_cast<void*>(uintptr_t{0x7f0000000000});
  // The neighbour must never change: a copy past the end of `d` would land in it.
  CHECK(cudaMemset(d2, 0x5a, 1024));

  std::vector<Case> cases = {
      {"cudaMemcpy(HtoD, never-allocated destination)",
       [&] { return cudaMemcpy(wild, host, 16, H2D); }},
      {"cudaMemcpy(DtoH, never-allocated source)", [&] { return cudaMemcpy(host, wild, 16, D2H); }},
      {"cudaMemcpy(HtoD, SIZE_MAX bytes)", [&] { return cudaMemcpy(d, host, SIZE_MAX, H2D); }},
      {"cudaMemcpy(HtoD, 1 GiB into 1 KiB)",
       [&] { return cudaMemcpy(d, big.data(), big.size(), H2D); }},
      {"cudaMemcpy(HtoD, freed destination)", [&] { return cudaMemcpy(freed, host, 16, H2D); }},
      {"cudaMemcpy(DtoH, freed source)", [&] { return cudaMemcpy(host, freed, 16, D2H); }},
      {"cudaMemcpy(HtoD, past the end)", [&] { return cudaMemcpy(d + 1000, host, 100, H2D); }},
      {"cudaMemcpy(DtoD, source past the end)", [&] { return cudaMemcpy(d2, d + 1000, 100, D2D); }},
      {"cudaMemcpy(DtoD, host pointers)", [&] { return cudaMemcpy(host, host2, 16, D2D); }},
      {"cudaMemcpy(HtoD, host destination)", [&] { return cudaMemcpy(host, host2, 16, H2D); }},
      {"cudaMemcpy(DtoH, host source)", [&] { return cudaMemcpy(d, host, 16, D2H); }},
      {"cudaMemcpyAsync(HtoD, never-allocated destination)",
       [&] { return cudaMemcpyAsync(wild, host, 16, H2D, s); }},
      {"cudaStreamSynchronize(after the refused copy)", [&] { return cudaStreamSynchronize(s); }},
      {"cudaMemcpyAsync(DtoH, source past the end)",
       [&] { return cudaMemcpyAsync(host, d + 1000, 100, D2H, s); }},
      {"cudaMemset(freed)", [&] { return cudaMemset(freed, 0, 16); }},
      {"cudaMemset(past the end)", [&] { return cudaMemset(d + 1000, 0, 100); }},
      {"cudaMemset(never allocated)", [&] { return cudaMemset(wild, 0, 16); }},
      {"cudaMemset(pageable host memory)", [&] { return cudaMemset(host, 0, 16); }},
      {"cudaMemcpy2D(HtoD, rows past the end)",
       [&] { return cudaMemcpy2D(d, 256, host, 256, 256, 8, H2D); }},
      {"cudaMemset2D(rows past the end)", [&] { return cudaMemset2D(d, 256, 0, 256, 8); }},
      {"cudaMemcpy3D(HtoD, slices past the end)",
       [&] {
         cudaMemcpy3DParms p = {};
         p.srcPtr = make_cudaPitchedPtr(host, 256, 256, 4);
         p.dstPtr = make_cudaPitchedPtr(d, 256, 256, 4);
         p.extent = make_cudaExtent(256, 4, 2);
         p.kind = H2D;
         return cudaMemcpy3D(&p);
       }},
      {"cudaMemcpyPeer(never-allocated destination)",
       [&] { return cudaMemcpyPeer(wild, 0, d, 0, 16); }},
      {"cudaMemcpyPeer(source past the end)",
       [&] { return cudaMemcpyPeer(d2, 0, d + 1000, 0, 100); }},
      {"cudaMemcpyToSymbol(DtoD, freed source)",
       [&] { return cudaMemcpyToSymbol(g_symbol, freed, 16, 0, D2D); }},
      {"cudaMemcpyFromSymbol(DtoD, destination past the end)",
       [&] { return cudaMemcpyFromSymbol(d + 1020, g_symbol, 16, 0, D2D); }},
      {"cudaMemcpy(DtoD, page-locked host destination)",
       [&] { return cudaMemcpy(pinned, d, 16, D2D); }},
      {"cudaMemcpy(HtoH, device pointers)",
       [&] { return cudaMemcpy(d, d2 + 512, 16, cudaMemcpyHostToHost); }},
  };
  int index = 0;
  for (const Case& c : cases) {
    cudaError_t result = c.call();
    cudaError_t last = cudaGetLastError();
    std::printf("%3d %s: %s | last: %s\n", ++index, c.name, cudaGetErrorName(result),
                cudaGetErrorName(last));
    std::fflush(stdout);
  }
  std::printf("calls: %d\n", index);

  char neighbour[1024];
  CHECK(cudaMemcpy(neighbour, d2, sizeof neighbour, D2H));
  bool untouched = true;
  for (char byte : neighbour)
    untouched = untouched && byte == 0x5a;
  e2e::expect(untouched, "the neighbouring allocation is unchanged");

  // fork() after CUDA use: the child cannot use its parent's device (its threads stayed behind).
  // It must get errors, not hang; it may still count devices.
  std::fflush(stdout);
  pid_t child = fork();
  if (child == 0) {
    void* p = nullptr;
    int count = -1;
    std::printf("child cudaMalloc: %s\n", cudaGetErrorName(cudaMalloc(&p, 16)));
    std::printf("child cudaMemcpy: %s\n", cudaGetErrorName(cudaMemcpy(host, d, 16, D2H)));
    std::printf("child cudaDeviceSynchronize: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    std::printf("child cudaGetDeviceCount: %s\n", cudaGetErrorName(cudaGetDeviceCount(&count)));
    std::printf("child cudaSetDevice: %s\n", cudaGetErrorName(cudaSetDevice(0)));
    std::fflush(stdout);
    std::exit(0); // atexit handlers (fatbinary unregistration) must not hang either
  }
  int status = -1;
  waitpid(child, &status, 0);
  std::printf("child exited normally with 0: %s\n",
              WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "yes" : "no");

  std::printf("cudaDeviceSynchronize: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFreeHost(pinned));
  CHECK(cudaFree(d));
  CHECK(cudaFree(d2));
  return e2e::finish();
}
