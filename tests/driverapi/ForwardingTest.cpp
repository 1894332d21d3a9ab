// Ocelot's libcuda.so.1 in GPU mode over tests/runtime/fakedriver (OCELOT_REAL_LIBCUDA): a
// forwarded function reaches NVIDIA's function of the exported symbol that cuda.h's declaration
// names, never what cuGetProcAddress(name, 13000) answers. For cuCtxGetDevice that answer is CUDA
// 13's cuCtxGetDevice_v2, which takes a context too: a call with cuda.h's one parameter passed
// garbage for it, and CuPy crashed in its second module load on an H200 (commit e175338).

#include <cuda.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <dlfcn.h>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

/// The lines the fake driver logged into a fresh folder (OCELOT_FAKE_DRIVER_LOG).
class FakeDriverLog {
public:
  FakeDriverLog() {
    // The shim reads these at its first call: GPU mode, with the fake as NVIDIA's driver.
    ::setenv("OCELOT_REAL_LIBCUDA", OCELOT_FAKE_DRIVER_FILE, 1);
    ::unsetenv("OCELOT_DEVICE");
    char folder[] = "/tmp/ocelot-forwarding-XXXXXX";
    if (::mkdtemp(folder) != nullptr)
      folder_ = folder;
    ::setenv("OCELOT_FAKE_DRIVER_LOG", folder_.c_str(), 1);
  }
  ~FakeDriverLog() {
    std::error_code ignored;
    std::filesystem::remove_all(folder_, ignored);
  }
  FakeDriverLog(const FakeDriverLog&) = delete;
  FakeDriverLog& operator=(const FakeDriverLog&) = delete;

  std::vector<std::string> lines() const {
    std::vector<std::string> result;
    std::ifstream log(folder_ + "/driver.log");
    for (std::string line; std::getline(log, line);)
      result.push_back(line);
    return result;
  }
  int count(const std::string& line) const {
    int n = 0;
    for (const std::string& logged : lines())
      n += logged == line ? 1 : 0;
    return n;
  }

private:
  std::string folder_;
};

/// Device 0's primary context current on this thread, through the shim.
void primaryContextCurrent(CUdevice* device) {
  ASSERT_EQ(cuInit(0), CUDA_SUCCESS);
  ASSERT_EQ(cuDeviceGet(device, 0), CUDA_SUCCESS);
  CUcontext context = nullptr;
  ASSERT_EQ(cuDevicePrimaryCtxRetain(&context, *device), CUDA_SUCCESS);
  ASSERT_EQ(cuCtxSetCurrent(context), CUDA_SUCCESS);
}

TEST(Forwarding, CtxGetDeviceReachesTheOneParameterFunctionOfItsSymbol) {
  FakeDriverLog log; // before the shim's first call
  ASSERT_EQ(cuInit(0), CUDA_SUCCESS);
  CUdevice device = -1;
  ASSERT_EQ(cuDeviceGet(&device, 0), CUDA_SUCCESS);
  char name[64] = {};
  ASSERT_EQ(cuDeviceGetName(name, sizeof name, device), CUDA_SUCCESS);
  ASSERT_STREQ(name, "Ocelot fake GPU") << "the shim is not in GPU mode over the fake driver";
  CUcontext context = nullptr;
  ASSERT_EQ(cuDevicePrimaryCtxRetain(&context, device), CUDA_SUCCESS);
  ASSERT_EQ(cuCtxSetCurrent(context), CUDA_SUCCESS);

  CUdevice of = -1;
  EXPECT_EQ(cuCtxGetDevice(&of), CUDA_SUCCESS);
  EXPECT_EQ(of, device);
  EXPECT_EQ(log.count("ctxGetDevice"), 1);
  EXPECT_EQ(log.count("ctxGetDevice_v2"), 0);

  // A module load makes the runtime follow the driver's context (DriverShim::followDriverContext),
  // which asks NVIDIA's cuCtxGetDevice the same way.
  const char* ptx = ".version 8.0\n.target sm_75\n.address_size 64\n"
                    ".visible .entry k()\n{\nret;\n}\n";
  CUmodule module = nullptr;
  ASSERT_EQ(cuModuleLoadData(&module, ptx), CUDA_SUCCESS);
  EXPECT_GE(log.count("ctxGetDevice"), 2);
  EXPECT_EQ(log.count("ctxGetDevice_v2"), 0);
  EXPECT_EQ(cuModuleUnload(module), CUDA_SUCCESS);
}

// CUDA 11.3's cuGetProcAddress has no status argument. NVIDIA's runtime asked the shim for
// "cuGetProcAddress" at 11030 on an H200 (under PyTorch): the answer must be the four-argument
// function that the bare symbol also names, not the five-argument one, whose status write went
// through a garbage register.
TEST(Forwarding, GetProcAddressOfCuda11_3IsTheFourArgumentFunction) {
  FakeDriverLog log;
  ASSERT_EQ(cuInit(0), CUDA_SUCCESS);
  using V11030 = CUresult (*)(const char*, void**, int, cuuint64_t);
  void* bare = ::dlsym(RTLD_DEFAULT, "cuGetProcAddress");
  ASSERT_NE(bare, nullptr) << "the shim does not export CUDA 11.3's cuGetProcAddress";
  void* answered = nullptr;
  CUdriverProcAddressQueryResult status{};
  ASSERT_EQ(cuGetProcAddress("cuGetProcAddress", &answered, 11030, 0, &status), CUDA_SUCCESS);
  EXPECT_EQ(answered, bare);
  void* current = nullptr;
  ASSERT_EQ(cuGetProcAddress("cuGetProcAddress", &current, 13000, 0, &status), CUDA_SUCCESS);
  EXPECT_NE(current, bare);
  EXPECT_EQ(current, ::dlsym(RTLD_DEFAULT, "cuGetProcAddress_v2"));

  // The four-argument function answers like the current one.
  auto v11030 = reinterpret_cast<V11030>(bare);
  void* launch = nullptr;
  ASSERT_EQ(v11030("cuLaunchKernel", &launch, 11030, 0), CUDA_SUCCESS);
  EXPECT_EQ(launch, ::dlsym(RTLD_DEFAULT, "cuLaunchKernel"));
  // Its linker of CUDA 5.5 is the shim's too (same signature as the _v2 functions).
  void* linkCreate = nullptr;
  ASSERT_EQ(v11030("cuLinkCreate", &linkCreate, 5050, 0), CUDA_SUCCESS);
  EXPECT_EQ(linkCreate, ::dlsym(RTLD_DEFAULT, "cuLinkCreate_v2"));
  EXPECT_NE(::dlsym(RTLD_DEFAULT, "cuLinkCreate"), nullptr);
}

// Numba-CUDA loads its PTX with cuLibraryLoadData. On a GPU such a library was NVIDIA's, and its
// kernels ran uninstrumented on an H200; now a library of PTX text is Ocelot's module, and the
// kernel calls on it answer from the module.
TEST(Forwarding, ALibraryOfPtxIsOcelotsModuleOnAGpu) {
  FakeDriverLog log;
  CUdevice device = -1;
  ASSERT_NO_FATAL_FAILURE(primaryContextCurrent(&device));
  const char* ptx = ".version 8.0\n.target sm_75\n.address_size 64\n"
                    ".visible .global .align 4 .u32 counter;\n"
                    ".visible .entry add_one(.param .u64 out, .param .u32 n)\n{\nret;\n}\n";
  CUlibrary library = nullptr;
  ASSERT_EQ(cuLibraryLoadData(&library, ptx, nullptr, nullptr, 0, nullptr, nullptr, 0),
            CUDA_SUCCESS);
  CUmodule module = nullptr;
  ASSERT_EQ(cuLibraryGetModule(&module, library), CUDA_SUCCESS) << "the library is not Ocelot's";
  EXPECT_EQ(reinterpret_cast<void*>(module), reinterpret_cast<void*>(library));

  CUkernel kernel = nullptr;
  ASSERT_EQ(cuLibraryGetKernel(&kernel, library, "add_one"), CUDA_SUCCESS);
  CUfunction function = nullptr;
  ASSERT_EQ(cuKernelGetFunction(&function, kernel), CUDA_SUCCESS);
  const char* name = nullptr;
  ASSERT_EQ(cuKernelGetName(&name, kernel), CUDA_SUCCESS);
  EXPECT_STREQ(name, "add_one");
  CUlibrary of = nullptr;
  ASSERT_EQ(cuKernelGetLibrary(&of, kernel), CUDA_SUCCESS);
  EXPECT_EQ(of, library);
  size_t offset = 0, size = 0;
  ASSERT_EQ(cuKernelGetParamInfo(kernel, 1, &offset, &size), CUDA_SUCCESS);
  EXPECT_EQ(offset, 8u);
  EXPECT_EQ(size, 4u);
  CUdeviceptr counter = 0;
  size_t bytes = 0;
  ASSERT_EQ(cuLibraryGetManaged(&counter, &bytes, library, "counter"), CUDA_SUCCESS);
  EXPECT_NE(counter, 0u);
  EXPECT_NE(bytes, 0u); // the fake driver's globals have a size of its own
  void* unified = reinterpret_cast<void*>(1);
  EXPECT_EQ(cuLibraryGetUnifiedFunction(&unified, library, "add_one"), CUDA_ERROR_NOT_FOUND);
  EXPECT_EQ(unified, nullptr);
  EXPECT_EQ(cuKernelSetCacheConfig(kernel, static_cast<CUfunc_cache>(99), device),
            CUDA_ERROR_INVALID_VALUE);

  // Launched by its kernel handle (CUDA 12 lets a CUkernel stand for a CUfunction).
  CUdeviceptr out = 0;
  ASSERT_EQ(cuMemAlloc(&out, 64), CUDA_SUCCESS);
  unsigned n = 16;
  void* params[] = {&out, &n};
  EXPECT_EQ(cuLaunchKernel(reinterpret_cast<CUfunction>(kernel), 1, 1, 1, 32, 1, 1, 0, nullptr,
                           params, nullptr),
            CUDA_SUCCESS);
  EXPECT_EQ(cuStreamSynchronize(nullptr), CUDA_SUCCESS);
  EXPECT_EQ(cuMemFree(out), CUDA_SUCCESS);
  EXPECT_EQ(cuLibraryUnload(library), CUDA_SUCCESS);
  EXPECT_EQ(cuKernelGetName(&name, kernel), CUDA_ERROR_NOT_FOUND)
      << "an unloaded kernel is no longer Ocelot's (the fake driver has no cuKernelGetName)";
}

// A kernel of a module the application loaded around the shim (through NVIDIA's driver itself,
// as a library's static runtime does) launches through the shim as it came. Its name costs the
// shim a driver call, which only a profiled launch may pay: none while no instrumentor is active.
TEST(Forwarding, AForeignKernelIsNamedOnlyWhenItsLaunchIsProfiled) {
  FakeDriverLog log;
  CUdevice device = -1;
  ASSERT_NO_FATAL_FAILURE(primaryContextCurrent(&device));
  void* fake = ::dlopen(OCELOT_FAKE_DRIVER_FILE, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(fake, nullptr) << ::dlerror();
  using Load = CUresult (*)(CUmodule*, const void*);
  using Get = CUresult (*)(CUfunction*, CUmodule, const char*);
  auto load = reinterpret_cast<Load>(::dlsym(fake, "cuModuleLoadData"));
  auto get = reinterpret_cast<Get>(::dlsym(fake, "cuModuleGetFunction"));
  ASSERT_TRUE(load != nullptr && get != nullptr);
  const char* ptx = ".version 8.0\n.target sm_75\n.address_size 64\n"
                    ".visible .entry library_kernel()\n{\nret;\n}\n";
  CUmodule module = nullptr;
  ASSERT_EQ(load(&module, ptx), CUDA_SUCCESS);
  CUfunction function = nullptr;
  ASSERT_EQ(get(&function, module, "library_kernel"), CUDA_SUCCESS);

  ASSERT_EQ(cuLaunchKernel(function, 2, 1, 1, 32, 1, 1, 0, nullptr, nullptr, nullptr),
            CUDA_SUCCESS);
  EXPECT_EQ(log.count("launch library_kernel grid 2 block 32"), 1);
  EXPECT_EQ(log.count("funcGetName"), 0) << "an unprofiled launch paid for the kernel's name";
  auto unload = reinterpret_cast<CUresult (*)(CUmodule)>(::dlsym(fake, "cuModuleUnload"));
  ASSERT_NE(unload, nullptr);
  EXPECT_EQ(unload(module), CUDA_SUCCESS);
  // `fake` stays open: the functions it handed out live in its tables until the process ends.
}

// After one launch through the runtime, later launches of a kernel go to the driver directly
// (runtime/driverapi/DirectLaunch.h). Each must still reach the driver with its own grid, and a
// module unloaded and another loaded (whose stand-in may take the same address) must never be
// launched through the first one's function.
TEST(Forwarding, DirectLaunchesReachTheDriverAndEndAtAnUnload) {
  FakeDriverLog log;
  CUdevice device = -1;
  ASSERT_NO_FATAL_FAILURE(primaryContextCurrent(&device));
  auto load = [](const char* name, CUmodule* module, CUfunction* function) {
    std::string ptx =
        std::string(".version 8.0\n.target sm_75\n.address_size 64\n.visible .entry ") + name +
        "()\n{\nret;\n}\n";
    ASSERT_EQ(cuModuleLoadData(module, ptx.c_str()), CUDA_SUCCESS);
    ASSERT_EQ(cuModuleGetFunction(function, *module, name), CUDA_SUCCESS);
  };
  CUmodule first = nullptr;
  CUfunction kernel = nullptr;
  ASSERT_NO_FATAL_FAILURE(load("first_kernel", &first, &kernel));
  for (unsigned grid = 1; grid <= 5; ++grid)
    ASSERT_EQ(cuLaunchKernel(kernel, grid, 1, 1, 32, 1, 1, 0, nullptr, nullptr, nullptr),
              CUDA_SUCCESS);
  CUlaunchConfig config{};
  config.gridDimX = 6;
  config.gridDimY = config.gridDimZ = 1;
  config.blockDimX = 32;
  config.blockDimY = config.blockDimZ = 1;
  ASSERT_EQ(cuLaunchKernelEx(&config, kernel, nullptr, nullptr), CUDA_SUCCESS);
  ASSERT_EQ(cuLaunchKernelEx(&config, kernel, nullptr, nullptr), CUDA_SUCCESS);
  for (unsigned grid = 1; grid <= 5; ++grid)
    EXPECT_EQ(log.count("launch first_kernel grid " + std::to_string(grid) + " block 32"), 1);
  // Through the runtime a launch without attributes takes cuLaunchKernel, directly
  // cuLaunchKernelEx.
  EXPECT_EQ(log.count("launch first_kernel grid 6 block 32") +
                log.count("launchEx first_kernel grid 6 block 32"),
            2);

  ASSERT_EQ(cuModuleUnload(first), CUDA_SUCCESS);
  CUmodule second = nullptr;
  CUfunction other = nullptr;
  ASSERT_NO_FATAL_FAILURE(load("second_kernel", &second, &other));
  for (int i = 0; i < 3; ++i)
    ASSERT_EQ(cuLaunchKernel(other, 7, 1, 1, 32, 1, 1, 0, nullptr, nullptr, nullptr), CUDA_SUCCESS);
  EXPECT_EQ(log.count("launch second_kernel grid 7 block 32"), 3);
  EXPECT_EQ(log.count("launch first_kernel grid 7 block 32"), 0);
  EXPECT_EQ(cuModuleUnload(second), CUDA_SUCCESS);
}

} // namespace
