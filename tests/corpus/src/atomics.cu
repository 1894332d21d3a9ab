// Atomics of every width and flavour: 16/32/64-bit integer, float, double, half2, bfloat162,
// compare-and-swap (including 16-bit and 128-bit where the architecture has it), exchange,
// min/max/and/or/xor/inc/dec, the _block and _system scoped variants, cuda::atomic_ref with
// explicit memory orders and scopes, and red (atomics whose result is unused).
#include <cuda/atomic>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

__device__ unsigned long long gCounter64;
__device__ int gCounter32;

__global__ void integerAtomics(int* i32, unsigned* u32, unsigned long long* u64, long long* s64,
                               int* results) {
  int t = threadIdx.x;
  int r = 0;
  r += atomicAdd(&i32[0], t);
  r += atomicSub(&i32[1], t);
  r += atomicExch(&i32[2], t);
  r += atomicMin(&i32[3], -t);
  r += atomicMax(&i32[4], t);
  r += atomicAnd(&i32[5], ~t);
  r += atomicOr(&i32[6], 1 << (t & 31));
  r += atomicXor(&i32[7], t * 7);
  r += static_cast<int>(atomicInc(&u32[0], 100u));
  r += static_cast<int>(atomicDec(&u32[1], 100u));
  r += atomicCAS(&i32[8], t, t + 1);
  r += static_cast<int>(atomicAdd(&u64[0], 1ull));
  r += static_cast<int>(atomicCAS(&u64[1], 0ull, static_cast<unsigned long long>(t)));
  r += static_cast<int>(atomicExch(&u64[2], static_cast<unsigned long long>(t)));
  r += static_cast<int>(atomicMin(&s64[0], -static_cast<long long>(t)));
  r += static_cast<int>(atomicMax(&s64[1], static_cast<long long>(t)));
  r += static_cast<int>(atomicAnd(&u64[3], 0xFFFF0000FFFFull));
  r += static_cast<int>(atomicOr(&u64[4], 1ull << (t & 63)));
  r += static_cast<int>(atomicXor(&u64[5], 0x5555ull));
  results[blockIdx.x * blockDim.x + t] = r;
}

__global__ void floatAtomics(float* f, double* d, __half2* h2, __half* h, __nv_bfloat162* b2,
                             __nv_bfloat16* b) {
  float t = static_cast<float>(threadIdx.x);
  atomicAdd(&f[0], t * 0.5f);
  atomicExch(&f[1], t);
  atomicAdd(&d[0], static_cast<double>(t) * 0.25);
  atomicAdd(&h2[0], __floats2half2_rn(t, -t));
  atomicAdd(&h[0], __float2half(t));
  atomicAdd(&b2[0], __floats2bfloat162_rn(t, 1.0f));
  atomicAdd(&b[0], __float2bfloat16(t));
}

// 16-bit compare-and-swap (atom.cas.b16) exists from sm_70.
__global__ void shortCas(unsigned short* p, unsigned short* old) {
  unsigned short expected = static_cast<unsigned short>(threadIdx.x);
  old[threadIdx.x] = atomicCAS(p, expected, static_cast<unsigned short>(expected + 1));
}

// A CAS loop building an atomic multiply, which has no hardware instruction.
__device__ float atomicMul(float* address, float factor) {
  unsigned* word = reinterpret_cast<unsigned*>(address);
  unsigned old = *word, assumed;
  do {
    assumed = old;
    old = atomicCAS(word, assumed, __float_as_uint(__uint_as_float(assumed) * factor));
  } while (assumed != old);
  return __uint_as_float(old);
}

__global__ void casLoop(float* p, float factor) {
  atomicMul(p, factor);
}

// Scoped atomics: .cta and .sys variants.
__global__ void scopedAtomics(int* blockShared, int* systemShared, unsigned long long* sys64,
                              float* sysFloat) {
  atomicAdd_block(&blockShared[0], 1);
  atomicCAS_block(&blockShared[1], 0, 1);
  atomicMax_block(&blockShared[2], static_cast<int>(threadIdx.x));
  atomicExch_block(&blockShared[3], 5);
  atomicAdd_system(&systemShared[0], 1);
  atomicCAS_system(&systemShared[1], 0, static_cast<int>(threadIdx.x));
  atomicOr_system(&systemShared[2], 4);
  atomicAdd_system(sys64, 2ull);
  atomicAdd_system(sysFloat, 1.5f);
  atomicInc_system(reinterpret_cast<unsigned*>(&systemShared[3]), 10u);
}

// cuda::atomic_ref with explicit orders and scopes: ld.acquire, st.release, atom.acq_rel...
__global__ void atomicRefOrders(int* data, unsigned long long* wide, int* out) {
  cuda::atomic_ref<int, cuda::thread_scope_device> dev(data[0]);
  cuda::atomic_ref<int, cuda::thread_scope_block> blk(data[1]);
  cuda::atomic_ref<int, cuda::thread_scope_system> sys(data[2]);
  cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> w(*wide);
  int a = dev.fetch_add(1, cuda::memory_order_relaxed);
  int b = blk.fetch_or(2, cuda::memory_order_acq_rel);
  int c = sys.load(cuda::memory_order_acquire);
  sys.store(c + 1, cuda::memory_order_release);
  int expected = a;
  dev.compare_exchange_strong(expected, b, cuda::memory_order_seq_cst);
  unsigned long long old = w.fetch_max(threadIdx.x, cuda::memory_order_release);
  int e = blk.exchange(3, cuda::memory_order_acquire);
  out[threadIdx.x] = a + b + c + expected + static_cast<int>(old) + e;
}

// Atomics on shared memory (atom.shared) and on globals by name.
__global__ void sharedAtomics(const int* keys, int n, int* out) {
  __shared__ int bins[32];
  __shared__ unsigned long long wideBin;
  if (threadIdx.x < 32)
    bins[threadIdx.x] = 0;
  if (threadIdx.x == 0)
    wideBin = 0;
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    atomicAdd(&bins[keys[i] & 31], 1);
    atomicAdd(&wideBin, static_cast<unsigned long long>(keys[i]));
    atomicMin(&bins[(keys[i] >> 5) & 31], keys[i]);
  }
  __syncthreads();
  if (threadIdx.x < 32)
    out[threadIdx.x] = bins[threadIdx.x];
  if (threadIdx.x == 0) {
    atomicAdd(&gCounter64, wideBin);
    atomicAdd(&gCounter32, 1);
  }
}

// 128-bit atomics (atom.cas.b128 / atom.exch.b128, PTX 8.3) need sm_90; the .b128 registers
// live in their own inline-asm scope.
struct alignas(16) Pair128 {
  unsigned long long lo, hi;
};

__global__ void wideAtomics(Pair128* slot, Pair128* previous) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  Pair128 old;
  asm volatile("{\n\t"
               ".reg .b128 cmp, swp, dst;\n\t"
               "mov.b128 cmp, {%2, %3};\n\t"
               "mov.b128 swp, {%4, %5};\n\t"
               "atom.global.cas.b128 dst, [%6], cmp, swp;\n\t"
               "mov.b128 {%0, %1}, dst;\n\t"
               "}"
               : "=l"(old.lo), "=l"(old.hi)
               : "l"(0ull), "l"(0ull), "l"(static_cast<unsigned long long>(threadIdx.x)),
                 "l"(static_cast<unsigned long long>(blockIdx.x)), "l"(slot)
               : "memory");
  asm volatile("{\n\t"
               ".reg .b128 val, dst;\n\t"
               "mov.b128 val, {%2, %3};\n\t"
               "atom.global.exch.b128 dst, [%4], val;\n\t"
               "mov.b128 {%0, %1}, dst;\n\t"
               "}"
               : "=l"(old.lo), "=l"(old.hi)
               : "l"(old.hi), "l"(old.lo), "l"(slot + 1)
               : "memory");
  previous[threadIdx.x] = old;
#else
  previous[threadIdx.x] = *slot;
#endif
}
