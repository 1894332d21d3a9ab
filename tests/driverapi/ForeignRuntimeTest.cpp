// Ocelot's libcuda.so.1 in a process whose libcudart.so.13 is NVIDIA's (PyTorch's load order):
// NVIDIA's runtime is loaded first, into the global scope, then the shim by path, as NVIDIA's
// runtime dlopens its driver. The shim must load, find Ocelot's runtime by absolute path (kept out
// of the global scope) and run a module on the CPU device through it. This executable links
// neither Ocelot library, so that nothing but this load order decides what the shim binds to;
// the shim's imports are checked on the file as well (readelf, nm), so that a link against
// libcudart.so.13 cannot come back.

#include "ocelot/ocelot_c.h"
#include "runtime/api/RuntimeBridge.h"

#include <cuda.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

/// What a command prints on stdout; nullopt-like empty string with `ok` false when it cannot run.
std::string commandOutput(const std::string& command, bool* ok) {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(::popen(command.c_str(), "r"), &::pclose);
  std::string output;
  *ok = pipe != nullptr;
  if (!*ok)
    return output;
  char buffer[4096];
  for (size_t read; (read = std::fread(buffer, 1, sizeof buffer, pipe.get())) > 0;)
    output.append(buffer, read);
  *ok = ::pclose(pipe.release()) == 0;
  return output;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> result;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    result.push_back(text.substr(start, end - start));
    start = end == std::string::npos ? text.size() : end + 1;
  }
  return result;
}

TEST(ShimImports, NoNeededLibcudart) {
  bool ok = false;
  std::string dynamic = commandOutput("readelf -dW '" OCELOT_SHIM_FILE "' 2>/dev/null", &ok);
  if (!ok)
    GTEST_SKIP() << "readelf cannot read " OCELOT_SHIM_FILE;
  int needed = 0;
  for (const std::string& line : lines(dynamic)) {
    if (line.find("(NEEDED)") == std::string::npos)
      continue;
    ++needed;
    EXPECT_EQ(line.find("libcudart"), std::string::npos) << line;
  }
  EXPECT_GT(needed, 0) << "readelf printed no NEEDED entry:\n" << dynamic;
}

TEST(ShimImports, NothingFromTheRuntimeBySymbol) {
  bool ok = false;
  std::string undefined =
      commandOutput("nm -D --undefined-only '" OCELOT_SHIM_FILE "' 2>/dev/null", &ok);
  if (!ok)
    GTEST_SKIP() << "nm cannot read " OCELOT_SHIM_FILE;
  int imports = 0;
  for (const std::string& line : lines(undefined)) {
    size_t name = line.find_last_of(' ');
    std::string symbol = line.substr(name == std::string::npos ? 0 : name + 1);
    if (symbol.empty())
      continue;
    ++imports;
    EXPECT_EQ(symbol.find("OCELOT_1"), std::string::npos) << symbol;
    EXPECT_EQ(symbol.find("libcudart"), std::string::npos) << symbol;
    EXPECT_NE(symbol.rfind("cuda", 0), 0u) << symbol;       // cudaMalloc & co.
    EXPECT_NE(symbol.rfind("__cuda", 0), 0u) << symbol;     // __cudaRegisterFatBinary & co.
    EXPECT_NE(symbol.rfind("_ZN6ocelot", 0), 0u) << symbol; // ocelot:: members
    EXPECT_NE(symbol.rfind("_ZNK6ocelot", 0), 0u) << symbol;
  }
  EXPECT_GT(imports, 0) << "nm printed no import (dlopen at least):\n" << undefined;
}

/// Where an address lies (the file of the object that defines it).
std::string fileOf(const void* address) {
  Dl_info info{};
  if (address == nullptr || ::dladdr(address, &info) == 0 || info.dli_fname == nullptr)
    return {};
  std::error_code ignored;
  return fs::canonical(info.dli_fname, ignored).string();
}

std::string canonical(const char* path) {
  std::error_code ignored;
  return fs::canonical(path, ignored).string();
}

template <class Function> Function symbolOf(void* library, const char* name) {
  void* address = ::dlsym(library, name);
  Function function = nullptr;
  std::memcpy(&function, &address, sizeof address);
  return function;
}

/// The process as PyTorch leaves it: NVIDIA's libcudart.so.13 global, then the shim by path.
class NvidiaRuntimeFirst : public ::testing::Test {
protected:
  static constexpr const char* kNvidiaRuntime = OCELOT_NVIDIA_CUDART_FILE;

  void SetUp() override {
    if (kNvidiaRuntime[0] == '\0' || !fs::exists(kNvidiaRuntime))
      GTEST_SKIP() << "NVIDIA's libcudart.so.13 is not installed (looked in the CUDA toolkit)";
    static void* const nvidia = ::dlopen(kNvidiaRuntime, RTLD_NOW | RTLD_GLOBAL);
    ASSERT_NE(nvidia, nullptr) << ::dlerror();
    // The scenario: the process's cuda* symbols are NVIDIA's, and Ocelot's runtime is not loaded.
    ASSERT_EQ(fileOf(::dlsym(RTLD_DEFAULT, "cudaGetDeviceCount")), canonical(kNvidiaRuntime));
    // As NVIDIA's runtime loads its driver (by soname, locally); here by path.
    static void* const shim = ::dlopen(OCELOT_SHIM_FILE, RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(shim, nullptr) << "Ocelot's libcuda.so.1 does not load after NVIDIA's runtime: "
                             << ::dlerror();
    shim_ = shim;
  }

  template <class Function> Function driver(const char* name) {
    auto function = symbolOf<Function>(shim_, name);
    EXPECT_NE(function, nullptr) << name;
    return function;
  }

  /// Through the shim only: the CPU device, its primary context, kernels.ptx's scale_add over 300
  /// floats, its result checked, the module unloaded.
  void runScaleAdd() {
    ASSERT_EQ(driver<decltype(&::cuInit)>("cuInit")(0), CUDA_SUCCESS);
    int count = 0;
    ASSERT_EQ(driver<decltype(&::cuDeviceGetCount)>("cuDeviceGetCount")(&count), CUDA_SUCCESS);
    EXPECT_EQ(count, 1); // Ocelot's CPU device

    CUdevice device = -1;
    ASSERT_EQ(driver<decltype(&::cuDeviceGet)>("cuDeviceGet")(&device, 0), CUDA_SUCCESS);
    CUcontext context = nullptr;
    ASSERT_EQ(
        driver<decltype(&::cuDevicePrimaryCtxRetain)>("cuDevicePrimaryCtxRetain")(&context, device),
        CUDA_SUCCESS);
    ASSERT_EQ(driver<decltype(&::cuCtxSetCurrent)>("cuCtxSetCurrent")(context), CUDA_SUCCESS);

    std::ifstream file(OCELOT_DRIVERAPI_PTX, std::ios::binary);
    std::string ptx((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    ASSERT_FALSE(ptx.empty());
    CUmodule module = nullptr;
    ASSERT_EQ(driver<decltype(&::cuModuleLoadData)>("cuModuleLoadData")(&module, ptx.c_str()),
              CUDA_SUCCESS);
    CUfunction kernel = nullptr;
    ASSERT_EQ(driver<decltype(&::cuModuleGetFunction)>("cuModuleGetFunction")(&kernel, module,
                                                                              "scale_add"),
              CUDA_SUCCESS);
    const unsigned n = 300;
    std::vector<float> input(n), output(n, -1.0f);
    for (unsigned i = 0; i < n; ++i)
      input[i] = static_cast<float>(i);
    CUdeviceptr in = 0, out = 0;
    auto alloc = driver<decltype(&::cuMemAlloc)>("cuMemAlloc_v2");
    ASSERT_EQ(alloc(&in, n * sizeof(float)), CUDA_SUCCESS);
    ASSERT_EQ(alloc(&out, n * sizeof(float)), CUDA_SUCCESS);
    ASSERT_EQ(
        driver<decltype(&::cuMemcpyHtoD)>("cuMemcpyHtoD_v2")(in, input.data(), n * sizeof(float)),
        CUDA_SUCCESS);
    float scale = 2.0f, offset = 0.5f;
    unsigned elements = n;
    void* args[] = {&out, &in, &scale, &offset, &elements};
    ASSERT_EQ(driver<decltype(&::cuLaunchKernel)>("cuLaunchKernel")(
                  kernel, (n + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, args, nullptr),
              CUDA_SUCCESS);
    ASSERT_EQ(
        driver<decltype(&::cuMemcpyDtoH)>("cuMemcpyDtoH_v2")(output.data(), out, n * sizeof(float)),
        CUDA_SUCCESS);
    for (unsigned i = 0; i < n; ++i)
      ASSERT_EQ(output[i], 2.0f * static_cast<float>(i) + 0.5f) << i;
    EXPECT_EQ(driver<decltype(&::cuMemFree)>("cuMemFree_v2")(in), CUDA_SUCCESS);
    EXPECT_EQ(driver<decltype(&::cuMemFree)>("cuMemFree_v2")(out), CUDA_SUCCESS);
    EXPECT_EQ(driver<decltype(&::cuModuleUnload)>("cuModuleUnload")(module), CUDA_SUCCESS);
  }

  void* shim_ = nullptr;
};

TEST_F(NvidiaRuntimeFirst, ShimRunsAModuleOnOcelotsRuntimeLoadedByPath) {
  runScaleAdd();

  // Ocelot's runtime came by absolute path and stayed out of the global scope: the application's
  // cuda* calls still reach NVIDIA's runtime.
  void* ocelot = ::dlopen(OCELOT_CUDART_FILE, RTLD_NOW | RTLD_NOLOAD);
  ASSERT_NE(ocelot, nullptr) << "the shim did not load " OCELOT_CUDART_FILE;
  EXPECT_EQ(::dlsym(RTLD_DEFAULT, "ocelot_runtime_bridge"), nullptr);
  EXPECT_EQ(fileOf(::dlsym(RTLD_DEFAULT, "cudaMalloc")), canonical(kNvidiaRuntime));
  ::dlclose(ocelot);
}

// A probe tool loads into Ocelot's runtime that the shim loaded by path (PyTorch's load order) and
// instruments the shim's launches: it refers to no symbol of Ocelot's (tests/probes/
// CheckSelfContained.cmake). Before, the load failed: "cannot load plugin ...: undefined symbol".
TEST_F(NvidiaRuntimeFirst, AProbeToolLoadsIntoTheRuntimeLoadedByPath) {
  if (std::string(OCELOT_INSTMIX_FILE).empty())
    GTEST_SKIP() << "the shipped probe tools are not built";
  // As `ocelot run -i PATH` asks; read when the runtime configures its instrumentation.
  ::setenv("OCELOT_INSTRUMENTORS", OCELOT_INSTMIX_FILE, 1);
  ASSERT_EQ(driver<decltype(&::cuInit)>("cuInit")(0), CUDA_SUCCESS); // the runtime, by path
  void* ocelot = ::dlopen(OCELOT_CUDART_FILE, RTLD_NOW | RTLD_NOLOAD);
  ASSERT_NE(ocelot, nullptr) << "the shim did not load " OCELOT_CUDART_FILE;
  auto subscribe = symbolOf<decltype(&::ocelot_subscribe)>(ocelot, "ocelot_subscribe");
  auto flush = symbolOf<decltype(&::ocelot_flush_profiles)>(ocelot, "ocelot_flush_profiles");
  auto active =
      symbolOf<decltype(&::ocelot_active_instrumentors)>(ocelot, "ocelot_active_instrumentors");
  ASSERT_TRUE(subscribe != nullptr && flush != nullptr && active != nullptr);
  static std::vector<std::string> profiles;
  subscribe([](const char* json, void*) { profiles.emplace_back(json); }, nullptr);
  runScaleAdd();
  flush();
  char names[256] = {};
  active(names, sizeof names);
  EXPECT_NE(std::string(names).find("instmix"), std::string::npos) << "active: " << names;
  ASSERT_EQ(profiles.size(), 1u);
  EXPECT_NE(profiles[0].find("\"instmix\""), std::string::npos) << profiles[0];
  ::unsetenv("OCELOT_INSTRUMENTORS");
  ::dlclose(ocelot);
}

// The bridge's cuda* entries are Ocelot's own functions, not the same-named ones of NVIDIA's
// runtime that the process's global scope offers first.
TEST_F(NvidiaRuntimeFirst, BridgeEntriesAreOcelotsOwnFunctions) {
  void* ocelot = ::dlopen(OCELOT_CUDART_FILE, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(ocelot, nullptr) << ::dlerror();
  auto entry = symbolOf<decltype(&::ocelot_runtime_bridge)>(ocelot, "ocelot_runtime_bridge");
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry(kOcelotRuntimeBridgeAbi + 1), nullptr); // another ABI gets no table
  const OcelotRuntimeBridge* bridge = entry(kOcelotRuntimeBridgeAbi);
  ASSERT_NE(bridge, nullptr);
  EXPECT_EQ(bridge->abiVersion, kOcelotRuntimeBridgeAbi);
  EXPECT_EQ(bridge->size, sizeof(OcelotRuntimeBridge));
  const std::string own = canonical(OCELOT_CUDART_FILE);
#define OCELOT_BRIDGE_CUDA(name)                                                                   \
  EXPECT_EQ(fileOf(reinterpret_cast<const void*>(bridge->name)), own) << #name;
#include "runtime/api/RuntimeBridgeCalls.def"
  int count = 0;
  EXPECT_EQ(bridge->cudaGetDeviceCount(&count), cudaSuccess);
  EXPECT_EQ(count, 1);
  ::dlclose(ocelot);
}

// A shim with no Ocelot runtime in the process, none in $OCELOT_CUDART_DIR and none above its own
// folder: its calls fail with CUDA_ERROR_NOT_INITIALIZED after one line naming what it looked for,
// and the process goes on. In a fresh process (the death test re-runs this binary), so that no
// runtime another test loaded is found.
/// A copy of the shim alone in a fresh folder, loaded (the folder is gone again); exits the
/// process (a death test's child) when that fails.
void* loneShim() {
  char folder[] = "/tmp/ocelot-shim-alone-XXXXXX";
  if (::mkdtemp(folder) == nullptr)
    std::_Exit(10);
  const fs::path copy = fs::path(folder) / "driverapi" / "libcuda.so.1";
  std::error_code error;
  fs::create_directories(copy.parent_path(), error);
  fs::copy_file(OCELOT_SHIM_FILE, copy, error);
  void* shim = error ? nullptr : ::dlopen(copy.c_str(), RTLD_NOW | RTLD_LOCAL);
  fs::remove_all(folder, error);
  if (shim == nullptr)
    std::_Exit(11);
  return shim;
}

TEST(ShimWithoutRuntime, CallsFailNotInitialized) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        ::unsetenv("OCELOT_CUDART_DIR");
        void* shim = loneShim();
        int count = -1;
        CUmodule module = nullptr;
        const char* ptx = ".version 8.0\n.target sm_75\n.address_size 64\n";
        const bool failed =
            symbolOf<decltype(&::cuInit)>(shim, "cuInit")(0) == CUDA_ERROR_NOT_INITIALIZED &&
            symbolOf<decltype(&::cuDeviceGetCount)>(shim, "cuDeviceGetCount")(&count) ==
                CUDA_ERROR_NOT_INITIALIZED &&
            symbolOf<decltype(&::cuModuleLoadData)>(shim, "cuModuleLoadData")(&module, ptx) ==
                CUDA_ERROR_NOT_INITIALIZED;
        std::_Exit(failed ? 0 : 12);
      },
      ::testing::ExitedWithCode(0),
      "Ocelot's runtime \\(libcudart.so.13\\) was not found by Ocelot's libcuda.so.1");
}

// The same lone shim finds Ocelot's runtime in $OCELOT_CUDART_DIR (what `ocelot run` was told).
TEST(ShimWithoutRuntime, FindsTheRuntimeInOcelotCudartDir) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        ::setenv("OCELOT_CUDART_DIR", fs::path(OCELOT_CUDART_FILE).parent_path().c_str(), 1);
        void* shim = loneShim();
        int count = -1;
        const bool found =
            symbolOf<decltype(&::cuInit)>(shim, "cuInit")(0) == CUDA_SUCCESS &&
            symbolOf<decltype(&::cuDeviceGetCount)>(shim, "cuDeviceGetCount")(&count) ==
                CUDA_SUCCESS &&
            count == 1 && ::dlopen(OCELOT_CUDART_FILE, RTLD_NOW | RTLD_NOLOAD) != nullptr;
        std::_Exit(found ? 0 : 12);
      },
      ::testing::ExitedWithCode(0), "");
}

} // namespace
