// cudaGetErrorName / cudaGetErrorString: Ocelot's table against NVIDIA's library, code by code.

#include "runtime/core/ErrorTable.h"

#include <gtest/gtest.h>

#include <cstring>
#include <dlfcn.h>

namespace ocelot::runtime {
namespace {

TEST(ErrorTable, MatchesNvidiasLibraryForEveryCode) {
  std::string library = OCELOT_NVIDIA_CUDART;
  if (library.empty())
    GTEST_SKIP() << "NVIDIA's libcudart.so.13 was not found at configure time";
  void* handle = ::dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(handle, nullptr) << ::dlerror();
  // cudaError_t is passed as an int in the C ABI; calling through int keeps every code defined.
  using Lookup = const char* (*)(int);
  Lookup name = nullptr, string = nullptr;
  void* nameSymbol = ::dlsym(handle, "cudaGetErrorName");
  void* stringSymbol = ::dlsym(handle, "cudaGetErrorString");
  ASSERT_NE(nameSymbol, nullptr);
  ASSERT_NE(stringSymbol, nullptr);
  std::memcpy(&name, &nameSymbol, sizeof name);
  std::memcpy(&string, &stringSymbol, sizeof string);
  int known = 0;
  for (int code = -5; code <= 20000; ++code) {
    ASSERT_STREQ(errorName(code), name(code)) << "code " << code;
    ASSERT_STREQ(errorString(code), string(code)) << "code " << code;
    known += isKnownError(code);
  }
  EXPECT_EQ(known, 134); // cudaSuccess, the 132 errors of CUDA 13.0, cudaErrorApiFailureBase
  ::dlclose(handle);
}

TEST(ErrorTable, NamesAndUnknownCodes) {
  EXPECT_STREQ(errorName(cudaSuccess), "cudaSuccess");
  EXPECT_STREQ(errorString(cudaErrorInsufficientDriver),
               "CUDA driver version is insufficient for CUDA runtime version");
  EXPECT_STREQ(errorName(cudaErrorNoDevice), "cudaErrorNoDevice");
  EXPECT_STREQ(errorName(12345), "unrecognized error code");
  EXPECT_STREQ(errorString(-1), "unrecognized error code");
  EXPECT_TRUE(isStickyError(cudaErrorIllegalAddress));
  EXPECT_FALSE(isStickyError(cudaErrorInvalidValue));
}

} // namespace
} // namespace ocelot::runtime
