// One process per device, as MPI jobs usually run on a multi-GPU node (issue 16: "two ranks on two
// GPUs"): each rank takes its rank from the launcher's environment (OMPI_COMM_WORLD_RANK,
// PMI_RANK, SLURM_PROCID: the variables `ocelot run` names its outputs by), uses device
// rank % devices, and launches one kernel twice with (rank + 1) times the work. No MPI library: a
// machine without Open MPI (the lent GPU machines) starts the ranks itself with those variables
// set. With fewer devices than ranks it prints why and exits 77. Built by nvcc with
// `-cudart shared`; tests/tools/check_report.py `rankdevices` runs and checks it.

#include <cstdio>
#include <cstdlib>

#include "rank_work.cuh"

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t status_ = (call);                                                                  \
    if (status_ != cudaSuccess) {                                                                  \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                           \
                   cudaGetErrorString(status_));                                                   \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

/// The first of the launchers' variables that is set, else `fallback`.
static int fromEnvironment(const char* const* names, int fallback) {
  for (int i = 0; names[i] != nullptr; ++i)
    if (const char* text = std::getenv(names[i]); text != nullptr && *text != '\0')
      return std::atoi(text);
  return fallback;
}

int main() {
  static const char* const kRank[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID", nullptr};
  static const char* const kSize[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS", nullptr};
  const int rank = fromEnvironment(kRank, 0);
  const int size = fromEnvironment(kSize, 1);
  int devices = 0;
  CHECK(cudaGetDeviceCount(&devices));
  if (devices < size) {
    std::printf("rank %d: %d ranks need a device each, this machine has %d: skipped\n", rank,
                size, devices);
    return 77;
  }
  const int device = rank % devices;
  CHECK(cudaSetDevice(device));
  const int threads = 4 * 128;
  unsigned* out = nullptr;
  CHECK(cudaMalloc(&out, threads * sizeof(unsigned)));
  for (int launch = 0; launch < 2; ++launch)
    rankWork<<<4, 128>>>(out, 2000 * (rank + 1));
  CHECK(cudaGetLastError());
  unsigned first = 0;
  CHECK(cudaMemcpy(&first, out, sizeof first, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(out));
  std::printf("rank %d of %d ran on device %d (first value %u)\n", rank, size, device, first);
  return 0;
}
