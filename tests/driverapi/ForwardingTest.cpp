// Ocelot's libcuda.so.1 in GPU mode over tests/runtime/fakedriver (OCELOT_REAL_LIBCUDA): a
// forwarded function reaches NVIDIA's function of the exported symbol that cuda.h's declaration
// names, never what cuGetProcAddress(name, 13000) answers. For cuCtxGetDevice that answer is CUDA
// 13's cuCtxGetDevice_v2, which takes a context too: a call with cuda.h's one parameter passed
// garbage for it, and CuPy crashed in its second module load on an H200 (commit e175338).

#include <cuda.h>
#include <gtest/gtest.h>

#include <cstdlib>
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

} // namespace
