// Atomic operations whose final results do not depend on execution order: atomicAdd on int,
// unsigned, unsigned long long, float and double (integer-valued floats, so every partial sum is
// exact), atomicSub, atomicMin/Max (signed and unsigned 64-bit), atomicAnd/Or/Xor, atomicInc/Dec
// with wrap-around, atomicCAS (a per-block spin lock protecting a non-atomic update),
// atomicExch (counted through a permutation), block- and system-scoped variants
// (atomicAdd_block on shared memory, atomicAdd_system on managed memory), and libcu++
// cuda::atomic_ref with device scope.
#include "e2e_common.h"

#include <cuda/atomic>

#include <vector>

struct Totals {
  int add_i;
  unsigned add_u;
  unsigned long long add_ull;
  float add_f;
  double add_d;
  int sub_i;
  int min_i;
  int max_i;
  long long min_ll;
  unsigned long long max_ull;
  unsigned and_u;
  unsigned or_u;
  unsigned xor_u;
  unsigned inc_u;
  unsigned dec_u;
  int locked_sum; // updated non-atomically under a spin lock
  int lock;
  int ref_sum;    // cuda::atomic_ref
  int block_sums; // sum of per-block shared-memory totals
};

__global__ void atomics(const int* in, int n, Totals* t, int* exch_slots, unsigned* seen) {
  __shared__ int block_total;
  if (threadIdx.x == 0)
    block_total = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int v = in[i];
    atomicAdd(&t->add_i, v);
    atomicAdd(&t->add_u, static_cast<unsigned>(v & 0xff));
    atomicAdd(&t->add_ull, static_cast<unsigned long long>(v & 0xfff) << 20);
    atomicAdd(&t->add_f, static_cast<float>(v % 16));
    atomicAdd(&t->add_d, static_cast<double>(v));
    atomicSub(&t->sub_i, v);
    atomicMin(&t->min_i, v);
    atomicMax(&t->max_i, v);
    atomicMin(&t->min_ll, static_cast<long long>(v) * 1000003LL);
    atomicMax(&t->max_ull, static_cast<unsigned long long>(v & 0x7fffffff) * 77ull);
    atomicAnd(&t->and_u, ~(1u << (i % 32)) | static_cast<unsigned>(i % 3 != 0));
    atomicOr(&t->or_u, 1u << (v & 31));
    atomicXor(&t->xor_u, static_cast<unsigned>(v));
    atomicInc(&t->inc_u, 999u); // wraps to 0 after reaching 999
    atomicDec(&t->dec_u, 499u); // wraps to 499 after reaching 0
    // Every thread exchanges its index into slot (i * 7919) % n; each slot is written once, so the
    // final contents are fixed, and the old values returned are the initial -1.
    int old = atomicExch(&exch_slots[(static_cast<long long>(i) * 7919) % n], i);
    if (old == -1)
      atomicAdd(seen, 1u);
    cuda::atomic_ref<int, cuda::thread_scope_device> ref(t->ref_sum);
    ref.fetch_add(v & 0x3f, cuda::std::memory_order_relaxed);
    atomicAdd_block(&block_total, v & 0xf);
  }
  __syncthreads();
  if (threadIdx.x == 0)
    atomicAdd(&t->block_sums, block_total);
  // Spin lock per grid: only lane 0 of each warp takes it, so no intra-warp lock contention.
  if ((threadIdx.x & 31) == 0 && i < n) {
    while (atomicCAS(&t->lock, 0, 1) != 0) {
    }
    __threadfence();
    int current = *reinterpret_cast<volatile int*>(&t->locked_sum);
    *reinterpret_cast<volatile int*>(&t->locked_sum) = current + (in[i] & 0x7);
    __threadfence();
    atomicExch(&t->lock, 0);
  }
}

__global__ void system_add(unsigned long long* counter, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd_system(counter, static_cast<unsigned long long>(i));
}

int main() {
  const int n = 1 << 18;
  std::vector<int> in(n);
  e2e::Rng rng(8);
  for (int i = 0; i < n; ++i)
    in[i] = rng.range(-100000, 100000);
  Totals init = {};
  init.min_i = 0x7fffffff;
  init.max_i = -0x7fffffff - 1;
  init.min_ll = 0x7fffffffffffffffLL;
  init.max_ull = 0;
  init.and_u = 0xffffffffu;
  init.dec_u = 0;
  Totals want = init;
  for (int i = 0; i < n; ++i) {
    int v = in[i];
    want.add_i += v;
    want.add_u += static_cast<unsigned>(v & 0xff);
    want.add_ull += static_cast<unsigned long long>(v & 0xfff) << 20;
    want.add_f += static_cast<float>(v % 16);
    want.add_d += v;
    want.sub_i -= v;
    want.min_i = v < want.min_i ? v : want.min_i;
    want.max_i = v > want.max_i ? v : want.max_i;
    long long m = static_cast<long long>(v) * 1000003LL;
    want.min_ll = m < want.min_ll ? m : want.min_ll;
    unsigned long long mu = static_cast<unsigned long long>(v & 0x7fffffff) * 77ull;
    want.max_ull = mu > want.max_ull ? mu : want.max_ull;
    want.and_u &= ~(1u << (i % 32)) | static_cast<unsigned>(i % 3 != 0);
    want.or_u |= 1u << (v & 31);
    want.xor_u ^= static_cast<unsigned>(v);
    want.inc_u = want.inc_u >= 999u ? 0 : want.inc_u + 1;
    want.dec_u = (want.dec_u == 0 || want.dec_u > 499u) ? 499u : want.dec_u - 1;
    want.ref_sum += v & 0x3f;
    want.block_sums += v & 0xf;
    if (i % 32 == 0)
      want.locked_sum += v & 0x7;
  }

  int* din = nullptr;
  Totals* dt = nullptr;
  int* slots = nullptr;
  unsigned* seen = nullptr;
  CHECK(cudaMalloc(&din, n * sizeof(int)));
  CHECK(cudaMalloc(&dt, sizeof(Totals)));
  CHECK(cudaMalloc(&slots, n * sizeof(int)));
  CHECK(cudaMalloc(&seen, sizeof(unsigned)));
  CHECK(cudaMemcpy(din, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dt, &init, sizeof init, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(slots, 0xff, n * sizeof(int)));
  CHECK(cudaMemset(seen, 0, sizeof(unsigned)));
  atomics<<<n / 256, 256>>>(din, n, dt, slots, seen);
  CHECK_LAUNCH();
  Totals got;
  CHECK(cudaMemcpy(&got, dt, sizeof got, cudaMemcpyDeviceToHost));
  std::vector<int> hs(n);
  CHECK(cudaMemcpy(hs.data(), slots, n * sizeof(int), cudaMemcpyDeviceToHost));
  unsigned hseen = 0;
  CHECK(cudaMemcpy(&hseen, seen, sizeof hseen, cudaMemcpyDeviceToHost));

  std::printf("add: int %d unsigned %u ull %llu float %.1f double %.1f\n", got.add_i, got.add_u,
              got.add_ull, got.add_f, got.add_d);
  std::printf("sub %d min %d max %d min64 %lld max64 %llu\n", got.sub_i, got.min_i, got.max_i,
              got.min_ll, got.max_ull);
  std::printf("and %08x or %08x xor %08x inc %u dec %u\n", got.and_u, got.or_u, got.xor_u,
              got.inc_u, got.dec_u);
  std::printf("locked %d atomic_ref %d block sums %d exch first-writes %u\n", got.locked_sum,
              got.ref_sum, got.block_sums, hseen);
  e2e::expect(got.add_i == want.add_i && got.add_u == want.add_u && got.add_ull == want.add_ull,
              "integer atomicAdd");
  e2e::expect(got.add_f == want.add_f && got.add_d == want.add_d,
              "float/double atomicAdd of integer values");
  e2e::expect(got.sub_i == want.sub_i, "atomicSub");
  e2e::expect(got.min_i == want.min_i && got.max_i == want.max_i && got.min_ll == want.min_ll &&
                  got.max_ull == want.max_ull,
              "atomicMin/Max");
  e2e::expect(got.and_u == want.and_u && got.or_u == want.or_u && got.xor_u == want.xor_u,
              "atomicAnd/Or/Xor");
  e2e::expect(got.inc_u == want.inc_u && got.dec_u == want.dec_u, "atomicInc/Dec wrap-around");
  e2e::expect(got.locked_sum == want.locked_sum && got.lock == 0, "atomicCAS spin lock");
  e2e::expect(got.ref_sum == want.ref_sum, "cuda::atomic_ref fetch_add");
  e2e::expect(got.block_sums == want.block_sums, "atomicAdd_block in shared memory");
  bool exch_ok = hseen == static_cast<unsigned>(n);
  for (int i = 0; i < n; ++i)
    exch_ok = exch_ok && hs[(static_cast<long long>(i) * 7919) % n] == i;
  e2e::expect(exch_ok, "atomicExch permutation");

  unsigned long long* counter = nullptr;
  CHECK(cudaMallocManaged(&counter, sizeof *counter));
  *counter = 5;
  system_add<<<64, 256>>>(counter, 64 * 256);
  CHECK_LAUNCH();
  CHECK(cudaDeviceSynchronize());
  std::printf("atomicAdd_system on managed memory: %llu\n", *counter);
  e2e::expect(*counter == 5ull + 16384ull * 16383ull / 2, "atomicAdd_system");

  CHECK(cudaFree(counter));
  CHECK(cudaFree(din));
  CHECK(cudaFree(dt));
  CHECK(cudaFree(slots));
  CHECK(cudaFree(seen));
  return e2e::finish();
}
