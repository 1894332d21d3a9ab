// The paper's Experiment 4 (seeds/004): an online credit-based scheduler that gives two workloads
// of different size an equal share of GPU time, using only what Ocelot's profiles tell it.
//
//   build: nvcc -cudart shared -std=c++20 -I<ocelot source> credit_scheduler.cu
//          -L<dir of Ocelot's libcudart.so.13> -lcudart
//   run:   LD_LIBRARY_PATH=<that dir> ./credit_scheduler [--small] [--period-ms P] [--window-ms W]
//          [--windows U,S] [--tolerance T] [--tsv FILE]      (OCELOT_DEVICE=cpu without a GPU)
//
// Two workloads multiply matrices, B's about four times as much work as A's (the paper's two
// applications). A dispatcher thread stands in for the hypervisor: it launches each workload
// periodically, never synchronizing. Both share one stream, as two processes time-share a GPU
// without MPS: kernels never overlap, so a kernel's CTA span is GPU time only it used. The
// ctaclock instrumentor measures that span (%globaltimer, first CTA start to last CTA end) and the
// profiles reach the scheduler through a subscription as each kernel finishes.
//
// Phase 1, unscheduled: both launch every P ms; B gets ~80% of the GPU time. Phase 2, scheduled:
// every window of W ms each workload earns half the GPU-time budget as credit (the budget is what
// both used per window in phase 1), pays for the GPU time its kernels used (the balance is capped
// at one window's earnings either way), and gets the launch rate that its earnings plus a quarter
// of its balance buy at its measured cost per launch. Both start again at period P with no
// history, so the start-up transient shows. Exit 0 when the scheduled shares of the last half of
// the windows are within the tolerance of 50% (and B dominated phase 1), 1 otherwise.

#include "ocelot/ocelot.h"
#include "tools/online/CudaCheck.h"
#include "tools/online/TiledMultiply.cuh"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using ocelot::online::kTile;

// One kernel per workload, so that a profile names its workload.
__global__ void workload_a(const float* a, const float* b, float* c, int n) {
  ocelot::online::multiplyTiled(a, b, c, n);
}
__global__ void workload_b(const float* a, const float* b, float* c, int n) {
  ocelot::online::multiplyTiled(a, b, c, n);
}

__global__ void fill_matrix(float* p, size_t n, float value) {
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x)
    p[i] = value * float(1 + i % 5);
}

namespace {

using Clock = std::chrono::steady_clock;


struct Options {
  bool small = false;
  double periodMs = 0, windowMs = 0; // 0: from the calibration
  int unscheduledWindows = 10, scheduledWindows = 20;
  double tolerance = 0.10;
  std::string tsv;
};

struct Workload {
  const char* name;
  void (*kernel)(const float*, const float*, float*, int);
  int n = 0;
  float *a = nullptr, *b = nullptr, *c = nullptr;

  void setup() {
    const size_t elements = size_t(n) * n;
    for (float** p : {&a, &b, &c})
      CHECK(cudaMalloc(p, elements * sizeof(float)));
    fill_matrix<<<64, 256>>>(a, elements, 0.5f);
    fill_matrix<<<64, 256>>>(b, elements, 0.25f);
    CHECK(cudaGetLastError());
  }
  void launch(cudaStream_t stream) const {
    const dim3 grid((n + kTile - 1) / kTile, (n + kTile - 1) / kTile), block(kTile, kTile);
    kernel<<<grid, block, 0, stream>>>(a, b, c, n);
  }
  void release() {
    for (float* p : {a, b, c})
      cudaFree(p);
  }
};

// GPU time delivered by the profiles since the last take(), per workload. Filled on Ocelot's
// profile thread, read by the dispatcher at the end of each window.
struct Delivered {
  double gpuMs[2] = {0, 0};
  int profiles[2] = {0, 0};
};

std::mutex gMutex;
Delivered gDelivered;
std::vector<std::string> gProblems;

void onProfile(const std::shared_ptr<const ocelot::KernelProfile>& p) {
  const std::string& name = p->kernelName();
  const int w = name.find("workload_a") != std::string::npos   ? 0
                : name.find("workload_b") != std::string::npos ? 1
                                                               : -1;
  std::lock_guard lock(gMutex);
  if (w < 0)
    return; // data initialization
  const auto* clock = p->result<ocelot::CtaClockTimes>();
  if (!p->instrumented() || clock == nullptr || !clock->complete()) {
    if (gProblems.size() < 5)
      gProblems.push_back(p->demangledName() + ": " +
                          (!p->instrumented() ? "ran uninstrumented"
                           : clock == nullptr ? "no CTA clocks"
                                              : clock->problems().front()));
    return;
  }
  const double ms = double(clock->kernelNs()) * 1e-6;
  gDelivered.gpuMs[w] += ms;
  ++gDelivered.profiles[w];
}

Delivered take() {
  std::lock_guard lock(gMutex);
  Delivered d = gDelivered;
  gDelivered = {};
  return d;
}

struct WindowRow {
  std::string phase;
  int window = 0;
  double endMs = 0;
  int launches[2] = {0, 0};
  double gpuMs[2] = {0, 0}, periodMs[2] = {0, 0}, creditMs[2] = {0, 0};
  double share(int w) const {
    const double total = gpuMs[0] + gpuMs[1];
    return total > 0 ? gpuMs[w] / total : 0;
  }
};

// The credit scheduler's state for one workload.
struct Account {
  double periodMs = 0;
  double costMs = 0;   // measured GPU time per launch (moving average); 0: no history yet
  double creditMs = 0; // earned minus used GPU time, capped at one window's earnings either way
};

// Runs one phase: the dispatcher launches each workload on its period; at each window's end the
// delivered GPU time is recorded and, when scheduling, the accounts set the next periods.
std::vector<WindowRow> runPhase(const char* phase, bool scheduled, int windows, double periodMs,
                                double windowMs, double budgetMs, const Workload (&work)[2],
                                cudaStream_t stream) {
  Account account[2];
  for (Account& a : account)
    a.periodMs = periodMs;
  ocelot::flushProfiles();
  take(); // nothing from before the phase counts
  std::vector<WindowRow> rows;
  const auto start = Clock::now();
  auto at = [&](double ms) {
    return start + std::chrono::duration_cast<Clock::duration>(
                       std::chrono::duration<double, std::milli>(ms));
  };
  double next[2] = {0, periodMs / 2}; // staggered, as independent applications would be
  for (int window = 1; window <= windows; ++window) {
    const double end = window * windowMs;
    WindowRow row;
    row.phase = phase;
    row.window = window;
    row.endMs = end;
    for (int w = 0; w < 2; ++w)
      row.periodMs[w] = account[w].periodMs;
    for (;;) {
      const int w = next[0] <= next[1] ? 0 : 1;
      if (next[w] >= end)
        break;
      std::this_thread::sleep_until(at(next[w]));
      work[w].launch(stream);
      CHECK(cudaGetLastError());
      ++row.launches[w];
      const double now = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
      // A launch that ran late does not make the next one come sooner: no bursts.
      next[w] = std::max(next[w] + account[w].periodMs, now);
    }
    std::this_thread::sleep_until(at(end));
    const Delivered d = take();
    for (int w = 0; w < 2; ++w)
      row.gpuMs[w] = d.gpuMs[w];
    if (scheduled) {
      for (int w = 0; w < 2; ++w) {
        Account& a = account[w];
        if (d.profiles[w] > 0) {
          const double perLaunch = d.gpuMs[w] / d.profiles[w];
          a.costMs = a.costMs > 0 ? 0.5 * a.costMs + 0.5 * perLaunch : perLaunch;
        }
        const double fair = 0.5 * budgetMs; // the 50% target
        a.creditMs = std::clamp(a.creditMs + fair - d.gpuMs[w], -fair, fair);
        if (a.costMs > 0) {
          // Spend this window's earnings plus a quarter of the balance: debts and surpluses are
          // paid back over a few windows instead of swinging the shares the other way at once.
          const double spend = std::max(fair + 0.25 * a.creditMs, 0.0);
          const double launches = spend / a.costMs;
          a.periodMs = std::clamp(launches > 0 ? windowMs / launches : 4 * windowMs,
                                  std::max(0.1, a.costMs), 4 * windowMs);
        }
        // A new period applies from the workload's last launch on.
        next[w] = std::max(end, next[w] - row.periodMs[w] + a.periodMs);
        row.creditMs[w] = a.creditMs;
      }
    }
    rows.push_back(row);
  }
  CHECK(cudaStreamSynchronize(stream));
  return rows;
}

void printRows(const std::vector<WindowRow>& rows) {
  for (const WindowRow& r : rows)
    std::printf("%-12s %6d %9.0f %6d %6d %9.2f %9.2f %7.1f%% %7.1f%% %8.2f %8.2f %8.2f %8.2f\n",
                r.phase.c_str(), r.window, r.endMs, r.launches[0], r.launches[1], r.gpuMs[0],
                r.gpuMs[1], 100 * r.share(0), 100 * r.share(1), r.periodMs[0], r.periodMs[1],
                r.creditMs[0], r.creditMs[1]);
}

// GPU-time share of A over rows [from, to).
double shareOf(const std::vector<WindowRow>& rows, size_t from, size_t to, int* launchesA,
               int* launchesB) {
  double a = 0, b = 0;
  *launchesA = *launchesB = 0;
  for (size_t i = from; i < to; ++i) {
    a += rows[i].gpuMs[0];
    b += rows[i].gpuMs[1];
    *launchesA += rows[i].launches[0];
    *launchesB += rows[i].launches[1];
  }
  return a + b > 0 ? a / (a + b) : 0;
}

int run(const Options& opt) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIP: no CUDA device (set OCELOT_DEVICE=cpu for Ocelot's CPU back end)\n");
    return 77;
  }
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  // B multiplies matrices 4^(1/3) times wider than A's: four times the work.
  Workload work[2] = {{"A", workload_a}, {"B", workload_b}};
  work[0].n = opt.small ? 48 : 1536;
  work[1].n = opt.small ? 76 : 2432;
  for (Workload& w : work)
    w.setup();
  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  CHECK(cudaDeviceSynchronize());

  const auto token = ocelot::subscribe(onProfile);
  const auto clock = ocelot::addInstrumentor("ctaclock");

  // Calibration, which also builds the instrumented module: two launches of each.
  for (int i = 0; i < 2; ++i)
    for (const Workload& w : work)
      w.launch(stream);
  CHECK(cudaStreamSynchronize(stream));
  ocelot::flushProfiles();
  const Delivered calibration = take();
  if (calibration.profiles[0] != 2 || calibration.profiles[1] != 2) {
    std::printf("FAIL: calibration delivered %d and %d CTA-clock profiles, expected 2 each\n",
                calibration.profiles[0], calibration.profiles[1]);
    return 1;
  }
  const double costA = calibration.gpuMs[0] / 2, costB = calibration.gpuMs[1] / 2;
  // The paper's 10 ms period and 50 ms window, longer when the kernels would load the device more
  // than 40% without scheduling (a saturated device only queues launches).
  const double period = opt.periodMs > 0 ? opt.periodMs : std::max(10.0, 2.5 * (costA + costB));
  const double window = opt.windowMs > 0 ? opt.windowMs : 5 * period;
  std::printf("Credit-based scheduler (the paper's Experiment 4) on %s\n", prop.name);
  std::printf("workload A: %dx%d matmul, %.3f ms per launch; B: %dx%d, %.3f ms (%.2fx A), "
              "measured by ctaclock\n",
              work[0].n, work[0].n, costA, work[1].n, work[1].n, costB,
              costA > 0 ? costB / costA : 0.0);
  std::printf("initial period %.1f ms for both, window %.1f ms; %d unscheduled then %d scheduled "
              "windows\n\n",
              period, window, opt.unscheduledWindows, opt.scheduledWindows);
  std::printf("%-12s %6s %9s %6s %6s %9s %9s %8s %8s %8s %8s %8s %8s\n", "phase", "window",
              "end ms", "A n", "B n", "A gpu ms", "B gpu ms", "A share", "B share", "A per",
              "B per", "A cred", "B cred");
  std::fflush(stdout);

  auto unscheduled =
      runPhase("unscheduled", false, opt.unscheduledWindows, period, window, 0, work, stream);
  printRows(unscheduled);
  std::fflush(stdout);
  double budget = 0;
  for (const WindowRow& r : unscheduled)
    budget += (r.gpuMs[0] + r.gpuMs[1]) / double(unscheduled.size());
  auto scheduled =
      runPhase("scheduled", true, opt.scheduledWindows, period, window, budget, work, stream);
  printRows(scheduled);

  ocelot::removeInstrumentor(clock);
  ocelot::flushProfiles();
  ocelot::unsubscribe(token);
  CHECK(cudaStreamDestroy(stream));
  for (Workload& w : work)
    w.release();

  int nA = 0, nB = 0;
  const double before = shareOf(unscheduled, 0, unscheduled.size(), &nA, &nB);
  std::printf("\nunscheduled:        A %5.1f%%, B %5.1f%% of GPU time (launches A %d, B %d)\n",
              100 * before, 100 * (1 - before), nA, nB);
  const size_t half = scheduled.size() / 2;
  const double after = shareOf(scheduled, half, scheduled.size(), &nA, &nB);
  const bool converged = std::fabs(after - 0.5) <= opt.tolerance;
  const bool dominated = 1 - before >= 0.6;
  std::printf("scheduled, windows %zu-%zu: A %5.1f%%, B %5.1f%% (launches A %d, B %d); budget "
              "%.2f ms per window\n",
              half + 1, scheduled.size(), 100 * after, 100 * (1 - after), nA, nB, budget);

  if (!opt.tsv.empty()) {
    FILE* f = std::fopen(opt.tsv.c_str(), "w");
    if (f == nullptr) {
      std::printf("FAIL: cannot write %s\n", opt.tsv.c_str());
      return 1;
    }
    std::fprintf(f, "phase\twindow\tend_ms\ta_launches\tb_launches\ta_gpu_ms\tb_gpu_ms\ta_share\t"
                    "b_share\ta_period_ms\tb_period_ms\ta_credit_ms\tb_credit_ms\n");
    for (const auto* rows : {&unscheduled, &scheduled})
      for (const WindowRow& r : *rows)
        std::fprintf(f, "%s\t%d\t%.1f\t%d\t%d\t%.4f\t%.4f\t%.4f\t%.4f\t%.3f\t%.3f\t%.3f\t%.3f\n",
                     r.phase.c_str(), r.window, r.endMs, r.launches[0], r.launches[1], r.gpuMs[0],
                     r.gpuMs[1], r.share(0), r.share(1), r.periodMs[0], r.periodMs[1],
                     r.creditMs[0], r.creditMs[1]);
    std::fclose(f);
  }

  std::vector<std::string> problems;
  {
    std::lock_guard lock(gMutex);
    problems = gProblems;
  }
  for (const auto& p : problems)
    std::printf("problem: %s\n", p.c_str());
  if (!problems.empty() || !converged || !dominated) {
    std::printf("FAIL: %s\n", !problems.empty() ? "profiles without complete CTA clocks"
                              : !dominated      ? "B did not dominate without scheduling (< 60%)"
                                                : "scheduled shares did not converge to 50%");
    return 1;
  }
  std::printf("PASS: converged to 50%% within %.0f%%\n", 100 * opt.tolerance);
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  Options opt;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      auto value = [&]() -> std::string {
        if (i + 1 >= argc)
          throw std::invalid_argument(arg + " needs a value");
        return argv[++i];
      };
      if (arg == "--small")
        opt.small = true;
      else if (arg == "--period-ms")
        opt.periodMs = std::stod(value());
      else if (arg == "--window-ms")
        opt.windowMs = std::stod(value());
      else if (arg == "--windows") {
        const std::string v = value();
        const size_t comma = v.find(',');
        if (comma == std::string::npos)
          throw std::invalid_argument("--windows takes U,S");
        opt.unscheduledWindows = std::stoi(v.substr(0, comma));
        opt.scheduledWindows = std::stoi(v.substr(comma + 1));
      } else if (arg == "--tolerance")
        opt.tolerance = std::stod(value());
      else if (arg == "--tsv")
        opt.tsv = value();
      else
        throw std::invalid_argument("unknown argument " + arg);
    }
    if (opt.unscheduledWindows < 1 || opt.scheduledWindows < 2)
      throw std::invalid_argument("--windows needs U >= 1 and S >= 2");
  } catch (const std::exception& e) {
    std::fprintf(stderr,
                 "%s\nusage: %s [--small] [--period-ms P] [--window-ms W] [--windows U,S] "
                 "[--tolerance T] [--tsv FILE]\n",
                 e.what(), argv[0]);
    return 2;
  }
  try {
    return run(opt);
  } catch (const std::exception& e) {
    std::printf("FAIL: %s\n", e.what());
    return 1;
  }
}
