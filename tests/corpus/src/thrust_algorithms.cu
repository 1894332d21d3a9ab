// Thrust: sort (radix for ints, merge sort with a custom comparator), inclusive/exclusive
// scan, reduce, transform and transform_reduce with functors. The generated PTX is large,
// template-heavy and full of CUB's tuned kernels.
#include <thrust/device_ptr.h>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>

struct Saxpy {
  float a;
  __host__ __device__ float operator()(float x, float y) const { return a * x + y; }
};

struct Square {
  __host__ __device__ double operator()(double x) const { return x * x; }
};

struct DescendingMagnitude {
  __host__ __device__ bool operator()(float l, float r) const { return fabsf(l) > fabsf(r); }
};

void thrustPipeline(int* keys, float* x, float* y, double* d, int n, float* outSum,
                    double* outNorm) {
  thrust::device_ptr<int> k(keys);
  thrust::device_ptr<float> px(x), py(y);
  thrust::device_ptr<double> pd(d);
  thrust::sort(thrust::device, k, k + n);
  thrust::sort(thrust::device, px, px + n, DescendingMagnitude());
  thrust::inclusive_scan(thrust::device, k, k + n, k);
  thrust::exclusive_scan(thrust::device, py, py + n, py, 0.0f);
  thrust::transform(thrust::device, px, px + n, py, py, Saxpy{2.0f});
  *outSum = thrust::reduce(thrust::device, py, py + n, 0.0f, thrust::plus<float>());
  *outNorm =
      thrust::transform_reduce(thrust::device, pd, pd + n, Square(), 0.0, thrust::plus<double>());
}
