#pragma once

#include "DeviceCalls.h"
#include "runtime/cpu/CpuDevice.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace ocelot::runtime::cpu::test {

using runtime::test::DeviceCalls;

/// A CPU device of its own for each test, with helpers to load PTX and launch kernels.
class CpuDeviceTest : public ::testing::Test {
protected:
  void SetUp() override {
#ifdef OCELOT_CPU_LLVM_COMPONENT
    setenv("OCELOT_CPU_LLVM_LIBRARY", OCELOT_CPU_LLVM_COMPONENT, 0);
#endif
    std::string error;
    device_ = CpuDevice::create(&error);
    ASSERT_TRUE(device_) << error;
    calls_ = std::make_unique<DeviceCalls>(*device_);
  }

  /// Loads `ptx` and returns kernel `name` (null with a test failure when either fails).
  DeviceFunction load(const std::string& ptx, const char* name, std::string* log = nullptr) {
    ModuleImage image;
    image.form = ModuleImage::Form::Ptx;
    image.ptx = {ptx};
    image.label = "test module";
    DeviceModule module = nullptr;
    std::string message;
    const cudaError_t loaded = device_->loadModule(image, &module, &message);
    if (log != nullptr)
      *log = message;
    if (loaded != cudaSuccess) {
      ADD_FAILURE() << "module does not load: " << message;
      return nullptr;
    }
    DeviceFunction function = nullptr;
    EXPECT_EQ(device_->function(module, name, &function), cudaSuccess) << name;
    return function;
  }

  static std::string readFile(const std::string& relative) {
    std::ifstream in(std::string(OCELOT_SOURCE_DIR) + "/" + relative);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

  /// The nvcc-generated PTX of tests/cpu/ptx/kernels.cu (built into the build tree).
  static const std::string& kernelsPtx() {
    static const std::string text = [] {
      std::ifstream in(OCELOT_CPU_KERNELS_PTX);
      std::stringstream content;
      content << in.rdbuf();
      return content.str();
    }();
    return text;
  }

  /// The nvcc-generated PTX of tests/cpu/ptx/semantics.cu.
  static const std::string& semanticsPtx() {
    static const std::string text = [] {
      std::ifstream in(OCELOT_CPU_SEMANTICS_PTX);
      std::stringstream content;
      content << in.rdbuf();
      return content.str();
    }();
    return text;
  }

  template <class... Args>
  cudaError_t launch(DeviceFunction function, dim3 grid, dim3 block, size_t shared, Args... args) {
    void* pointers[] = {static_cast<void*>(&args)..., nullptr};
    LaunchParams params;
    params.function = function;
    params.grid = grid;
    params.block = block;
    params.sharedMem = shared;
    params.args = pointers;
    params.stream = calls_->stream(nullptr);
    return device_->launch(params);
  }

  template <class T> T* allocate(size_t count) {
    void* pointer = nullptr;
    EXPECT_EQ(device_->allocate(&pointer, count * sizeof(T)), cudaSuccess);
    return static_cast<T*>(pointer);
  }

  std::unique_ptr<CpuDevice> device_;
  /// The device's calls by handle (declared after the device: it goes first).
  std::unique_ptr<DeviceCalls> calls_;
};

} // namespace ocelot::runtime::cpu::test
