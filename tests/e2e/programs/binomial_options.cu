// Workload: European call options priced with a Cox-Ross-Rubinstein binomial tree, one option per
// block, the tree level held in shared memory (double buffered), 1024 time steps (so 1024
// __syncthreads-separated backward steps per block). Checked against a CPU tree in double precision
// and, loosely, against the Black-Scholes closed form.
//
// Structure for instrumentation: grid = 128 blocks (options) x 256 threads; each thread owns
// ceil(1025/256) = 5 (or 4) leaves; the backward loop runs 1024 iterations per block.
#include "e2e_common.h"

#include <cmath>
#include <vector>

constexpr int kSteps = 1024;
constexpr int kThreads = 256;

struct Option {
  double S, X, T, R, V;
};

__global__ void binomial(const Option* opts, double* prices) {
  __shared__ double a[kSteps + 1];
  __shared__ double b[kSteps + 1];
  const Option o = opts[blockIdx.x];
  const double dt = o.T / kSteps;
  const double u = exp(o.V * sqrt(dt));
  const double d = 1.0 / u;
  const double growth = exp(o.R * dt);
  const double pu = (growth - d) / (u - d);
  const double pd = 1.0 - pu;
  const double disc = 1.0 / growth;
  for (int i = threadIdx.x; i <= kSteps; i += blockDim.x) {
    double st = o.S * pow(u, 2.0 * i - kSteps);
    a[i] = st > o.X ? st - o.X : 0.0;
  }
  __syncthreads();
  double* cur = a;
  double* nxt = b;
  for (int n = kSteps; n > 0; --n) {
    for (int i = threadIdx.x; i < n; i += blockDim.x)
      nxt[i] = disc * (pu * cur[i + 1] + pd * cur[i]);
    __syncthreads();
    double* t = cur;
    cur = nxt;
    nxt = t;
  }
  if (threadIdx.x == 0)
    prices[blockIdx.x] = cur[0];
}

static double cpu_binomial(const Option& o) {
  std::vector<double> v(kSteps + 1);
  double dt = o.T / kSteps, u = std::exp(o.V * std::sqrt(dt)), d = 1.0 / u,
         growth = std::exp(o.R * dt);
  double pu = (growth - d) / (u - d), pd = 1.0 - pu, disc = 1.0 / growth;
  for (int i = 0; i <= kSteps; ++i) {
    double st = o.S * std::pow(u, 2.0 * i - kSteps);
    v[i] = st > o.X ? st - o.X : 0.0;
  }
  for (int n = kSteps; n > 0; --n)
    for (int i = 0; i < n; ++i)
      v[i] = disc * (pu * v[i + 1] + pd * v[i]);
  return v[0];
}

static double black_scholes_call(const Option& o) {
  double sq = o.V * std::sqrt(o.T);
  double d1 = (std::log(o.S / o.X) + (o.R + 0.5 * o.V * o.V) * o.T) / sq;
  double d2 = d1 - sq;
  auto cnd = [](double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); };
  return o.S * cnd(d1) - o.X * std::exp(-o.R * o.T) * cnd(d2);
}

int main() {
  const int n = static_cast<int>(e2e::scaled(128, 4));
  std::vector<Option> opts(n);
  e2e::Rng rng(2024);
  for (int i = 0; i < n; ++i) {
    opts[i].S = 5.0 + 25.0 * rng.unit();
    opts[i].X = 1.0 + 99.0 * rng.unit();
    opts[i].T = 0.25 + 9.75 * rng.unit();
    opts[i].R = 0.02;
    opts[i].V = 0.30;
  }
  Option* d_opts = nullptr;
  double* d_prices = nullptr;
  CHECK(cudaMalloc(&d_opts, n * sizeof(Option)));
  CHECK(cudaMalloc(&d_prices, n * sizeof(double)));
  CHECK(cudaMemcpy(d_opts, opts.data(), n * sizeof(Option), cudaMemcpyHostToDevice));
  binomial<<<n, kThreads>>>(d_opts, d_prices);
  CHECK_LAUNCH();
  std::vector<double> prices(n);
  CHECK(cudaMemcpy(prices.data(), d_prices, n * sizeof(double), cudaMemcpyDeviceToHost));

  bool tree_ok = true, bs_ok = true;
  for (int i = 0; i < n; ++i) {
    tree_ok = tree_ok && e2e::close(prices[i], cpu_binomial(opts[i]), 1e-9, 1e-9);
    bs_ok = bs_ok && e2e::close(prices[i], black_scholes_call(opts[i]), 0.0, 0.05);
  }
  std::printf("binomial options: %d options, %d steps, %d threads per block\n", n, kSteps,
              kThreads);
  e2e::expect(tree_ok, "GPU tree matches CPU tree (rel 1e-9)");
  e2e::expect(bs_ok, "tree within 0.05 of Black-Scholes");
  CHECK(cudaFree(d_opts));
  CHECK(cudaFree(d_prices));
  return e2e::finish();
}
