// Templates: kernels and device functions instantiated for many types and constants (weak
// symbols under -G), variadic templates, template template parameters, constexpr-if,
// lambdas created in device code and passed to device function templates, CRTP, a generic
// block reduction over an operator, and kernel templates instantiated implicitly by host
// launches (`.weak .entry` under -G).
#include <cstdint>
#include <type_traits>

template <class T> struct Plus {
  __device__ T operator()(T a, T b) const { return a + b; }
  __host__ __device__ static constexpr T identity() { return T(0); }
};

template <class T> struct Max {
  __device__ T operator()(T a, T b) const { return a > b ? a : b; }
  __host__ __device__ static constexpr T identity() {
    return std::is_signed<T>::value ? T(-128) : T(0);
  }
};

template <class T, class Op, int BlockSize> __device__ T blockReduce(T value, Op op) {
  __shared__ T scratch[BlockSize];
  scratch[threadIdx.x] = value;
  __syncthreads();
  for (int stride = BlockSize / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride)
      scratch[threadIdx.x] = op(scratch[threadIdx.x], scratch[threadIdx.x + stride]);
    __syncthreads();
  }
  return scratch[0];
}

template <class T, template <class> class Op, int BlockSize>
__global__ void reduceKernel(const T* in, T* out, int n) {
  Op<T> op;
  T v = Op<T>::identity();
  for (int i = blockIdx.x * BlockSize + threadIdx.x; i < n; i += gridDim.x * BlockSize)
    v = op(v, in[i]);
  T r = blockReduce<T, Op<T>, BlockSize>(v, op);
  if (threadIdx.x == 0)
    out[blockIdx.x] = r;
}

template __global__ void reduceKernel<int, Plus, 128>(const int*, int*, int);
template __global__ void reduceKernel<int, Max, 256>(const int*, int*, int);
template __global__ void reduceKernel<float, Plus, 256>(const float*, float*, int);
template __global__ void reduceKernel<double, Plus, 64>(const double*, double*, int);
template __global__ void reduceKernel<unsigned char, Max, 128>(const unsigned char*, unsigned char*,
                                                               int);
template __global__ void reduceKernel<long long, Max, 32>(const long long*, long long*, int);

// constexpr-if selects code per type.
template <class T> __device__ T scaleValue(T v) {
  if constexpr (std::is_floating_point<T>::value)
    return v * T(0.5);
  else if constexpr (sizeof(T) == 8)
    return v >> 1;
  else
    return v / T(2);
}

template <class... Ts> __device__ auto sumAll(Ts... values) {
  return (values + ... + 0);
}

template <class T, int Unroll> __global__ void scaleKernel(T* data, int n) {
  int base = (blockIdx.x * blockDim.x + threadIdx.x) * Unroll;
#pragma unroll
  for (int k = 0; k < Unroll; ++k)
    if (base + k < n)
      data[base + k] = scaleValue(data[base + k]) + static_cast<T>(sumAll(k, 1, 2u, 3ll));
}

template __global__ void scaleKernel<float, 4>(float*, int);
template __global__ void scaleKernel<double, 2>(double*, int);
template __global__ void scaleKernel<int, 8>(int*, int);
template __global__ void scaleKernel<uint64_t, 1>(uint64_t*, int);
template __global__ void scaleKernel<short, 16>(short*, int);

// Lambdas: a kernel template that takes any callable (extended lambdas are instantiated from
// host code in real programs; here we use device lambdas created inside kernels).
template <class F> __device__ void forEachIndex(int n, F f) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    f(i);
}

__global__ void lambdas(float* data, int n, float bias) {
  auto add = [bias](float x) { return x + bias; };
  int touched = 0;
  forEachIndex(n, [&](int i) {
    data[i] = add(data[i]) * 2.0f;
    ++touched;
  });
  forEachIndex(n / 2, [=](int i) { data[i] -= static_cast<float>(touched); });
}

// CRTP: static polymorphism with inlined calls.
template <class Derived> struct Filter {
  __device__ float apply(float x) const { return static_cast<const Derived*>(this)->step(x) * 2; }
};
struct Clamp : Filter<Clamp> {
  float lo, hi;
  __device__ float step(float x) const { return x < lo ? lo : (x > hi ? hi : x); }
};
struct Quantize : Filter<Quantize> {
  float q;
  __device__ float step(float x) const { return floorf(x / q) * q; }
};

template <class F> __global__ void filterKernel(F filter, float* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = filter.apply(data[i]);
}

template __global__ void filterKernel<Clamp>(Clamp, float*, int);
template __global__ void filterKernel<Quantize>(Quantize, float*, int);

// A recursive template computing at compile time and a non-type template of a pointer.
template <int N> struct Factorial {
  static constexpr long long value = N * Factorial<N - 1>::value;
};
template <> struct Factorial<0> { static constexpr long long value = 1; };

__device__ int gTemplateTarget[4];

template <int* Target, int N> __global__ void writeConstant() {
  Target[threadIdx.x & 3] = static_cast<int>(Factorial<N>::value % 1000003);
}

template __global__ void writeConstant<gTemplateTarget, 10>();
template __global__ void writeConstant<gTemplateTarget, 15>();

// Implicit instantiations through host-side launches: these kernels become `.weak .entry`
// under -G and `.visible .entry` otherwise.
template <class T> __global__ void fillKernel(T* data, T value, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = value;
}

void launchFills(float* f, double* d, char* c, int n) {
  fillKernel<<<(n + 255) / 256, 256>>>(f, 1.0f, n);
  fillKernel<<<(n + 255) / 256, 256>>>(d, 2.0, n);
  fillKernel<<<(n + 255) / 256, 256>>>(c, 'x', n);
  filterKernel<<<1, 32>>>(Clamp{{}, 0.0f, 1.0f}, f, n);
}
