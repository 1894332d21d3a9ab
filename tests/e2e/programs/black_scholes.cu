// Workload: Black-Scholes call and put prices in single precision for 1M options, with the
// Abramowitz-Stegun polynomial for the normal CDF, a grid-stride loop, checked against a CPU
// double-precision reference (max absolute error < 1e-3) and put-call parity.
//
// Structure for instrumentation: grid = 480 blocks x 128 threads (61440 threads), a grid-stride
// loop of ceil(1048576 / 61440) = 18 or 17 iterations per thread; the CND helper has one branch
// (d < 0) taken for roughly half the inputs.
#include "e2e_common.h"

#include <cmath>
#include <vector>

__device__ inline float cnd(float d) {
  const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f, a4 = -1.821255978f,
              a5 = 1.330274429f;
  const float rsqrt2pi = 0.39894228040143267794f;
  float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
  float c = rsqrt2pi * expf(-0.5f * d * d) * (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
  if (d > 0)
    c = 1.0f - c;
  return c;
}

__global__ void black_scholes(const float* S, const float* X, const float* T, float* call,
                              float* put, int n, float R, float V) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    float s = S[i], x = X[i], t = T[i];
    float sqrt_t = sqrtf(t);
    float d1 = (logf(s / x) + (R + 0.5f * V * V) * t) / (V * sqrt_t);
    float d2 = d1 - V * sqrt_t;
    float cnd1 = cnd(d1), cnd2 = cnd(d2);
    float exp_rt = expf(-R * t);
    call[i] = s * cnd1 - x * exp_rt * cnd2;
    put[i] = x * exp_rt * (1.0f - cnd2) - s * (1.0f - cnd1);
  }
}

static double cnd_ref(double d) {
  return 0.5 * std::erfc(-d / std::sqrt(2.0));
}

int main() {
  const int n = 1 << 20;
  const float R = 0.02f, V = 0.30f;
  std::vector<float> S(n), X(n), T(n), call(n), put(n);
  e2e::Rng rng(7);
  for (int i = 0; i < n; ++i) {
    S[i] = 5.0f + 25.0f * rng.unit();
    X[i] = 1.0f + 99.0f * rng.unit();
    T[i] = 0.25f + 9.75f * rng.unit();
  }
  float *dS, *dX, *dT, *dC, *dP;
  for (float** p : {&dS, &dX, &dT, &dC, &dP})
    CHECK(cudaMalloc(p, n * sizeof(float)));
  CHECK(cudaMemcpy(dS, S.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dX, X.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dT, T.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  black_scholes<<<480, 128>>>(dS, dX, dT, dC, dP, n, R, V);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(call.data(), dC, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(put.data(), dP, n * sizeof(float), cudaMemcpyDeviceToHost));

  double max_err = 0.0, max_parity = 0.0;
  for (int i = 0; i < n; ++i) {
    double s = S[i], x = X[i], t = T[i];
    double sq = V * std::sqrt(t);
    double d1 = (std::log(s / x) + (R + 0.5 * V * V) * t) / sq, d2 = d1 - sq;
    double c = s * cnd_ref(d1) - x * std::exp(-R * t) * cnd_ref(d2);
    double p = x * std::exp(-R * t) * cnd_ref(-d2) - s * cnd_ref(-d1);
    max_err = std::fmax(max_err, std::fmax(std::fabs(call[i] - c), std::fabs(put[i] - p)));
    // Put-call parity: C - P = S - X e^{-rT}
    max_parity = std::fmax(max_parity, std::fabs((call[i] - put[i]) - (s - x * std::exp(-R * t))));
  }
  std::printf("black-scholes: %d options, grid 480 x 128\n", n);
  e2e::expect(max_err < 1e-3, "max abs error vs double reference < 1e-3");
  e2e::expect(max_parity < 1e-3, "put-call parity within 1e-3");
  for (float* p : {dS, dX, dT, dC, dP})
    CHECK(cudaFree(p));
  return e2e::finish();
}
