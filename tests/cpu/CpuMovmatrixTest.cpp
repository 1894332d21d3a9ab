// movmatrix.sync.aligned.m8n8.trans.b16: the 8x8 matrix of 16-bit elements the warp holds (lane l:
// row l/4, columns 2(l%4) and 2(l%4)+1, low half first) comes back transposed in the same layout.

#include "InstructionTestSupport.h"

namespace ocelot::runtime::cpu::test {
namespace {

class MovmatrixTest : public InstructionTest {};

/// Element (r, c) of the matrix the test kernel builds: distinct in every bit position.
uint64_t element(uint32_t r, uint32_t c) {
  return 0x1000u * r + 0x11u * c + 0x8000u * ((r + c) & 1);
}

TEST_F(MovmatrixTest, TransposesTheWarpsMatrix) {
  std::vector<std::pair<uint64_t, uint64_t>> inputs;
  for (uint32_t lane = 0; lane < 32; ++lane) {
    const uint32_t r = lane / 4, c = 2 * (lane % 4);
    inputs.emplace_back(element(r, c) | (element(r, c + 1) << 16), 0);
  }
  check("movmatrix.sync.aligned.m8n8.trans.b16 %r4, %r11; cvt.u64.u32 %rd10, %r4;", inputs,
        [](uint64_t, uint64_t, uint32_t lane) {
          const uint32_t r = lane / 4, c = 2 * (lane % 4);
          return element(c, r) | (element(c + 1, r) << 16);
        });
}

} // namespace
} // namespace ocelot::runtime::cpu::test
