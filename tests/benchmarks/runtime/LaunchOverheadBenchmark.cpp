// Ocelot's own host cost per kernel launch, without a GPU (issue #4): the real entry points of
// Ocelot's libcudart.so.13 over the stand-in libcuda.so.1 (tests/runtime/fakedriver), whose
// cuLaunchKernel does nothing when it is not logging. What is left is the runtime's share of a
// launch plus the driver calls it makes (cuCtxGetCurrent, cuLaunchKernel), measured here as the
// "driver floor" and subtracted.
//
//   ocelot_launch_bench [--launches N] [--runs R] [--idle-only]
//   ocelot_launch_bench --selected [--launches N] [--runs R]
//
// --selected: every launch selected and instrumented (bbcount) on the fake driver, the path whose
// launches record their host call path (issue 16); run it with OCELOT_CALL_STACKS=0 and without
// to see what the call path costs per launch.
//
// Under callgrind (valgrind --tool=callgrind --dump-before=none ... ocelot_launch_bench), each row
// runs once and dumps its own counts ("desc: Trigger: Client Request: <row>"): instructions per
// launch are the row's total divided by N, a measure that the machine's load does not disturb.
//
// Paths: `<<<>>>` as nvcc lowers it (__cudaPushCallConfiguration, then the stub's
// __cudaPopCallConfiguration and cudaLaunchKernel), cudaLaunchKernel, __cudaLaunchKernel (the
// cudaKernel_t of __cudaGetKernel) and cudaLaunchKernelExC; 0, 1 and 4 arguments; the default
// stream and a created one; with the instrumentation hook idle, with an instrumentor active that
// selects none of these kernels, and idle again after removing it; several host threads at once.
// Prints a Markdown table of nanoseconds per launch (best of R runs of N launches).

#include "FatbinaryBuilder.h"
#include "StaticImage.h"
#include "ocelot/ocelot.h"
#include "runtime/api/CompilerEntryPoints.h"

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dlfcn.h>
#include <string>
#include <thread>
#include <vector>

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define OCELOT_HAVE_CALLGRIND 1
#endif

using namespace ocelot::runtime::testing;

namespace {

const std::string kPtx = R"(.version 9.0
.target sm_90
.address_size 64

.visible .entry k0()
{
  ret;
}

.visible .entry k1(.param .u64 a)
{
  ret;
}

.visible .entry k4(.param .u64 a, .param .u64 b, .param .u64 c, .param .u64 d)
{
  ret;
}
)";

ocelot::runtime::testing::StaticImage<1, 8192> gImage;

std::atomic<uint64_t> gFailures{0};

void count(cudaError_t error) {
  if (error != cudaSuccess)
    gFailures.fetch_add(1, std::memory_order_relaxed);
}

// --- The host stubs, written the way nvcc generates them (crt/host_runtime.h, __cudaLaunch) ------

[[gnu::noinline]] void k0() {
  dim3 grid, block;
  size_t shared = 0;
  cudaStream_t stream = nullptr;
  if (__cudaPopCallConfiguration(&grid, &block, &shared, &stream) != cudaSuccess)
    return;
  void* args[1] = {nullptr}; // nvcc's argument array always has one element
  count(cudaLaunchKernel(reinterpret_cast<const void*>(&k0), grid, block, args, shared, stream));
}

[[gnu::noinline]] void k1(uint64_t a) {
  dim3 grid, block;
  size_t shared = 0;
  cudaStream_t stream = nullptr;
  if (__cudaPopCallConfiguration(&grid, &block, &shared, &stream) != cudaSuccess)
    return;
  void* args[] = {&a};
  count(cudaLaunchKernel(reinterpret_cast<const void*>(&k1), grid, block, args, shared, stream));
}

[[gnu::noinline]] void k4(uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
  dim3 grid, block;
  size_t shared = 0;
  cudaStream_t stream = nullptr;
  if (__cudaPopCallConfiguration(&grid, &block, &shared, &stream) != cudaSuccess)
    return;
  void* args[] = {&a, &b, &c, &d};
  count(cudaLaunchKernel(reinterpret_cast<const void*>(&k4), grid, block, args, shared, stream));
}

const void* stub(int arguments) {
  switch (arguments) {
  case 0:
    return reinterpret_cast<const void*>(&k0);
  case 1:
    return reinterpret_cast<const void*>(&k1);
  default:
    return reinterpret_cast<const void*>(&k4);
  }
}

void registerKernels() {
  Bytes container = buildContainer({ptxEntry(kPtx, 90)});
  const void* placed = gImage.place(0, container);
  if (placed == nullptr) {
    std::fprintf(stderr, "container too large\n");
    std::exit(1);
  }
  void** handle = __cudaRegisterFatBinary(gImage.wrap(placed));
  for (const char* name : {"k0", "k1", "k4"}) {
    int arguments = name[1] - '0';
    __cudaRegisterFunction(handle, static_cast<const char*>(stub(arguments)), nullptr, name, -1,
                           nullptr, nullptr, nullptr, nullptr, nullptr);
  }
  __cudaRegisterFatBinaryEnd(handle);
}

// --- The paths
// ------------------------------------------------------------------------------------

enum class Path { Chevrons, LaunchKernel, KernelHandle, LaunchKernelEx };

const char* pathName(Path path) {
  switch (path) {
  case Path::Chevrons:
    return "`<<<>>>` (push, pop, cudaLaunchKernel)";
  case Path::LaunchKernel:
    return "`cudaLaunchKernel`";
  case Path::KernelHandle:
    return "`__cudaLaunchKernel` (cudaKernel_t)";
  case Path::LaunchKernelEx:
    return "`cudaLaunchKernelExC` (no attributes)";
  }
  return "?";
}

/// N launches of the kernel with `arguments` parameters through `path`.
void launches(Path path, int arguments, cudaStream_t stream, uint64_t n) {
  const dim3 grid(1), block(32);
  uint64_t a = 1, b = 2, c = 3, d = 4;
  void* args0[1] = {nullptr};
  void* args1[] = {&a};
  void* args4[] = {&a, &b, &c, &d};
  void** args = arguments == 0 ? args0 : arguments == 1 ? args1 : args4;
  const void* function = stub(arguments);
  switch (path) {
  case Path::Chevrons:
    for (uint64_t i = 0; i < n; ++i) {
      // kernel<<<grid, block, 0, stream>>>(...) as nvcc lowers it.
      if (__cudaPushCallConfiguration(grid, block, 0, stream) != 0)
        continue;
      if (arguments == 0)
        k0();
      else if (arguments == 1)
        k1(i);
      else
        k4(i, b, c, d);
    }
    break;
  case Path::LaunchKernel:
    for (uint64_t i = 0; i < n; ++i)
      count(cudaLaunchKernel(function, grid, block, args, 0, stream));
    break;
  case Path::KernelHandle: {
    cudaKernel_t kernel = nullptr;
    count(__cudaGetKernel(&kernel, function));
    for (uint64_t i = 0; i < n; ++i)
      count(__cudaLaunchKernel(kernel, grid, block, args, 0, stream));
    break;
  }
  case Path::LaunchKernelEx: {
    cudaLaunchConfig_t config{};
    config.gridDim = grid;
    config.blockDim = block;
    config.stream = stream;
    for (uint64_t i = 0; i < n; ++i)
      count(cudaLaunchKernelExC(&config, function, args));
    break;
  }
  }
}

bool underCallgrind() {
#ifdef OCELOT_HAVE_CALLGRIND
  return RUNNING_ON_VALGRIND != 0;
#else
  return false;
#endif
}

/// The launching thread's CPU time in nanoseconds: what an instrumented launch costs the
/// application's thread, without the profile thread (which finishes the launches on another
/// core) and without other processes' time on a loaded machine.
double threadCpuNs() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) * 1e9 + static_cast<double>(now.tv_nsec);
}

template <class Body>
double bestThreadCpuNsPer(const std::string& label, uint64_t n, int runs, Body&& body) {
#ifdef OCELOT_HAVE_CALLGRIND
  if (underCallgrind()) {
    CALLGRIND_ZERO_STATS;
    body();
    CALLGRIND_DUMP_STATS_AT(label.c_str());
    return 0;
  }
#else
  (void)label;
#endif
  double best = 1e300;
  for (int run = 0; run < runs; ++run) {
    double start = threadCpuNs();
    body();
    best = std::min(best, (threadCpuNs() - start) / static_cast<double>(n));
  }
  return best;
}

/// The best time of `runs` runs of `body`, per launch; under callgrind, one run whose counts are
/// dumped under `label`.
template <class Body>
double bestNsPer(const std::string& label, uint64_t n, int runs, Body&& body) {
#ifdef OCELOT_HAVE_CALLGRIND
  if (underCallgrind()) {
    CALLGRIND_ZERO_STATS;
    body();
    CALLGRIND_DUMP_STATS_AT(label.c_str());
    return 0;
  }
#else
  (void)label;
#endif
  double best = 1e300;
  for (int run = 0; run < runs; ++run) {
    auto start = std::chrono::steady_clock::now();
    body();
    std::chrono::duration<double, std::nano> elapsed = std::chrono::steady_clock::now() - start;
    best = std::min(best, elapsed.count() / static_cast<double>(n));
  }
  return best;
}

/// What the fake driver itself costs per launch: the calls Ocelot makes on a warm launch.
double driverFloor(void* driver, uint64_t n, int runs) {
  auto getCurrent = reinterpret_cast<CUresult (*)(CUcontext*)>(dlsym(driver, "cuCtxGetCurrent"));
  auto launch = reinterpret_cast<decltype(&cuLaunchKernel)>(dlsym(driver, "cuLaunchKernel"));
  if (getCurrent == nullptr || launch == nullptr)
    return 0;
  // The fake driver checks that the primary context is current: make it current on this thread.
  cudaFree(nullptr);
  CUcontext context = nullptr;
  getCurrent(&context);
  CUfunction function = nullptr;
  cudaGetFuncBySymbol(reinterpret_cast<cudaFunction_t*>(&function), stub(1));
  uint64_t a = 1;
  void* args[] = {&a};
  std::atomic<uint64_t> failures{0};
  double ns = bestNsPer("driver floor", n, runs, [&] {
    for (uint64_t i = 0; i < n; ++i) {
      CUcontext current = nullptr;
      getCurrent(&current);
      if (current != context ||
          launch(function, 1, 1, 1, 32, 1, 1, 0, nullptr, args, nullptr) != CUDA_SUCCESS)
        failures.fetch_add(1, std::memory_order_relaxed);
    }
  });
  if (failures != 0)
    std::fprintf(stderr, "driver floor: %llu calls failed\n",
                 static_cast<unsigned long long>(failures.load()));
  return ns;
}

struct Options {
  uint64_t launches = 200000;
  int runs = 7;
  bool idleOnly = false; ///< skip the instrumentation columns and the threads
  bool selected = false; ///< only instrumented launches (call-path cost)
};

Options parse(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--launches" && i + 1 < argc) {
      options.launches = std::strtoull(argv[++i], nullptr, 10);
    } else if (arg == "--runs" && i + 1 < argc) {
      options.runs = std::atoi(argv[++i]);
    } else if (arg == "--idle-only") {
      options.idleOnly = true;
    } else if (arg == "--selected") {
      options.selected = true;
    } else {
      std::fprintf(stderr, "usage: %s [--launches N] [--runs R] [--idle-only | --selected]\n",
                   argv[0]);
      std::exit(2);
    }
  }
  options.launches = std::max<uint64_t>(options.launches, 1000);
  options.runs = std::max(options.runs, 1);
  return options;
}

} // namespace

int main(int argc, char** argv) {
  Options options = parse(argc, argv);
  // The stand-in driver, loaded by path first: the runtime's dlopen("libcuda.so.1") then finds it
  // by its soname instead of searching for a real driver.
  void* driver = dlopen(OCELOT_FAKE_DRIVER_DIR "/libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
  if (driver == nullptr) {
    std::fprintf(stderr, "cannot load the fake driver: %s\n", dlerror());
    return 1;
  }
  for (const char* variable :
       {"OCELOT_FAKE_DRIVER", "OCELOT_FAKE_DRIVER_LOG", "OCELOT_DEVICE", "OCELOT_INSTRUMENTORS",
        "OCELOT_DUMP_PTX", "CUDA_VISIBLE_DEVICES", "OCELOT_PROFILE_OUTPUT", "OCELOT_SUMMARY"})
    unsetenv(variable);
  setenv("OCELOT_LOG", "warn", 0);

  registerKernels();
  cudaStream_t created = nullptr;
  if (cudaStreamCreate(&created) != cudaSuccess) {
    std::fprintf(stderr, "cudaStreamCreate failed: is the fake driver in use?\n");
    return 1;
  }
  const uint64_t n = options.launches;
  const int runs = options.runs;
  // First launches load the module and resolve the functions; the table is about warm launches.
  for (Path path : {Path::Chevrons, Path::LaunchKernel, Path::KernelHandle, Path::LaunchKernelEx})
    for (int arguments : {0, 1, 4})
      launches(path, arguments, nullptr, 10);
  if (gFailures != 0) {
    std::fprintf(stderr, "warm-up launches failed\n");
    return 1;
  }

  double floor = driverFloor(driver, n, runs);
  std::printf("Ocelot's host cost per launch on the fake driver: ns per launch, best of %d runs "
              "of %llu launches.\n`total` is the whole call sequence; `Ocelot` subtracts the "
              "driver floor (fake cuCtxGetCurrent + cuLaunchKernel: %.1f ns).\n\n",
              runs, static_cast<unsigned long long>(n), floor);

  struct Row {
    Path path;
    int arguments;
    bool createdStream;
  };
  std::vector<Row> rows;
  for (Path path : {Path::Chevrons, Path::LaunchKernel})
    for (bool createdStream : {false, true})
      for (int arguments : {0, 1, 4})
        rows.push_back({path, arguments, createdStream});
  for (Path path : {Path::KernelHandle, Path::LaunchKernelEx})
    rows.push_back({path, 1, false});

  auto label = [&](const Row& row, const char* column) {
    return std::string(pathName(row.path)) + " args=" + std::to_string(row.arguments) +
           " stream=" + (row.createdStream ? "created" : "default") + " " + column;
  };
  auto measure = [&](const Row& row, uint64_t count, const char* column) {
    cudaStream_t stream = row.createdStream ? created : nullptr;
    return bestNsPer(label(row, column), count, runs,
                     [&] { launches(row.path, row.arguments, stream, count); });
  };

  if (options.selected) {
    // Every launch instrumented: the host side of an instrumented launch (buffers, events, the
    // hand-over to the profile thread) plus, unless OCELOT_CALL_STACKS=0, its call path.
    ocelot::InstrumentorHandle instrumentor = ocelot::addInstrumentor("bbcount");
    const char* stacks = std::getenv("OCELOT_CALL_STACKS");
    bool on = stacks == nullptr || std::string(stacks) != "0";
    uint64_t fewer = std::max<uint64_t>(n / 10, 1000);
    launches(Path::LaunchKernel, 1, nullptr, 100); // builds the instrumented module
    ocelot::flushProfiles();
    std::printf("| path | args | stream | instrumented launch (launching thread's CPU ns), call "
                "stacks %s |\n|---|---:|---|---:|\n",
                on ? "on" : "off (OCELOT_CALL_STACKS=0)");
    for (const Row& row : rows) {
      if (row.createdStream || row.arguments != 1)
        continue;
      double ns = bestThreadCpuNsPer(label(row, "selected"), fewer, runs, [&] {
        launches(row.path, row.arguments, nullptr, fewer);
        ocelot::flushProfiles();
      });
      std::printf("| %s | %d | default | %.1f |\n", pathName(row.path), row.arguments, ns);
    }
    ocelot::removeInstrumentor(instrumentor);
    return gFailures == 0 ? 0 : 1;
  }

  // Idle hook first, then an instrumentor that selects none of these kernels (every launch goes
  // through the selection), then idle again once it is removed.
  std::vector<double> idle, selecting, removed;
  for (const Row& row : rows)
    idle.push_back(measure(row, n, "idle"));
  if (options.idleOnly) {
    std::printf("| path | args | stream | total | Ocelot |\n|---|---:|---|---:|---:|\n");
    for (size_t i = 0; i < rows.size(); ++i)
      std::printf("| %s | %d | %s | %.1f | %.1f |\n", pathName(rows[i].path), rows[i].arguments,
                  rows[i].createdStream ? "created" : "default", idle[i], idle[i] - floor);
    return gFailures == 0 ? 0 : 1;
  }
  ocelot::SelectionRules none;
  none.kernelRegex = "^no_kernel_has_this_name$";
  ocelot::setSelection(none);
  ocelot::InstrumentorHandle instrumentor = ocelot::addInstrumentor("bbcount");
  uint64_t fewer = std::max<uint64_t>(n / 20, 1000);
  for (const Row& row : rows)
    selecting.push_back(measure(row, fewer, "selecting"));
  ocelot::removeInstrumentor(instrumentor);
  for (const Row& row : rows)
    removed.push_back(measure(row, n, "idle again"));

  std::printf("| path | args | stream | total | Ocelot | instrumentor active, not selected | "
              "idle again |\n|---|---:|---|---:|---:|---:|---:|\n");
  for (size_t i = 0; i < rows.size(); ++i)
    std::printf("| %s | %d | %s | %.1f | %.1f | %.1f | %.1f |\n", pathName(rows[i].path),
                rows[i].arguments, rows[i].createdStream ? "created" : "default", idle[i],
                idle[i] - floor, selecting[i], removed[i]);

  // Several host threads launching at once (shared state on the launch path shows up here).
  unsigned threads = std::max(2u, std::min(8u, std::thread::hardware_concurrency()));
  for (Path path : {Path::Chevrons, Path::LaunchKernel}) {
    double ns = bestNsPer(std::string(pathName(path)) + " threads", n, runs, [&] {
      std::vector<std::thread> workers;
      for (unsigned t = 0; t < threads; ++t)
        workers.emplace_back([&] { launches(path, 1, nullptr, n); });
      for (auto& worker : workers)
        worker.join();
    });
    std::printf("| %s, %u threads at once (wall time / launches per thread) | 1 | default | "
                "%.1f | %.1f | | |\n",
                pathName(path), threads, ns, ns - floor);
  }

  cudaStreamDestroy(created);
  if (gFailures != 0) {
    std::fprintf(stderr, "%llu launches failed\n",
                 static_cast<unsigned long long>(gFailures.load()));
    return 1;
  }
  return 0;
}
