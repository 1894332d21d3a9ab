// Loop shapes: #pragma unroll (full, by a factor, and `#pragma unroll 1`, which becomes
// `.pragma "nounroll";`), nested loops, loops with early exits and continue, do-while,
// loops over shared memory tiles (a 2D 5-point stencil), and a Jacobi sweep with a
// convergence flag.

__global__ void stencil5(const float* in, float* out, int width, int height, int iterations) {
  __shared__ float tile[18][18];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x = blockIdx.x * 16 + tx, y = blockIdx.y * 16 + ty;
  float v = (x < width && y < height) ? in[y * width + x] : 0.0f;
#pragma unroll 1
  for (int it = 0; it < iterations; ++it) {
    tile[ty + 1][tx + 1] = v;
    if (tx == 0)
      tile[ty + 1][0] = x > 0 && y < height ? in[y * width + x - 1] : 0.0f;
    if (tx == 15)
      tile[ty + 1][17] = x + 1 < width && y < height ? in[y * width + x + 1] : 0.0f;
    if (ty == 0)
      tile[0][tx + 1] = y > 0 && x < width ? in[(y - 1) * width + x] : 0.0f;
    if (ty == 15)
      tile[17][tx + 1] = y + 1 < height && x < width ? in[(y + 1) * width + x] : 0.0f;
    __syncthreads();
    v = 0.2f * (tile[ty + 1][tx + 1] + tile[ty][tx + 1] + tile[ty + 2][tx + 1] + tile[ty + 1][tx] +
                tile[ty + 1][tx + 2]);
    __syncthreads();
  }
  if (x < width && y < height)
    out[y * width + x] = v;
}

__global__ void unrollVariants(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
#pragma unroll
  for (int k = 0; k < 8; ++k)
    acc += in[(i + k) % n] * k;
#pragma unroll 4
  for (int k = 0; k < n; ++k)
    acc += in[k] * 0.5f;
#pragma unroll 1
  for (int k = 0; k < n; k += 3)
    acc -= in[k];
  int k = 0;
  do {
    acc *= 0.99f;
    ++k;
  } while (acc > 1.0f && k < 100);
  out[i] = acc;
}

__global__ void earlyExits(const int* data, int n, int target, int* found, int* skipped) {
  int count = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    if (data[i] < 0) {
      ++count;
      continue;
    }
    if (data[i] == target) {
      atomicMin(found, i);
      break;
    }
    for (int j = 0; j < 4; ++j) {
      if (data[(i + j) % n] == -target)
        goto next;
    }
    count += 2;
  next:;
  }
  skipped[threadIdx.x] = count;
}

__global__ void jacobi(const double* a, const double* b, const double* x, double* xNew,
                       int* converged, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n)
    return;
  double sigma = 0.0;
  for (int col = 0; col < n; ++col)
    if (col != row)
      sigma += a[row * n + col] * x[col];
  double value = (b[row] - sigma) / a[row * n + row];
  xNew[row] = value;
  if (fabs(value - x[row]) > 1e-9)
    *converged = 0;
}

// Nested triangular loops with loop-carried dependencies.
__global__ void triangularSolve(const float* lower, float* rhs, int n) {
  if (threadIdx.x != 0)
    return;
  for (int i = 0; i < n; ++i) {
    float s = rhs[i];
    for (int j = 0; j < i; ++j)
      s -= lower[i * n + j] * rhs[j];
    rhs[i] = s / lower[i * n + i];
  }
}
