// A tiny MPI + CUDA program for `ocelot report`'s rank merging (CTest report.mpi_two_ranks):
// every rank runs the same kernel, rank r with (r + 1) times the work, so the merged report
// must show rank 0 as the kernel's minimum and the last rank as its maximum. Built by nvcc with
// mpicxx as host compiler and `-cudart shared`, run as
//   mpirun -np 2 ocelot run --device cpu -o profile.json -- ./mpi_ranks

#include <cstdio>
#include <mpi.h>

#include "rank_work.cuh"

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t status_ = (call);                                                                  \
    if (status_ != cudaSuccess) {                                                                  \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                           \
                   cudaGetErrorString(status_));                                                   \
      MPI_Abort(MPI_COMM_WORLD, 1);                                                                \
    }                                                                                              \
  } while (0)

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int threads = 4 * 128;
  unsigned* out = nullptr;
  CHECK(cudaMalloc(&out, threads * sizeof(unsigned)));
  for (int launch = 0; launch < 2; ++launch)
    rankWork<<<4, 128>>>(out, 2000 * (rank + 1));
  CHECK(cudaGetLastError());
  unsigned first = 0;
  CHECK(cudaMemcpy(&first, out, sizeof first, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(out));
  int ok = 1, all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    std::printf("%d ranks ran their kernels (rank 0's first value %u)\n", all, first);
  MPI_Finalize();
  return all == size ? 0 : 1;
}
