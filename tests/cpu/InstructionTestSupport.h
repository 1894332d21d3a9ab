#pragma once

// Support for instruction tests on small hand-written PTX kernels, each checked lane by lane
// against a C++ reference. Every kernel gets two 64-bit inputs per thread (%rd11, %rd12; their low
// halves in %r11, %r12 and as floats in %f11, %f12) and stores %rd10.

#include "CpuDeviceFixture.h"

#include <bit>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace ocelot::runtime::cpu::test {

inline std::string wrap(const std::string& body) {
  return R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out, .param .u64 in)
{
  .reg .b16 %h<16>;
  .reg .b32 %r<32>;
  .reg .b64 %rd<32>;
  .reg .f32 %f<32>;
  .reg .f64 %fd<16>;
  .reg .pred %p<8>;
  .shared .align 8 .b8 sdata[512];
  .local .align 8 .b8 ldata[64];
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [in];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 8;
  add.s64 %rd4, %rd1, %rd3;
  mul.wide.u32 %rd5, %r1, 16;
  add.s64 %rd6, %rd2, %rd5;
  ld.global.u64 %rd11, [%rd6];
  ld.global.u64 %rd12, [%rd6+8];
  cvt.u32.u64 %r11, %rd11;
  cvt.u32.u64 %r12, %rd12;
  mov.b32 %f11, %r11;
  mov.b32 %f12, %r12;
  mov.u64 %rd10, 0;
)" + body +
         R"(
  st.global.u64 [%rd4], %rd10;
  ret;
}
)";
}

inline uint64_t f32(float value) {
  return std::bit_cast<uint32_t>(value);
}
inline float asF32(uint64_t bits) {
  return std::bit_cast<float>(static_cast<uint32_t>(bits));
}

class InstructionTest : public CpuDeviceTest {
protected:
  using Reference = std::function<uint64_t(uint64_t a, uint64_t b, uint32_t lane)>;

  /// Runs `body` on 32 threads with inputs a[i], b[i] and compares with reference(a, b, lane).
  void check(const std::string& body, const std::vector<std::pair<uint64_t, uint64_t>>& inputs,
             const Reference& reference, uint32_t threads = 32) {
    DeviceFunction kernel = load(wrap(body), "k");
    ASSERT_NE(kernel, nullptr);
    uint64_t* in = allocate<uint64_t>(threads * 2);
    uint64_t* out = allocate<uint64_t>(threads);
    for (uint32_t i = 0; i < threads; ++i) {
      const auto& [a, b] = inputs[i % inputs.size()];
      in[2 * i] = a;
      in[2 * i + 1] = b;
    }
    ASSERT_EQ(launch(kernel, dim3(1), dim3(threads), 0, out, in), cudaSuccess);
    ASSERT_EQ(device_->synchronize(), cudaSuccess) << device_->faultMessage();
    for (uint32_t i = 0; i < threads; ++i) {
      const auto& [a, b] = inputs[i % inputs.size()];
      EXPECT_EQ(out[i], reference(a, b, i)) << "lane " << i << " a=" << a << " b=" << b << "\n"
                                            << body;
    }
  }
};

} // namespace ocelot::runtime::cpu::test
