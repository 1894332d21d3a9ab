// Ocelot's libcuda.so.1 on the CPU device, in process: this test links the shim as its
// libcuda.so.1 (and Ocelot's libcudart.so.13), and runs with OCELOT_DEVICE=cpu. Modules loaded
// through the driver API launch like registered ones (instrumentation included); bad input gets
// the driver's error and leaves the process working (issue 15).

#include "ocelot/KernelProfile.h"
#include "ocelot/ocelot.h"

#include <cuda.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

std::string readFile(const char* path) {
  std::ifstream file(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
}

/// PTX of one kernel `k` that stores `value` to *out.
std::string storeKernel(unsigned value) {
  return ".version 8.0\n.target sm_75\n.address_size 64\n"
         ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<2>;\n.reg .b64 %rd<3>;\n"
         "ld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd2, %rd1;\nmov.u32 %r1, " +
         std::to_string(value) + ";\nst.global.u32 [%rd2], %r1;\nret;\n}\n";
}

class DriverApiTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(cuInit(0), CUDA_SUCCESS);
    ASSERT_EQ(cuDeviceGet(&device_, 0), CUDA_SUCCESS);
    ASSERT_EQ(cuDevicePrimaryCtxRetain(&context_, device_), CUDA_SUCCESS);
    ASSERT_EQ(cuCtxSetCurrent(context_), CUDA_SUCCESS);
    ptx_ = readFile(OCELOT_DRIVERAPI_PTX);
    ASSERT_FALSE(ptx_.empty());
  }
  void TearDown() override { ocelot::removeAllInstrumentors(); }

  /// Runs `k` of `module` and returns what it stored.
  unsigned runStore(CUmodule module) {
    CUfunction kernel = nullptr;
    EXPECT_EQ(cuModuleGetFunction(&kernel, module, "k"), CUDA_SUCCESS);
    CUdeviceptr out = 0;
    EXPECT_EQ(cuMemAlloc(&out, sizeof(unsigned)), CUDA_SUCCESS);
    void* args[] = {&out};
    EXPECT_EQ(cuLaunchKernel(kernel, 1, 1, 1, 1, 1, 1, 0, nullptr, args, nullptr), CUDA_SUCCESS);
    unsigned value = 0;
    EXPECT_EQ(cuMemcpyDtoH(&value, out, sizeof value), CUDA_SUCCESS);
    EXPECT_EQ(cuMemFree(out), CUDA_SUCCESS);
    return value;
  }

  CUdevice device_ = 0;
  CUcontext context_ = nullptr;
  std::string ptx_;
};

TEST_F(DriverApiTest, DevicesAndContexts) {
  int count = 0;
  ASSERT_EQ(cuDeviceGetCount(&count), CUDA_SUCCESS);
  EXPECT_GE(count, 1);
  char name[256] = {};
  EXPECT_EQ(cuDeviceGetName(name, sizeof name, device_), CUDA_SUCCESS);
  EXPECT_GT(std::strlen(name), 0u);
  int major = 0;
  EXPECT_EQ(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device_),
            CUDA_SUCCESS);
  EXPECT_GT(major, 0);
  int version = 0;
  EXPECT_EQ(cuDriverGetVersion(&version), CUDA_SUCCESS);
  EXPECT_GE(version, 13000);
  CUcontext current = nullptr;
  EXPECT_EQ(cuCtxGetCurrent(&current), CUDA_SUCCESS);
  EXPECT_EQ(current, context_);
  CUdevice of = -1;
  EXPECT_EQ(cuCtxGetDevice(&of), CUDA_SUCCESS);
  EXPECT_EQ(of, device_);
  EXPECT_EQ(cuDeviceGet(&of, count), CUDA_ERROR_INVALID_DEVICE);
  EXPECT_EQ(cuCtxSetCurrent(reinterpret_cast<CUcontext>(&count)), CUDA_ERROR_INVALID_CONTEXT);
  EXPECT_EQ(cuCtxSynchronize(), CUDA_SUCCESS);
}

TEST_F(DriverApiTest, LoadsPtxAndLaunchesWithParametersOrABuffer) {
  CUmodule module = nullptr;
  ASSERT_EQ(cuModuleLoadData(&module, ptx_.c_str()), CUDA_SUCCESS);
  CUfunction kernel = nullptr;
  ASSERT_EQ(cuModuleGetFunction(&kernel, module, "scale_add"), CUDA_SUCCESS);
  const unsigned n = 1000;
  std::vector<float> input(n), output(n, -1.0f);
  for (unsigned i = 0; i < n; ++i)
    input[i] = static_cast<float>(i);
  CUdeviceptr in = 0, out = 0;
  ASSERT_EQ(cuMemAlloc(&in, n * sizeof(float)), CUDA_SUCCESS);
  ASSERT_EQ(cuMemAlloc(&out, n * sizeof(float)), CUDA_SUCCESS);
  ASSERT_EQ(cuMemcpyHtoD(in, input.data(), n * sizeof(float)), CUDA_SUCCESS);
  float scale = 2.0f, offset = 0.5f;
  unsigned count = n;
  void* args[] = {&out, &in, &scale, &offset, &count};
  ASSERT_EQ(cuLaunchKernel(kernel, (n + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, args, nullptr),
            CUDA_SUCCESS);
  ASSERT_EQ(cuMemcpyDtoH(output.data(), out, n * sizeof(float)), CUDA_SUCCESS);
  for (unsigned i = 0; i < n; ++i)
    ASSERT_EQ(output[i], 2.0f * static_cast<float>(i) + 0.5f) << i;

  // The same launch with the parameters packed into one buffer (CU_LAUNCH_PARAM_BUFFER_POINTER),
  // laid out as the kernel declares them: two pointers, two floats, an unsigned.
  struct {
    CUdeviceptr out, in;
    float scale, offset;
    unsigned n;
  } packed{out, in, 3.0f, -1.0f, n};
  size_t size = sizeof packed;
  void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &packed, CU_LAUNCH_PARAM_BUFFER_SIZE, &size,
                   CU_LAUNCH_PARAM_END};
  ASSERT_EQ(cuLaunchKernel(kernel, (n + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, nullptr, extra),
            CUDA_SUCCESS);
  ASSERT_EQ(cuMemcpyDtoH(output.data(), out, n * sizeof(float)), CUDA_SUCCESS);
  for (unsigned i = 0; i < n; ++i)
    ASSERT_EQ(output[i], 3.0f * static_cast<float>(i) - 1.0f) << i;

  // cuLaunchKernelEx and a created stream.
  CUstream stream = nullptr;
  ASSERT_EQ(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), CUDA_SUCCESS);
  CUlaunchConfig config{};
  config.gridDimX = (n + 127) / 128;
  config.gridDimY = config.gridDimZ = 1;
  config.blockDimX = 128;
  config.blockDimY = config.blockDimZ = 1;
  config.hStream = stream;
  scale = 1.0f;
  offset = 4.0f;
  ASSERT_EQ(cuLaunchKernelEx(&config, kernel, args, nullptr), CUDA_SUCCESS);
  ASSERT_EQ(cuMemcpyDtoHAsync(output.data(), out, n * sizeof(float), stream), CUDA_SUCCESS);
  ASSERT_EQ(cuStreamSynchronize(stream), CUDA_SUCCESS);
  for (unsigned i = 0; i < n; ++i)
    ASSERT_EQ(output[i], static_cast<float>(i) + 4.0f) << i;
  EXPECT_EQ(cuStreamDestroy(stream), CUDA_SUCCESS);

  const char* name = nullptr;
  EXPECT_EQ(cuFuncGetName(&name, kernel), CUDA_SUCCESS);
  EXPECT_STREQ(name, "scale_add");
  size_t paramOffset = 0, paramSize = 0;
  EXPECT_EQ(cuFuncGetParamInfo(kernel, 2, &paramOffset, &paramSize), CUDA_SUCCESS);
  EXPECT_EQ(paramOffset, 16u); // after two pointers
  EXPECT_EQ(paramSize, sizeof(float));
  int blocks = 0;
  EXPECT_EQ(cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, 128, 0), CUDA_SUCCESS);
  EXPECT_GT(blocks, 0);
  // A host function after the work on a stream runs once the work before it has.
  std::atomic<int> calls{0};
  ASSERT_EQ(cuLaunchHostFunc(
                nullptr, [](void* data) { ++*static_cast<std::atomic<int>*>(data); }, &calls),
            CUDA_SUCCESS);
  ASSERT_EQ(cuCtxSynchronize(), CUDA_SUCCESS);
  EXPECT_EQ(calls.load(), 1);
  EXPECT_EQ(cuMemFree(in), CUDA_SUCCESS);
  EXPECT_EQ(cuMemFree(out), CUDA_SUCCESS);
  EXPECT_EQ(cuModuleUnload(module), CUDA_SUCCESS);
}

TEST_F(DriverApiTest, GlobalsMemsetAndEvents) {
  CUmodule module = nullptr;
  ASSERT_EQ(cuModuleLoadData(&module, ptx_.c_str()), CUDA_SUCCESS);
  CUdeviceptr counter = 0;
  size_t bytes = 0;
  ASSERT_EQ(cuModuleGetGlobal(&counter, &bytes, module, "counter"), CUDA_SUCCESS);
  EXPECT_EQ(bytes, sizeof(unsigned));
  unsigned value = 0;
  ASSERT_EQ(cuMemcpyDtoH(&value, counter, sizeof value), CUDA_SUCCESS);
  EXPECT_EQ(value, 7u);
  ASSERT_EQ(cuMemsetD32(counter, 0x12345678u, 1), CUDA_SUCCESS);

  CUfunction kernel = nullptr;
  ASSERT_EQ(cuModuleGetFunction(&kernel, module, "read_counter"), CUDA_SUCCESS);
  CUdeviceptr out = 0;
  ASSERT_EQ(cuMemAlloc(&out, 16), CUDA_SUCCESS);
  ASSERT_EQ(cuMemsetD8(out, 0xab, 16), CUDA_SUCCESS);
  CUevent start = nullptr, end = nullptr;
  ASSERT_EQ(cuEventCreate(&start, CU_EVENT_DEFAULT), CUDA_SUCCESS);
  ASSERT_EQ(cuEventCreate(&end, CU_EVENT_DEFAULT), CUDA_SUCCESS);
  ASSERT_EQ(cuEventRecord(start, nullptr), CUDA_SUCCESS);
  void* args[] = {&out};
  ASSERT_EQ(cuLaunchKernel(kernel, 1, 1, 1, 1, 1, 1, 0, nullptr, args, nullptr), CUDA_SUCCESS);
  ASSERT_EQ(cuEventRecord(end, nullptr), CUDA_SUCCESS);
  ASSERT_EQ(cuEventSynchronize(end), CUDA_SUCCESS);
  float milliseconds = -1.0f;
  EXPECT_EQ(cuEventElapsedTime(&milliseconds, start, end), CUDA_SUCCESS);
  EXPECT_GE(milliseconds, 0.0f);
  unsigned words[4] = {};
  ASSERT_EQ(cuMemcpyDtoH(words, out, sizeof words), CUDA_SUCCESS);
  EXPECT_EQ(words[0], 0x12345678u);
  EXPECT_EQ(words[1], 0xababababu);
  EXPECT_EQ(cuModuleGetGlobal(&counter, &bytes, module, "no_such_variable"), CUDA_ERROR_NOT_FOUND);
  EXPECT_EQ(cuEventDestroy(start), CUDA_SUCCESS);
  EXPECT_EQ(cuEventDestroy(end), CUDA_SUCCESS);
  EXPECT_EQ(cuMemFree(out), CUDA_SUCCESS);
  EXPECT_EQ(cuModuleUnload(module), CUDA_SUCCESS);
}

TEST_F(DriverApiTest, LibrariesAndKernels) {
  CUlibrary library = nullptr;
  ASSERT_EQ(cuLibraryLoadData(&library, ptx_.c_str(), nullptr, nullptr, 0, nullptr, nullptr, 0),
            CUDA_SUCCESS);
  CUkernel kernel = nullptr;
  ASSERT_EQ(cuLibraryGetKernel(&kernel, library, "read_counter"), CUDA_SUCCESS);
  CUfunction function = nullptr;
  ASSERT_EQ(cuKernelGetFunction(&function, kernel), CUDA_SUCCESS);
  CUdeviceptr out = 0;
  ASSERT_EQ(cuMemAlloc(&out, sizeof(unsigned)), CUDA_SUCCESS);
  void* args[] = {&out};
  ASSERT_EQ(cuLaunchKernel(function, 1, 1, 1, 1, 1, 1, 0, nullptr, args, nullptr), CUDA_SUCCESS);
  unsigned value = 0;
  ASSERT_EQ(cuMemcpyDtoH(&value, out, sizeof value), CUDA_SUCCESS);
  EXPECT_EQ(value, 7u);
  EXPECT_EQ(cuLibraryGetKernel(&kernel, library, "missing"), CUDA_ERROR_NOT_FOUND);
  EXPECT_EQ(cuMemFree(out), CUDA_SUCCESS);
  EXPECT_EQ(cuLibraryUnload(library), CUDA_SUCCESS);
  EXPECT_EQ(cuLibraryUnload(library), CUDA_ERROR_INVALID_HANDLE);
}

TEST_F(DriverApiTest, OnePtxThroughTheLinkerLoadsAsPtx) {
  // Numba's path: PTX into cuLinkAddData, the "cubin" of cuLinkComplete into cuModuleLoadDataEx.
  std::string ptx = storeKernel(77);
  CUlinkState link = nullptr;
  ASSERT_EQ(cuLinkCreate(0, nullptr, nullptr, &link), CUDA_SUCCESS);
  ASSERT_EQ(cuLinkAddData(link, CU_JIT_INPUT_PTX, ptx.data(), ptx.size(), "store.ptx", 0, nullptr,
                          nullptr),
            CUDA_SUCCESS);
  void* image = nullptr;
  size_t size = 0;
  ASSERT_EQ(cuLinkComplete(link, &image, &size), CUDA_SUCCESS);
  ASSERT_GT(size, ptx.size());
  CUmodule module = nullptr;
  ASSERT_EQ(cuModuleLoadDataEx(&module, image, 0, nullptr, nullptr), CUDA_SUCCESS);
  EXPECT_EQ(cuLinkDestroy(link), CUDA_SUCCESS);
  EXPECT_EQ(runStore(module), 77u); // the module keeps its own copy of the image
  EXPECT_EQ(cuModuleUnload(module), CUDA_SUCCESS);

  // Two inputs need a real linker: not on the CPU device, and the process goes on.
  ASSERT_EQ(cuLinkCreate(0, nullptr, nullptr, &link), CUDA_SUCCESS);
  ASSERT_EQ(
      cuLinkAddData(link, CU_JIT_INPUT_PTX, ptx.data(), ptx.size(), "a.ptx", 0, nullptr, nullptr),
      CUDA_SUCCESS);
  ASSERT_EQ(
      cuLinkAddData(link, CU_JIT_INPUT_PTX, ptx.data(), ptx.size(), "b.ptx", 0, nullptr, nullptr),
      CUDA_SUCCESS);
  EXPECT_EQ(cuLinkComplete(link, &image, &size), CUDA_ERROR_NOT_SUPPORTED);
  EXPECT_EQ(cuLinkDestroy(link), CUDA_SUCCESS);
  EXPECT_EQ(cuLinkDestroy(link), CUDA_ERROR_INVALID_HANDLE);
}

TEST_F(DriverApiTest, MalformedPtxIsRefusedAndTheProcessGoesOn) {
  // Cut off in the middle of a function: no parser, Ocelot's or the driver's, takes it.
  std::string broken = ptx_.substr(0, ptx_.find("$L__done:"));
  CUmodule module = nullptr;
  EXPECT_EQ(cuModuleLoadData(&module, broken.c_str()), CUDA_ERROR_INVALID_PTX);
  EXPECT_EQ(module, nullptr);
  EXPECT_EQ(cuModuleLoadData(&module, "not an image at all"), CUDA_ERROR_INVALID_IMAGE);
  EXPECT_EQ(cuModuleLoadData(&module, nullptr), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuModuleLoadData(&module, ""), CUDA_ERROR_INVALID_IMAGE); // nothing read past the NUL
  EXPECT_EQ(cuModuleLoadData(&module, "\x7f"), CUDA_ERROR_INVALID_IMAGE);
  // Nothing was lost: a good module still loads and runs.
  std::string good = storeKernel(42);
  ASSERT_EQ(cuModuleLoadData(&module, good.c_str()), CUDA_SUCCESS);
  EXPECT_EQ(runStore(module), 42u);
  EXPECT_EQ(cuModuleUnload(module), CUDA_SUCCESS);
}

TEST_F(DriverApiTest, CubinForAnotherArchitecture) {
  const std::string path = OCELOT_DRIVERAPI_CUBIN;
  if (path.empty())
    GTEST_SKIP() << "ptxas was not found at configuration time";
  std::string cubin = readFile(path.c_str());
  ASSERT_GT(cubin.size(), 64u);
  CUmodule module = nullptr;
  // The CPU device runs PTX only: an sm_90 cubin is code for another architecture.
  EXPECT_EQ(cuModuleLoadData(&module, cubin.data()), CUDA_ERROR_NO_BINARY_FOR_GPU);
  std::string good = storeKernel(5);
  ASSERT_EQ(cuModuleLoadData(&module, good.c_str()), CUDA_SUCCESS);
  EXPECT_EQ(runStore(module), 5u);
  EXPECT_EQ(cuModuleUnload(module), CUDA_SUCCESS);
}

TEST_F(DriverApiTest, OneKernelNameInTwoModules) {
  std::string first = storeKernel(1), second = storeKernel(2);
  CUmodule a = nullptr, b = nullptr, again = nullptr;
  ASSERT_EQ(cuModuleLoadData(&a, first.c_str()), CUDA_SUCCESS);
  ASSERT_EQ(cuModuleLoadData(&b, second.c_str()), CUDA_SUCCESS);
  ASSERT_EQ(cuModuleLoadData(&again, first.c_str()), CUDA_SUCCESS);
  EXPECT_NE(a, b);
  EXPECT_NE(a, again);
  EXPECT_EQ(runStore(a), 1u);
  EXPECT_EQ(runStore(b), 2u);
  EXPECT_EQ(runStore(again), 1u);
  EXPECT_EQ(cuModuleUnload(a), CUDA_SUCCESS);
  // The other modules of the same kernel name are untouched by the unload.
  EXPECT_EQ(runStore(b), 2u);
  EXPECT_EQ(runStore(again), 1u);
  EXPECT_EQ(cuModuleUnload(b), CUDA_SUCCESS);
  EXPECT_EQ(cuModuleUnload(again), CUDA_SUCCESS);
}

TEST_F(DriverApiTest, InstrumentedLikeRegisteredKernelsAndUnloadKeepsPendingProfiles) {
  std::atomic<int> instrumented{0}, profiles{0};
  ocelot::SubscriptionHandle subscription =
      ocelot::subscribe([&](const std::shared_ptr<const ocelot::KernelProfile>& profile) {
        ++profiles;
        if (profile->instrumented() && profile->kernelName() == "scale_add")
          ++instrumented;
      });
  ASSERT_NE(ocelot::addInstrumentor("bbcount"), 0u);

  CUmodule module = nullptr;
  ASSERT_EQ(cuModuleLoadData(&module, ptx_.c_str()), CUDA_SUCCESS);
  CUfunction kernel = nullptr;
  ASSERT_EQ(cuModuleGetFunction(&kernel, module, "scale_add"), CUDA_SUCCESS);
  const unsigned n = 256;
  CUdeviceptr in = 0, out = 0;
  ASSERT_EQ(cuMemAlloc(&in, n * sizeof(float)), CUDA_SUCCESS);
  ASSERT_EQ(cuMemAlloc(&out, n * sizeof(float)), CUDA_SUCCESS);
  ASSERT_EQ(cuMemsetD32(in, 0x3f800000u, n), CUDA_SUCCESS); // 1.0f
  CUstream stream = nullptr;
  ASSERT_EQ(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), CUDA_SUCCESS);
  float scale = 2.0f, offset = 1.0f;
  unsigned count = n;
  void* args[] = {&out, &in, &scale, &offset, &count};
  const int launches = 8;
  for (int i = 0; i < launches; ++i)
    ASSERT_EQ(cuLaunchKernel(kernel, n / 64, 1, 1, 64, 1, 1, 0, stream, args, nullptr),
              CUDA_SUCCESS);
  // Unloaded while the launches (and their profiles) may still be on their way: none is lost.
  EXPECT_EQ(cuModuleUnload(module), CUDA_SUCCESS);
  ocelot::flushProfiles();
  EXPECT_EQ(instrumented.load(), launches);
  float first = 0.0f;
  ASSERT_EQ(cuMemcpyDtoH(&first, out, sizeof first), CUDA_SUCCESS);
  EXPECT_EQ(first, 3.0f);
  // The unloaded module's function is gone.
  EXPECT_EQ(cuLaunchKernel(kernel, 1, 1, 1, 1, 1, 1, 0, stream, args, nullptr),
            CUDA_ERROR_INVALID_HANDLE);
  EXPECT_EQ(cuModuleUnload(module), CUDA_ERROR_INVALID_HANDLE);
  EXPECT_TRUE(ocelot::unsubscribe(subscription));
  EXPECT_EQ(cuStreamDestroy(stream), CUDA_SUCCESS);
  EXPECT_EQ(cuMemFree(in), CUDA_SUCCESS);
  EXPECT_EQ(cuMemFree(out), CUDA_SUCCESS);
}

TEST_F(DriverApiTest, ProcAddressAndErrors) {
  void* function = nullptr;
  CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  ASSERT_EQ(cuGetProcAddress("cuMemAlloc", &function, 13000, CU_GET_PROC_ADDRESS_DEFAULT, &status),
            CUDA_SUCCESS);
  EXPECT_EQ(status, CU_GET_PROC_ADDRESS_SUCCESS);
  EXPECT_EQ(function, reinterpret_cast<void*>(&cuMemAlloc));
  ASSERT_EQ(
      cuGetProcAddress("cuCtxSynchronize", &function, 13000, CU_GET_PROC_ADDRESS_DEFAULT, &status),
      CUDA_SUCCESS);
  EXPECT_EQ(function, reinterpret_cast<void*>(&cuCtxSynchronize_v2));
  ASSERT_EQ(
      cuGetProcAddress("cuLaunchKernel", &function, 13000, CU_GET_PROC_ADDRESS_DEFAULT, &status),
      CUDA_SUCCESS);
  EXPECT_EQ(function, reinterpret_cast<void*>(&cuLaunchKernel));
  ASSERT_EQ(cuGetProcAddress("cuLaunchKernel", &function, 13000,
                             CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, &status),
            CUDA_SUCCESS);
  EXPECT_NE(function, reinterpret_cast<void*>(&cuLaunchKernel)); // the per-thread-stream variant
  ASSERT_EQ(
      cuGetProcAddress("cuCtxSynchronize", &function, 12080, CU_GET_PROC_ADDRESS_DEFAULT, &status),
      CUDA_SUCCESS);
  EXPECT_EQ(function, reinterpret_cast<void*>(static_cast<CUresult (*)(void)>(&cuCtxSynchronize)));
  EXPECT_EQ(
      cuGetProcAddress("cuNoSuchFunction", &function, 13000, CU_GET_PROC_ADDRESS_DEFAULT, &status),
      CUDA_ERROR_NOT_FOUND);
  EXPECT_EQ(status, CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);

  const char* text = nullptr;
  EXPECT_EQ(cuGetErrorName(CUDA_ERROR_INVALID_PTX, &text), CUDA_SUCCESS);
  EXPECT_STREQ(text, "CUDA_ERROR_INVALID_PTX");
  EXPECT_EQ(cuGetErrorString(CUDA_ERROR_INVALID_VALUE, &text), CUDA_SUCCESS);
  EXPECT_STREQ(text, "invalid argument");
  EXPECT_EQ(cuGetErrorName(static_cast<CUresult>(12345), &text), CUDA_ERROR_INVALID_VALUE);
}

TEST_F(DriverApiTest, FunctionsTheShimDoesNotImplementAreNotSupportedOnTheCpuDevice) {
  // Generated forwarders: without NVIDIA's driver they answer CUDA_ERROR_NOT_SUPPORTED (twice:
  // the first call resolves, the second takes the resolved target) and leave the output alone.
  for (int call = 0; call < 2; ++call) {
    CUdeviceptr pointer = 0x1234;
    size_t pitch = 99;
    EXPECT_EQ(cuMemAllocPitch(&pointer, &pitch, 64, 64, 4), CUDA_ERROR_NOT_SUPPORTED);
    EXPECT_EQ(pointer, 0x1234u);
    EXPECT_EQ(pitch, 99u);
  }
  const void* table = nullptr;
  CUuuid id{};
  EXPECT_EQ(cuGetExportTable(&table, &id), CUDA_ERROR_NOT_SUPPORTED);
  // The process goes on: the shim's own functions still work.
  CUdeviceptr memory = 0;
  EXPECT_EQ(cuMemAlloc(&memory, 64), CUDA_SUCCESS);
  EXPECT_EQ(cuMemFree(memory), CUDA_SUCCESS);
}

} // namespace
