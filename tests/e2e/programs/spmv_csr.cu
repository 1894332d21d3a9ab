// Workload: sparse matrix-vector product y = A x in CSR format for a 200000-row matrix with a
// banded part and pseudo-random extra entries (irregular row lengths 2..35), with a scalar kernel
// (one thread per row) and a vector kernel (one warp per row, shuffle reduction). Values are small
// integers in double precision, so every sum is exact and both kernels equal the CPU result.
//
// Structure for instrumentation: scalar: 782 blocks x 256 threads, row loop trip count = row
// length; vector: 25000 blocks x 256 threads (8 rows per block), lane loop ceil(len / 32) = 1 or 2
// trips, 5 shuffle steps.
#include "e2e_common.h"

#include <vector>

__global__ void spmv_scalar(const int* row_ptr, const int* cols, const double* vals,
                            const double* x, double* y, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    double acc = 0.0;
    for (int k = row_ptr[r]; k < row_ptr[r + 1]; ++k)
      acc += vals[k] * x[cols[k]];
    y[r] = acc;
  }
}

__global__ void spmv_vector(const int* row_ptr, const int* cols, const double* vals,
                            const double* x, double* y, int rows) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x & 31;
  if (warp >= rows)
    return; // whole warps exit together
  double acc = 0.0;
  for (int k = row_ptr[warp] + lane; k < row_ptr[warp + 1]; k += 32)
    acc += vals[k] * x[cols[k]];
  for (int off = 16; off > 0; off >>= 1)
    acc += __shfl_down_sync(0xffffffffu, acc, off);
  if (lane == 0)
    y[warp] = acc;
}

int main() {
  const int rows = static_cast<int>(e2e::scaled(200000));
  std::vector<int> row_ptr(rows + 1, 0), cols;
  std::vector<double> vals;
  e2e::Rng rng(31337);
  for (int r = 0; r < rows; ++r) {
    for (int d = -1; d <= 1; ++d) { // tridiagonal band
      int c = r + d;
      if (c >= 0 && c < rows) {
        cols.push_back(c);
        vals.push_back(d == 0 ? 4.0 : -1.0);
      }
    }
    int extra = static_cast<int>(rng.next() % 33); // 0..32 random off-band entries
    for (int e = 0; e < extra; ++e) {
      cols.push_back(static_cast<int>(rng.next() % rows));
      vals.push_back(static_cast<double>(rng.range(-3, 3)));
    }
    row_ptr[r + 1] = static_cast<int>(cols.size());
  }
  const int nnz = row_ptr[rows];
  std::vector<double> x(rows), y(rows), ref(rows);
  for (int i = 0; i < rows; ++i)
    x[i] = static_cast<double>(i % 17 - 8);
  for (int r = 0; r < rows; ++r) {
    double acc = 0.0;
    for (int k = row_ptr[r]; k < row_ptr[r + 1]; ++k)
      acc += vals[k] * x[cols[k]];
    ref[r] = acc;
  }

  int *d_ptr, *d_cols;
  double *d_vals, *d_x, *d_y;
  CHECK(cudaMalloc(&d_ptr, (rows + 1) * sizeof(int)));
  CHECK(cudaMalloc(&d_cols, nnz * sizeof(int)));
  CHECK(cudaMalloc(&d_vals, nnz * sizeof(double)));
  CHECK(cudaMalloc(&d_x, rows * sizeof(double)));
  CHECK(cudaMalloc(&d_y, rows * sizeof(double)));
  CHECK(cudaMemcpy(d_ptr, row_ptr.data(), (rows + 1) * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_cols, cols.data(), nnz * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_vals, vals.data(), nnz * sizeof(double), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_x, x.data(), rows * sizeof(double), cudaMemcpyHostToDevice));

  spmv_scalar<<<(rows + 255) / 256, 256>>>(d_ptr, d_cols, d_vals, d_x, d_y, rows);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(y.data(), d_y, rows * sizeof(double), cudaMemcpyDeviceToHost));
  e2e::expect(y == ref, "scalar CSR kernel");
  CHECK(cudaMemset(d_y, 0, rows * sizeof(double)));
  spmv_vector<<<(rows * 32 + 255) / 256, 256>>>(d_ptr, d_cols, d_vals, d_x, d_y, rows);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(y.data(), d_y, rows * sizeof(double), cudaMemcpyDeviceToHost));
  e2e::expect(y == ref, "vector (warp per row) CSR kernel");
  double sum = 0;
  for (double v : y)
    sum += v;
  std::printf("spmv: %d rows, %d non-zeros, sum(y) = %.0f, checksum %016llx\n", rows, nnz, sum,
              (unsigned long long)e2e::fnv1a(y.data(), rows * sizeof(double)));
  for (void* p : {static_cast<void*>(d_ptr), static_cast<void*>(d_cols), static_cast<void*>(d_vals),
                  static_cast<void*>(d_x), static_cast<void*>(d_y)})
    CHECK(cudaFree(p));
  return e2e::finish();
}
