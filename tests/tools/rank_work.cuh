// The kernel of the per-rank report checks (mpi_ranks.cu, rank_devices.cu): each rank launches it
// with work that grows with the rank, so that check_report.py can tell the ranks apart by their
// instruction counts and find the imbalance across ranks.
#pragma once

// Each thread iterates `steps` times: the work grows with the rank.
__global__ void rankWork(unsigned* out, int steps) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < steps; ++i)
    x = x * 1664525u + 1013904223u;
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}
