// Ocelot's libnvJitLink.so.13 (runtime/driverapi/nvjitlink), loaded by path as cuda.bindings does,
// in front of the toolkit's libnvJitLink.so.13 ($OCELOT_REAL_NVJITLINK) or of none. Each test runs
// in its own process (gtest_discover_tests), so each chooses the real library through the
// environment before the shim's first call.

#define NVJITLINK_NO_INLINE
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <nvJitLink.h>
#include <nvrtc.h>
#include <string>
#include <vector>

namespace {

const char* const kKernelA = ".version 8.0\n.target sm_90\n.address_size 64\n"
                             ".visible .entry ocelot_a()\n{\n  ret;\n}\n";
const char* const kKernelB = ".version 8.0\n.target sm_90\n.address_size 64\n"
                             ".visible .entry ocelot_b()\n{\n  ret;\n}\n";
const char* const kBrokenPtx = ".version 8.0\n.target sm_90\n.address_size 64\n"
                               ".visible .entry broken()\n{\n  add.u32 %nothing, 1, 2;\n}\n";

/// The shim's functions, from the library loaded by path.
struct Shim {
  decltype(&__nvJitLinkCreate_13_0) create = nullptr;
  decltype(&__nvJitLinkDestroy_13_0) destroy = nullptr;
  decltype(&__nvJitLinkAddData_13_0) addData = nullptr;
  decltype(&__nvJitLinkComplete_13_0) complete = nullptr;
  decltype(&__nvJitLinkGetLinkedCubinSize_13_0) cubinSize = nullptr;
  decltype(&__nvJitLinkGetLinkedCubin_13_0) cubin = nullptr;
  decltype(&__nvJitLinkGetErrorLogSize_13_0) errorLogSize = nullptr;
  decltype(&__nvJitLinkGetErrorLog_13_0) errorLog = nullptr;
  decltype(&nvJitLinkVersion) version = nullptr;
  void* library = nullptr;

  template <class F> void bind(const char* name, F* function) {
    *function = reinterpret_cast<F>(::dlsym(library, name));
    ASSERT_NE(*function, nullptr) << name;
  }
  void load() {
    library = ::dlopen(OCELOT_NVJITLINK_SHIM_FILE, RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(library, nullptr) << ::dlerror();
    // The plain names, as cuda.bindings looks them up.
    bind("nvJitLinkCreate", &create);
    bind("nvJitLinkDestroy", &destroy);
    bind("nvJitLinkAddData", &addData);
    bind("nvJitLinkComplete", &complete);
    bind("nvJitLinkGetLinkedCubinSize", &cubinSize);
    bind("nvJitLinkGetLinkedCubin", &cubin);
    bind("nvJitLinkGetErrorLogSize", &errorLogSize);
    bind("nvJitLinkGetErrorLog", &errorLog);
    bind("nvJitLinkVersion", &version);
  }

  /// Links `inputs` (PTX, or LTO-IR with -lto) for sm_90; the result's bytes, or the error and
  /// its log.
  nvJitLinkResult link(const std::vector<std::string>& inputs, std::string* image, std::string* log,
                       nvJitLinkInputType type = NVJITLINK_INPUT_PTX) {
    nvJitLinkHandle handle = nullptr;
    const char* options[] = {"-arch=sm_90", "-lto"};
    nvJitLinkResult result = create(&handle, type == NVJITLINK_INPUT_LTOIR ? 2 : 1, options);
    if (result != NVJITLINK_SUCCESS)
      return result;
    for (const std::string& input : inputs)
      if (result = addData(handle, type, input.data(), input.size(), "input");
          result != NVJITLINK_SUCCESS)
        break;
    if (result == NVJITLINK_SUCCESS)
      result = complete(handle);
    if (result == NVJITLINK_SUCCESS) {
      size_t size = 0;
      result = cubinSize(handle, &size);
      image->assign(size, '\0');
      if (result == NVJITLINK_SUCCESS)
        result = cubin(handle, image->data());
    } else {
      size_t size = 0;
      errorLogSize(handle, &size);
      log->assign(size, '\0');
      errorLog(handle, log->data());
    }
    EXPECT_EQ(destroy(&handle), NVJITLINK_SUCCESS);
    return result;
  }
};

/// LTO-IR of a kernel from NVRTC, as Numba-CUDA's NVVM emits it.
std::string ltoir() {
  const char* source =
      "extern \"C\" __global__ void ocelot_lto(int* out) { out[threadIdx.x] = 7; }";
  nvrtcProgram program = nullptr;
  EXPECT_EQ(nvrtcCreateProgram(&program, source, "lto.cu", 0, nullptr, nullptr), NVRTC_SUCCESS);
  const char* options[] = {"--gpu-architecture=compute_90", "-dlto"};
  EXPECT_EQ(nvrtcCompileProgram(program, 2, options), NVRTC_SUCCESS);
  size_t size = 0;
  nvrtcGetLTOIRSize(program, &size);
  std::string code(size, '\0');
  nvrtcGetLTOIR(program, code.data());
  nvrtcDestroyProgram(&program);
  return code;
}

bool isElf(const std::string& image) {
  return image.size() >= 4 && std::memcmp(image.data(), "\177ELF", 4) == 0;
}

class NvJitLinkShim : public ::testing::Test {
protected:
  void useNvidiasLibrary() { ::setenv("OCELOT_REAL_NVJITLINK", OCELOT_NVIDIA_NVJITLINK_FILE, 1); }
  void useNoLibrary() { ::setenv("OCELOT_REAL_NVJITLINK", "/nonexistent/libnvJitLink.so.13", 1); }
  void SetUp() override { ::unsetenv("OCELOT_NVJITLINK_PTX"); }
  Shim shim;
};

TEST_F(NvJitLinkShim, AOnePtxLinkHandsBackThePtxItself) {
  useNvidiasLibrary();
  ASSERT_NO_FATAL_FAILURE(shim.load());
  std::string image, log;
  ASSERT_EQ(shim.link({kKernelA}, &image, &log), NVJITLINK_SUCCESS) << log;
  EXPECT_EQ(image, std::string(kKernelA) + '\0'); // NUL-terminated, as loaders read PTX
}

TEST_F(NvJitLinkShim, NvidiasLinkStillRunsFirstSoItsErrorsAreTheCallers) {
  useNvidiasLibrary();
  ASSERT_NO_FATAL_FAILURE(shim.load());
  std::string image, log;
  EXPECT_EQ(shim.link({kBrokenPtx}, &image, &log), NVJITLINK_ERROR_PTX_COMPILE);
  EXPECT_NE(log.find("nothing"), std::string::npos) << log; // ptxas names the unknown register
}

TEST_F(NvJitLinkShim, WithPassThroughOffTheCallerGetsNvidiasCubin) {
  useNvidiasLibrary();
  ::setenv("OCELOT_NVJITLINK_PTX", "0", 1);
  ASSERT_NO_FATAL_FAILURE(shim.load());
  std::string image, log;
  ASSERT_EQ(shim.link({kKernelA}, &image, &log), NVJITLINK_SUCCESS) << log;
  EXPECT_TRUE(isElf(image));
}

TEST_F(NvJitLinkShim, ALinkOfSeveralInputsIsNvidias) {
  useNvidiasLibrary();
  ASSERT_NO_FATAL_FAILURE(shim.load());
  std::string image, log;
  ASSERT_EQ(shim.link({kKernelA, kKernelB}, &image, &log), NVJITLINK_SUCCESS) << log;
  EXPECT_TRUE(isElf(image));
}

TEST_F(NvJitLinkShim, AnLtoLinkHandsBackThePtxNvidiasLibraryEmitsForIt) {
  useNvidiasLibrary();
  ASSERT_NO_FATAL_FAILURE(shim.load());
  std::string image, log;
  ASSERT_EQ(shim.link({ltoir()}, &image, &log, NVJITLINK_INPUT_LTOIR), NVJITLINK_SUCCESS) << log;
  ASSERT_FALSE(isElf(image));
  EXPECT_NE(image.find(".entry ocelot_lto"), std::string::npos) << image.substr(0, 400);
  EXPECT_NE(image.find(".target sm_90"), std::string::npos);
  EXPECT_EQ(image.back(), '\0');
}

TEST_F(NvJitLinkShim, WithPassThroughOffAnLtoLinkGivesNvidiasCubin) {
  useNvidiasLibrary();
  ::setenv("OCELOT_NVJITLINK_PTX", "0", 1);
  ASSERT_NO_FATAL_FAILURE(shim.load());
  std::string image, log;
  ASSERT_EQ(shim.link({ltoir()}, &image, &log, NVJITLINK_INPUT_LTOIR), NVJITLINK_SUCCESS) << log;
  EXPECT_TRUE(isElf(image));
}

TEST_F(NvJitLinkShim, WithoutNvidiasLibraryAOnePtxLinkStillCompletes) {
  useNoLibrary();
  ASSERT_NO_FATAL_FAILURE(shim.load());
  std::string image, log;
  ASSERT_EQ(shim.link({kKernelA}, &image, &log), NVJITLINK_SUCCESS) << log;
  EXPECT_EQ(image, std::string(kKernelA) + '\0');
  unsigned major = 0, minor = 0;
  EXPECT_EQ(shim.version(&major, &minor), NVJITLINK_SUCCESS);
  EXPECT_EQ(major, 13u);
}

TEST_F(NvJitLinkShim, WithoutNvidiasLibraryOtherLinksFailAndSayWhy) {
  useNoLibrary();
  ASSERT_NO_FATAL_FAILURE(shim.load());
  std::string image, log;
  EXPECT_EQ(shim.link({kKernelA, kKernelB}, &image, &log), NVJITLINK_ERROR_INTERNAL);
  EXPECT_NE(log.find("OCELOT_REAL_NVJITLINK"), std::string::npos) << log;
}

TEST_F(NvJitLinkShim, BadHandlesAndArgumentsAreRefusedNotFollowed) {
  useNoLibrary();
  ASSERT_NO_FATAL_FAILURE(shim.load());
  int notALink = 0;
  auto bogus = reinterpret_cast<nvJitLinkHandle>(&notALink);
  EXPECT_EQ(shim.addData(bogus, NVJITLINK_INPUT_PTX, kKernelA, 10, "x"),
            NVJITLINK_ERROR_INVALID_INPUT);
  EXPECT_EQ(shim.complete(nullptr), NVJITLINK_ERROR_INVALID_INPUT);
  size_t size = 0;
  EXPECT_EQ(shim.cubinSize(bogus, &size), NVJITLINK_ERROR_INVALID_INPUT);
  EXPECT_EQ(shim.destroy(nullptr), NVJITLINK_ERROR_NULL_INPUT);
  EXPECT_EQ(shim.destroy(&bogus), NVJITLINK_ERROR_INVALID_INPUT);
  nvJitLinkHandle handle = nullptr;
  EXPECT_EQ(shim.create(&handle, 0, nullptr), NVJITLINK_ERROR_MISSING_ARCH);
  EXPECT_EQ(shim.create(nullptr, 0, nullptr), NVJITLINK_ERROR_NULL_INPUT);
  const char* options[] = {"-arch=sm_90"};
  ASSERT_EQ(shim.create(&handle, 1, options), NVJITLINK_SUCCESS);
  EXPECT_EQ(shim.addData(handle, NVJITLINK_INPUT_PTX, nullptr, 0, "x"), NVJITLINK_ERROR_NULL_INPUT);
  EXPECT_EQ(shim.cubinSize(handle, &size), NVJITLINK_ERROR_INTERNAL); // not linked yet
  EXPECT_EQ(shim.destroy(&handle), NVJITLINK_SUCCESS);
  EXPECT_EQ(handle, nullptr);
}

TEST_F(NvJitLinkShim, ExportsEveryFunctionOfNvidiasUnderBothNames) {
  ASSERT_NO_FATAL_FAILURE(shim.load());
  for (const char* name :
       {"Create", "Destroy", "AddData", "AddFile", "Complete", "GetLinkedCubinSize",
        "GetLinkedCubin", "GetLinkedPtxSize", "GetLinkedPtx", "GetErrorLogSize", "GetErrorLog",
        "GetInfoLogSize", "GetInfoLog"}) {
    std::string plain = std::string("nvJitLink") + name;
    std::string versioned = "__" + plain + "_13_0";
    EXPECT_NE(::dlsym(shim.library, plain.c_str()), nullptr) << plain;
    EXPECT_NE(::dlsym(shim.library, versioned.c_str()), nullptr) << versioned;
  }
  EXPECT_NE(::dlsym(shim.library, "nvJitLinkVersion"), nullptr);
}

} // namespace
