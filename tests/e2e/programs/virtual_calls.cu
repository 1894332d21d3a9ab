// Virtual functions across kernels and launches: objects made with device-side `new` in one
// kernel, their virtual methods called by other kernels over several launches, deleted through a
// virtual destructor by another. A virtual method that itself makes a virtual call and a
// non-virtual method that calls a virtual one cover indirect calls inside device functions. Under
// instrumentation every launch must compute exactly what it computes without (issue #14, bug 3:
// the vtables hold the application module's function addresses).
#include "e2e_common.h"

#include <vector>

struct Shape {
  __device__ virtual long long area() const = 0;
  __device__ virtual int sides() const = 0;
  // Non-virtual, calls virtual methods: an indirect call inside a device function.
  __device__ long long weighted() const { return area() * sides(); }
  __device__ virtual ~Shape() {}
};

struct Rect : Shape {
  int w, h;
  __device__ Rect(int a, int b) : w(a), h(b) {}
  __device__ long long area() const override { return static_cast<long long>(w) * h; }
  __device__ int sides() const override { return 4; }
};

struct Square : Shape {
  int s;
  __device__ explicit Square(int a) : s(a) {}
  __device__ long long area() const override { return static_cast<long long>(s) * s; }
  __device__ int sides() const override { return 4; }
};

struct Triangle : Shape {
  int b, h;
  __device__ Triangle(int base, int height) : b(base), h(height) {}
  __device__ long long area() const override { return static_cast<long long>(b) * h / 2; }
  __device__ int sides() const override { return 3; }
};

// A virtual method that makes a virtual call on another object (the inner shape).
struct Framed : Shape {
  Shape* inner;
  int border;
  __device__ Framed(Shape* s, int b) : inner(s), border(b) {}
  __device__ long long area() const override { return inner->area() + border; }
  __device__ int sides() const override { return inner->sides(); }
  __device__ ~Framed() override { delete inner; }
};

__device__ unsigned int g_destroyed = 0;

struct Counted : Square {
  __device__ explicit Counted(int a) : Square(a) {}
  __device__ ~Counted() override { atomicAdd(&g_destroyed, 1u); }
};

__host__ __device__ int kind_of(int i) {
  return i % 5;
}

__global__ void make(Shape** objs, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  Shape* s = nullptr;
  switch (kind_of(i)) {
  case 0:
    s = new Rect(i % 97, 3);
    break;
  case 1:
    s = new Square(i % 31);
    break;
  case 2:
    s = new Triangle(i % 13 + 1, 6);
    break;
  case 3:
    s = new Framed(new Rect(i % 7 + 1, 2), i % 5);
    break;
  default:
    s = new Counted(i % 11);
    break;
  }
  objs[i] = s;
}

__global__ void use(Shape* const* objs, int n, unsigned long long* total) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && objs[i] != nullptr)
    atomicAdd(total, static_cast<unsigned long long>(objs[i]->area()));
}

__global__ void use_weighted(Shape* const* objs, int n, long long* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = objs[i] != nullptr ? objs[i]->weighted() : -1;
}

__global__ void destroy(Shape** objs, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    delete objs[i];
    objs[i] = nullptr;
  }
}

static long long host_area(int i) {
  switch (kind_of(i)) {
  case 0:
    return static_cast<long long>(i % 97) * 3;
  case 1:
    return static_cast<long long>(i % 31) * (i % 31);
  case 2:
    return static_cast<long long>(i % 13 + 1) * 6 / 2;
  case 3:
    return static_cast<long long>(i % 7 + 1) * 2 + i % 5;
  default:
    return static_cast<long long>(i % 11) * (i % 11);
  }
}

static int host_sides(int i) {
  return kind_of(i) == 2 ? 3 : 4;
}

int main() {
  const int n = 2048, threads = 128, blocks = n / threads;
  Shape** objs = nullptr;
  unsigned long long* total = nullptr;
  long long* weighted = nullptr;
  CHECK(cudaMalloc(&objs, n * sizeof(Shape*)));
  CHECK(cudaMalloc(&total, sizeof(unsigned long long)));
  CHECK(cudaMalloc(&weighted, n * sizeof(long long)));

  unsigned long long expect_total = 0;
  std::vector<long long> expect_weighted(n);
  for (int i = 0; i < n; ++i) {
    expect_total += static_cast<unsigned long long>(host_area(i));
    expect_weighted[i] = host_area(i) * host_sides(i);
  }
  int counted = 0;
  for (int i = 0; i < n; ++i)
    counted += kind_of(i) == 4;

  // Two rounds: objects made, used over three launches, then destroyed; the second round makes
  // new objects in the memory the first freed.
  for (int round = 0; round < 2; ++round) {
    make<<<blocks, threads>>>(objs, n);
    CHECK_LAUNCH();
    bool same = true;
    for (int launch = 0; launch < 3; ++launch) {
      CHECK(cudaMemset(total, 0, sizeof(unsigned long long)));
      use<<<blocks, threads>>>(objs, n, total);
      CHECK_LAUNCH();
      unsigned long long got = 0;
      CHECK(cudaMemcpy(&got, total, sizeof got, cudaMemcpyDeviceToHost));
      same = same && got == expect_total;
      if (round == 0 && launch == 0)
        std::printf("virtual area total %llu (expected %llu)\n", got, expect_total);
    }
    e2e::expect(same, round == 0 ? "virtual calls, round 1, three launches"
                                 : "virtual calls, round 2, three launches");
    use_weighted<<<blocks, threads>>>(objs, n, weighted);
    CHECK_LAUNCH();
    std::vector<long long> got(n);
    CHECK(cudaMemcpy(got.data(), weighted, n * sizeof(long long), cudaMemcpyDeviceToHost));
    e2e::expect(got == expect_weighted, round == 0
                                            ? "virtual calls inside a device function, round 1"
                                            : "virtual calls inside a device function, round 2");
    destroy<<<blocks, threads>>>(objs, n);
    CHECK_LAUNCH();
    CHECK(cudaDeviceSynchronize());
    unsigned int destroyed = 0;
    CHECK(cudaMemcpyFromSymbol(&destroyed, g_destroyed, sizeof destroyed));
    std::printf("virtual destructors run so far: %u\n", destroyed);
    e2e::expect(destroyed == static_cast<unsigned int>(counted * (round + 1)),
                "virtual destructors ran once per object");
  }
  CHECK(cudaFree(objs));
  CHECK(cudaFree(total));
  CHECK(cudaFree(weighted));
  return e2e::finish();
}
