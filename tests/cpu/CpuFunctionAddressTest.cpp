// Function addresses on the CPU device have the GPU's semantics (docs/cpu-backend.md): a
// function's address belongs to the module that took it, and an indirect call resolves it
// relative to the calling module. Identical modules agree; a module with another code layout (an
// instrumented copy) faults clearly instead of calling something.
#include "CpuDeviceFixture.h"

#include <cstdint>
#include <string>

namespace ocelot::runtime::cpu::test {
namespace {

// `take` stores the address of `twice` and `thrice` (one through the table); `call_through`
// calls the pointer it is given with 21. EXTRA is replaced by extra instructions in `take`.
const char* kModule = R"(
.version 8.0
.target sm_90
.address_size 64

.func (.param .b32 r) twice(.param .b32 x)
{
  .reg .b32 %r<3>;
  ld.param.b32 %r1, [x];
  add.s32 %r2, %r1, %r1;
  st.param.b32 [r], %r2;
  ret;
}

.func (.param .b32 r) thrice(.param .b32 x)
{
  .reg .b32 %r<3>;
  ld.param.b32 %r1, [x];
  mul.lo.s32 %r2, %r1, 3;
  st.param.b32 [r], %r2;
  ret;
}

.global .align 8 .u64 table[2] = {twice, thrice};

.visible .entry take(.param .u64 out)
{
  .reg .b64 %rd<6>;
  .reg .b32 %r<2>;
  EXTRA
  ld.param.u64 %rd1, [out];
  mov.u64 %rd2, twice;
  st.global.u64 [%rd1], %rd2;
  mov.u64 %rd3, table;
  ld.global.u64 %rd4, [%rd3+8];
  st.global.u64 [%rd1+8], %rd4;
  ret;
}

.visible .entry call_through(.param .u64 fn, .param .u64 out)
{
  .reg .b64 %rd<3>;
  .reg .b32 %r<2>;
  ld.param.u64 %rd1, [fn];
  ld.param.u64 %rd2, [out];
  {
  .param .b32 arg;
  st.param.b32 [arg], 21;
  .param .b32 ret0;
  proto : .callprototype (.param .b32 _) _ (.param .b32 _);
  call (ret0), %rd1, (arg), proto;
  ld.param.b32 %r1, [ret0];
  }
  st.global.u32 [%rd2], %r1;
  ret;
}
)";

std::string moduleText(const std::string& extra) {
  std::string text = kModule;
  text.replace(text.find("EXTRA"), 5, extra);
  return text;
}

class CpuFunctionAddressTest : public CpuDeviceTest {
protected:
  /// Loads the module (with `extra` in `take`); returns its two kernels.
  void loadModule(const std::string& extra, DeviceFunction* take, DeviceFunction* call) {
    const std::string text = moduleText(extra);
    *take = load(text, "take");
    *call = load(text, "call_through");
  }
  /// The addresses `take` produces: {twice, thrice}.
  void addresses(DeviceFunction take, uint64_t values[2]) {
    auto* out = allocate<uint64_t>(2);
    ASSERT_EQ(launch(take, dim3(1), dim3(1), 0, out), cudaSuccess);
    ASSERT_EQ(device_->synchronize(), cudaSuccess);
    ASSERT_EQ(device_->copy(values, out, 2 * sizeof(uint64_t), nullptr, false), cudaSuccess);
  }
  /// What `call` returns when it calls through `pointer`.
  cudaError_t callThrough(DeviceFunction call, uint64_t pointer, int* result) {
    auto* out = allocate<int>(1);
    if (cudaError_t error = launch(call, dim3(1), dim3(1), 0, pointer, out); error != cudaSuccess)
      return error;
    if (cudaError_t error = device_->synchronize(); error != cudaSuccess)
      return error;
    return device_->copy(result, out, sizeof(int), nullptr, false);
  }
};

TEST_F(CpuFunctionAddressTest, IdenticalModulesGiveTheSameAddressesAndCallEachOthers) {
  DeviceFunction takeA = nullptr, callA = nullptr, takeB = nullptr, callB = nullptr;
  loadModule("", &takeA, &callA);
  loadModule("", &takeB, &callB);
  uint64_t a[2] = {}, b[2] = {};
  addresses(takeA, a);
  addresses(takeB, b);
  EXPECT_NE(a[0], 0u);
  EXPECT_NE(a[0], a[1]);
  EXPECT_EQ(a[0], b[0]); // as a GPU gives the same small offsets for the same PTX
  EXPECT_EQ(a[1], b[1]);
  int result = 0;
  ASSERT_EQ(callThrough(callA, a[0], &result), cudaSuccess);
  EXPECT_EQ(result, 42);
  ASSERT_EQ(callThrough(callB, a[1], &result), cudaSuccess); // taken in A, called in B
  EXPECT_EQ(result, 63);
}

TEST_F(CpuFunctionAddressTest, ModulesWithAnotherLayoutGiveOtherAddresses) {
  DeviceFunction takeA = nullptr, callA = nullptr, takeC = nullptr, callC = nullptr;
  loadModule("", &takeA, &callA);
  loadModule("mov.u32 %r1, %tid.x;", &takeC, &callC); // one more instruction in a kernel
  uint64_t a[2] = {}, c[2] = {};
  addresses(takeA, a);
  addresses(takeC, c);
  EXPECT_NE(a[0], c[0]);
  EXPECT_NE(a[1], c[1]);
  int result = 0;
  ASSERT_EQ(callThrough(callC, c[0], &result), cudaSuccess); // its own addresses work
  EXPECT_EQ(result, 42);
}

TEST_F(CpuFunctionAddressTest, AnAddressFromAnotherLayoutFaultsInsteadOfCallingSomething) {
  DeviceFunction takeA = nullptr, callA = nullptr, takeC = nullptr, callC = nullptr;
  loadModule("", &takeA, &callA);
  loadModule("mov.u32 %r1, %tid.x;", &takeC, &callC);
  uint64_t a[2] = {};
  addresses(takeA, a);
  int result = 0;
  EXPECT_EQ(callThrough(callC, a[0], &result), cudaErrorIllegalInstruction);
  const std::string message = device_->faultMessage();
  EXPECT_NE(message.find("kernel call_through"), std::string::npos) << message;
  EXPECT_NE(message.find("not the address of a function of this module"), std::string::npos)
      << message;
}

TEST_F(CpuFunctionAddressTest, NullAndGarbagePointersFault) {
  DeviceFunction take = nullptr, call = nullptr;
  loadModule("", &take, &call);
  int result = 0;
  EXPECT_EQ(callThrough(call, 0, &result), cudaErrorIllegalInstruction);
}

} // namespace
} // namespace ocelot::runtime::cpu::test
