// Indirect calls: device function pointers in tables and as parameters (call through a
// register with a .callprototype), virtual functions on objects constructed in device memory
// (vtables as .global initializers holding function addresses), and functors passed to a
// template kernel.
#include <cstdint>

typedef float (*UnaryOp)(float);
typedef int (*BinaryOp)(int, int);

__device__ float square(float x) {
  return x * x;
}
__device__ float negate(float x) {
  return -x;
}
__device__ float halve(float x) {
  return x * 0.5f;
}
__device__ int addInts(int a, int b) {
  return a + b;
}
__device__ int maxInts(int a, int b) {
  return a > b ? a : b;
}

// A table of function addresses: `.global .align 8 .u64 kUnaryOps[3] = {square, negate, halve}`.
__device__ UnaryOp kUnaryOps[3] = {square, negate, halve};
__device__ BinaryOp kBinaryOps[2] = {addInts, maxInts};

__global__ void tableDispatch(const float* in, float* out, const int* which, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    UnaryOp op = kUnaryOps[which[i] % 3];
    out[i] = op(in[i]);
  }
}

__device__ int foldWith(BinaryOp op, const int* values, int count) {
  int acc = values[0];
  for (int k = 1; k < count; ++k)
    acc = op(acc, values[k]);
  return acc;
}

__global__ void pointerArgument(const int* values, int count, int* out, int which) {
  out[threadIdx.x] = foldWith(kBinaryOps[which & 1], values + threadIdx.x * count, count);
}

// Virtual functions: objects must be constructed on the device so that their vtable pointers
// refer to device code.
struct Shape {
  __device__ virtual ~Shape() {}
  __device__ virtual float area() const = 0;
  __device__ virtual float scaled(float factor) const { return area() * factor; }
};

struct Circle : Shape {
  float r;
  __device__ explicit Circle(float radius) : r(radius) {}
  __device__ float area() const override { return 3.14159265f * r * r; }
};

struct Rectangle : Shape {
  float w, h;
  __device__ Rectangle(float width, float height) : w(width), h(height) {}
  __device__ float area() const override { return w * h; }
  __device__ float scaled(float factor) const override { return w * h * factor * factor; }
};

struct Square final : Rectangle {
  __device__ explicit Square(float side) : Rectangle(side, side) {}
  __device__ float area() const override { return w * w; }
};

__global__ void virtualCalls(const float* sizes, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  Shape* shape;
  switch (i % 3) {
  case 0:
    shape = new Circle(sizes[i]);
    break;
  case 1:
    shape = new Rectangle(sizes[i], sizes[i] + 1.0f);
    break;
  default:
    shape = new Square(sizes[i]);
    break;
  }
  if (shape == nullptr)
    return;
  out[i] = shape->area() + shape->scaled(2.0f);
  delete shape;
}

// Objects with virtual functions placed in shared memory via placement new.
__global__ void placementVirtual(const float* sizes, float* out) {
  __shared__ alignas(16) unsigned char storage[64][sizeof(Rectangle)];
  Shape* shape;
  if (threadIdx.x & 1)
    shape = new (storage[threadIdx.x & 63]) Circle(sizes[threadIdx.x]);
  else
    shape = new (storage[threadIdx.x & 63]) Rectangle(sizes[threadIdx.x], 2.0f);
  out[threadIdx.x] = shape->scaled(0.5f);
  shape->~Shape();
}

// A functor template: resolved statically, no indirect call.
template <class F> __global__ void applyFunctor(F f, float* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = f(data[i]);
}

struct Affine {
  float a, b;
  __device__ float operator()(float x) const { return a * x + b; }
};

template __global__ void applyFunctor<Affine>(Affine, float*, int);

// A function pointer passed as a kernel parameter (its value is taken on the host from a
// __device__ variable).
__global__ void pointerParameter(UnaryOp op, float* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = op(data[i]) + op(static_cast<float>(i));
}
