// The <<<>>> launch path (__cudaPushCallConfiguration / __cudaLaunchKernel): 1D, 2D and 3D grids
// and blocks, every built-in index variable, dynamic shared memory and stream arguments, template
// and overloaded kernels, and parameters of many types and alignments, including a by-value struct
// of 8000 bytes (over the old 4 KiB parameter limit; allowed since CUDA 12.1 on Volta and later).
#include "e2e_common.h"

#include <vector>

// Writes a linear id computed from all built-ins into the slot of the thread.
__global__ void ids_3d(unsigned* out) {
  unsigned bx = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  unsigned tx = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  unsigned threads = blockDim.x * blockDim.y * blockDim.z;
  unsigned gid = bx * threads + tx;
  out[gid] = (blockIdx.z << 24) | (blockIdx.y << 16) | (blockIdx.x << 8) | (threadIdx.z << 6) |
             (threadIdx.y << 3) | threadIdx.x;
}

template <typename T, int Scale> __global__ void scale_t(T* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = p[i] * static_cast<T>(Scale);
}

__global__ void overloaded(int* p) {
  *p = 1;
}
__global__ void overloaded(int* p, int v) {
  *p = v;
}

struct Mixed {
  char c;
  double d;
  short s;
  int arr[3];
};

__global__ void many_params(long long* out, char c, bool b, short s, int i, unsigned u,
                            long long ll, float f, double d, Mixed m, const int* ptr, float4 v4,
                            unsigned char uc) {
  out[0] = c;
  out[1] = b ? 1 : 0;
  out[2] = s;
  out[3] = i;
  out[4] = u;
  out[5] = ll;
  out[6] = static_cast<long long>(f * 4.0f);
  out[7] = static_cast<long long>(d * 8.0);
  out[8] = m.c + static_cast<long long>(m.d * 2.0) + m.s + m.arr[0] + m.arr[1] + m.arr[2];
  out[9] = ptr[0] + ptr[1];
  out[10] = static_cast<long long>(v4.x + v4.y + v4.z + v4.w);
  out[11] = uc;
}

struct Big {
  int values[2000]; // 8000 bytes
};

__global__ void big_param(Big big, long long* out) {
  __shared__ long long part[256];
  long long acc = 0;
  for (int k = threadIdx.x; k < 2000; k += blockDim.x)
    acc += big.values[k];
  part[threadIdx.x] = acc;
  __syncthreads();
  if (threadIdx.x == 0) {
    long long t = 0;
    for (int k = 0; k < blockDim.x; ++k)
      t += part[k];
    *out = t;
  }
}

__global__ void dyn_smem_reverse(const int* in, int* out) {
  extern __shared__ int buf[];
  int t = threadIdx.x;
  buf[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = buf[blockDim.x - 1 - t];
}

int main() {
  // 3D grid of 3D blocks.
  dim3 grid(5, 3, 2), block(8, 4, 2);
  unsigned total = grid.x * grid.y * grid.z * block.x * block.y * block.z;
  unsigned* d_ids = nullptr;
  CHECK(cudaMalloc(&d_ids, 4096 * sizeof(unsigned))); // room for the 2 x 2016 ids below too
  ids_3d<<<grid, block>>>(d_ids);
  CHECK_LAUNCH();
  std::vector<unsigned> ids(4096);
  CHECK(cudaMemcpy(ids.data(), d_ids, total * sizeof(unsigned), cudaMemcpyDeviceToHost));
  bool ok = true;
  unsigned gid = 0;
  for (unsigned bz = 0; bz < grid.z; ++bz)
    for (unsigned by = 0; by < grid.y; ++by)
      for (unsigned bx = 0; bx < grid.x; ++bx)
        for (unsigned tz = 0; tz < block.z; ++tz)
          for (unsigned ty = 0; ty < block.y; ++ty)
            for (unsigned tx = 0; tx < block.x; ++tx)
              ok = ok &&
                   ids[gid++] == ((bz << 24) | (by << 16) | (bx << 8) | (tz << 6) | (ty << 3) | tx);
  e2e::expect(ok, "3D grid x 3D block built-ins");
  std::printf("ids checksum: %016llx\n",
              (unsigned long long)e2e::fnv1a(ids.data(), total * sizeof(unsigned)));

  // 2D grid with a 1D block and a 1D grid with a 2D block, checked through the same kernel.
  ids_3d<<<dim3(7, 9), 32>>>(d_ids);
  CHECK_LAUNCH();
  ids_3d<<<63, dim3(4, 8)>>>(d_ids + 7 * 9 * 32);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(ids.data(), d_ids, 2 * 7 * 9 * 32 * sizeof(unsigned), cudaMemcpyDeviceToHost));
  std::printf("2D/1D mixes checksum: %016llx\n",
              (unsigned long long)e2e::fnv1a(ids.data(), 2 * 2016 * sizeof(unsigned)));

  // Templates and overloads.
  std::vector<int> hi(1000);
  std::vector<double> hd(1000);
  for (int i = 0; i < 1000; ++i) {
    hi[i] = i - 500;
    hd[i] = i * 0.5;
  }
  int* di = nullptr;
  double* dd = nullptr;
  CHECK(cudaMalloc(&di, 1000 * sizeof(int)));
  CHECK(cudaMalloc(&dd, 1000 * sizeof(double)));
  CHECK(cudaMemcpy(di, hi.data(), 1000 * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dd, hd.data(), 1000 * sizeof(double), cudaMemcpyHostToDevice));
  scale_t<int, 3><<<4, 256>>>(di, 1000);
  scale_t<double, -2><<<4, 256>>>(dd, 1000);
  CHECK_LAUNCH();
  std::vector<int> ri(1000);
  std::vector<double> rd(1000);
  CHECK(cudaMemcpy(ri.data(), di, 1000 * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(rd.data(), dd, 1000 * sizeof(double), cudaMemcpyDeviceToHost));
  ok = true;
  for (int i = 0; i < 1000; ++i)
    ok = ok && ri[i] == hi[i] * 3 && rd[i] == hd[i] * -2.0;
  e2e::expect(ok, "template kernels");
  int flag = 0;
  overloaded<<<1, 1>>>(di);
  CHECK(cudaMemcpy(&flag, di, sizeof flag, cudaMemcpyDeviceToHost));
  std::printf("overloaded(int*): %d\n", flag);
  overloaded<<<1, 1>>>(di, 77);
  CHECK(cudaMemcpy(&flag, di, sizeof flag, cudaMemcpyDeviceToHost));
  std::printf("overloaded(int*, int): %d\n", flag);

  // Parameters of many types.
  long long* dout = nullptr;
  CHECK(cudaMalloc(&dout, 12 * sizeof(long long)));
  int two[2] = {40, 2};
  CHECK(cudaMemcpy(di, two, sizeof two, cudaMemcpyHostToDevice));
  Mixed m{'x', 1.5, -7, {100, 200, 300}};
  many_params<<<1, 1>>>(dout, 'A', true, -12345, -2000000000, 4000000000u, -9000000000000LL, 2.25f,
                        -3.125, m, di, make_float4(1.0f, 2.0f, 3.0f, 4.5f), 250);
  CHECK_LAUNCH();
  long long out[12];
  CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
  std::printf("many_params:");
  for (long long v : out)
    std::printf(" %lld", v);
  std::printf("\n");
  const long long want[12] = {
      65, 1,  -12345, -2000000000, 4000000000LL, -9000000000000LL, 9, -25, 'x' + 3 - 7 + 600,
      42, 10, 250};
  e2e::expect(std::memcmp(out, want, sizeof want) == 0, "many parameter types");

  // An 8000-byte by-value parameter.
  Big big;
  long long want_big = 0;
  for (int k = 0; k < 2000; ++k) {
    big.values[k] = k * k % 1009 - 504;
    want_big += big.values[k];
  }
  big_param<<<1, 256>>>(big, dout);
  CHECK_LAUNCH();
  long long got_big = 0;
  CHECK(cudaMemcpy(&got_big, dout, sizeof got_big, cudaMemcpyDeviceToHost));
  std::printf("big parameter sum: %lld\n", got_big);
  e2e::expect(got_big == want_big, "8000-byte parameter");

  // Dynamic shared memory and a stream argument.
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  int* dout2 = nullptr;
  CHECK(cudaMalloc(&dout2, 1024 * sizeof(int)));
  CHECK(cudaMemcpy(di, hi.data(), 1000 * sizeof(int), cudaMemcpyHostToDevice));
  dyn_smem_reverse<<<4, 250, 250 * sizeof(int), s>>>(di, dout2);
  CHECK_LAUNCH();
  CHECK(cudaMemcpyAsync(ri.data(), dout2, 1000 * sizeof(int), cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  ok = true;
  for (int b = 0; b < 4; ++b)
    for (int t = 0; t < 250; ++t)
      ok = ok && ri[b * 250 + t] == hi[b * 250 + 249 - t];
  e2e::expect(ok, "dynamic shared memory on a stream");

  CHECK(cudaStreamDestroy(s));
  for (void* p : {static_cast<void*>(d_ids), static_cast<void*>(di), static_cast<void*>(dd),
                  static_cast<void*>(dout), static_cast<void*>(dout2)})
    CHECK(cudaFree(p));
  std::printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  return e2e::finish();
}
