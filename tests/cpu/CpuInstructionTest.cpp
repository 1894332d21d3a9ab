// Instruction families on small hand-written PTX kernels, each checked lane by lane against a C++
// reference. Every kernel gets two 64-bit inputs per thread (%rd11, %rd12; their low halves in
// %r11, %r12 and as floats in %f11, %f12) and stores %rd10.

#include "InstructionTestSupport.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <functional>

namespace ocelot::runtime::cpu::test {
namespace {

const std::vector<std::pair<uint64_t, uint64_t>> kIntegers = {{1, 2},
                                                              {0xffffffffu, 1},
                                                              {0x7fffffffu, 0x7fffffffu},
                                                              {12345, 678},
                                                              {0x80000000u, 0xffffffffu},
                                                              {1000000007, 3},
                                                              {0, 0xdeadbeefu},
                                                              {42, 0x1f}};

TEST_F(InstructionTest, IntegerArithmetic) {
  check("add.s32 %r2, %r11, %r12; cvt.u64.u32 %rd10, %r2;", kIntegers,
        [](uint64_t a, uint64_t b, uint32_t) { return uint64_t{static_cast<uint32_t>(a + b)}; });
  check("add.sat.s32 %r2, %r11, %r12; cvt.s64.s32 %rd10, %r2;", kIntegers,
        [](uint64_t a, uint64_t b, uint32_t) {
          int64_t s = int64_t{static_cast<int32_t>(a)} + static_cast<int32_t>(b);
          s = std::clamp<int64_t>(s, INT32_MIN, INT32_MAX);
          return static_cast<uint64_t>(s);
        });
  check("mul.hi.u32 %r2, %r11, %r12; cvt.u64.u32 %rd10, %r2;", kIntegers,
        [](uint64_t a, uint64_t b, uint32_t) {
          return (uint64_t{static_cast<uint32_t>(a)} * static_cast<uint32_t>(b)) >> 32;
        });
  check("mul.wide.s32 %rd10, %r11, %r12;", kIntegers, [](uint64_t a, uint64_t b, uint32_t) {
    return static_cast<uint64_t>(int64_t{static_cast<int32_t>(a)} * static_cast<int32_t>(b));
  });
  check(
      "mad.lo.s32 %r2, %r11, %r12, 7; cvt.u64.u32 %rd10, %r2;", kIntegers,
      [](uint64_t a, uint64_t b, uint32_t) { return uint64_t{static_cast<uint32_t>(a * b + 7)}; });
  check("setp.ne.s32 %p1, %r12, 0; @%p1 rem.s32 %r2, %r11, %r12; @%p1 cvt.s64.s32 %rd10, %r2;",
        kIntegers, [](uint64_t a, uint64_t b, uint32_t) -> uint64_t {
          const auto x = static_cast<int32_t>(a), y = static_cast<int32_t>(b);
          if (y == 0)
            return 0;
          if (x == INT32_MIN && y == -1)
            return 0;
          return static_cast<uint64_t>(int64_t{x % y});
        });
  check("min.s32 %r2, %r11, %r12; max.u32 %r3, %r11, %r12; sub.s32 %r4, %r3, %r2; "
        "cvt.u64.u32 %rd10, %r4;",
        kIntegers, [](uint64_t a, uint64_t b, uint32_t) {
          const auto mn = std::min(static_cast<int32_t>(a), static_cast<int32_t>(b));
          const auto mx = std::max(static_cast<uint32_t>(a), static_cast<uint32_t>(b));
          return uint64_t{static_cast<uint32_t>(mx - static_cast<uint32_t>(mn))};
        });
}

TEST_F(InstructionTest, BitOperations) {
  check("popc.b32 %r2, %r11; clz.b32 %r3, %r12; shl.b32 %r3, %r3, 8; or.b32 %r2, %r2, %r3; "
        "cvt.u64.u32 %rd10, %r2;",
        kIntegers, [](uint64_t a, uint64_t b, uint32_t) {
          return uint64_t{static_cast<uint32_t>(std::popcount(static_cast<uint32_t>(a)) |
                                                (std::countl_zero(static_cast<uint32_t>(b)) << 8))};
        });
  check("brev.b32 %r2, %r11; cvt.u64.u32 %rd10, %r2;", kIntegers,
        [](uint64_t a, uint64_t, uint32_t) {
          uint32_t x = static_cast<uint32_t>(a), r = 0;
          for (int i = 0; i < 32; ++i)
            r |= ((x >> i) & 1u) << (31 - i);
          return uint64_t{r};
        });
  check("bfe.u32 %r2, %r11, 4, 8; bfi.b32 %r3, %r12, %r11, 8, 4; xor.b32 %r2, %r2, %r3; "
        "cvt.u64.u32 %rd10, %r2;",
        kIntegers, [](uint64_t a, uint64_t b, uint32_t) {
          const uint32_t x = static_cast<uint32_t>(a), y = static_cast<uint32_t>(b);
          const uint32_t field = (x >> 4) & 0xff;
          const uint32_t inserted = (x & ~(0xfu << 8)) | ((y & 0xf) << 8);
          return uint64_t{field ^ inserted};
        });
  check("shr.s32 %r2, %r11, 3; shr.u32 %r3, %r12, 35; add.s32 %r2, %r2, %r3; "
        "cvt.u64.u32 %rd10, %r2;",
        kIntegers, [](uint64_t a, uint64_t, uint32_t) {
          return uint64_t{static_cast<uint32_t>(static_cast<int32_t>(a) >> 3)};
        });
  check("lop3.b32 %r2, %r11, %r12, 0x0f0f0f0f, 0xe8; cvt.u64.u32 %rd10, %r2;", kIntegers,
        [](uint64_t a, uint64_t b, uint32_t) {
          const uint32_t x = static_cast<uint32_t>(a), y = static_cast<uint32_t>(b), z = 0x0f0f0f0f;
          return uint64_t{(x & y) | (x & z) | (y & z)}; // majority = 0xe8
        });
  check("prmt.b32 %r2, %r11, %r12, 0x7531; cvt.u64.u32 %rd10, %r2;", kIntegers,
        [](uint64_t a, uint64_t b, uint32_t) {
          const uint64_t bytes =
              (uint64_t{static_cast<uint32_t>(b)} << 32) | static_cast<uint32_t>(a);
          uint32_t r = 0;
          const int sel[4] = {1, 3, 5, 7};
          for (int i = 0; i < 4; ++i)
            r |= static_cast<uint32_t>((bytes >> (8 * sel[i])) & 0xff) << (8 * i);
          return uint64_t{r};
        });
}

const std::vector<std::pair<uint64_t, uint64_t>> kFloats = {
    {f32(1.5f), f32(2.25f)},    {f32(-3.0f), f32(0.1f)},  {f32(1e30f), f32(1e30f)},
    {f32(0.0f), f32(-0.0f)},    {f32(7.75f), f32(-2.5f)}, {f32(1e-40f), f32(1.0f)},
    {f32(123.456f), f32(3.0f)}, {f32(-0.5f), f32(-0.25f)}};

TEST_F(InstructionTest, FloatArithmeticAndRounding) {
  check(
      "fma.rn.f32 %f2, %f11, %f12, %f11; mov.b32 %r2, %f2; cvt.u64.u32 %rd10, %r2;", kFloats,
      [](uint64_t a, uint64_t b, uint32_t) { return f32(std::fma(asF32(a), asF32(b), asF32(a))); });
  check("div.rn.f32 %f2, %f11, %f12; mov.b32 %r2, %f2; cvt.u64.u32 %rd10, %r2;", kFloats,
        [](uint64_t a, uint64_t b, uint32_t) {
          const float r = asF32(a) / asF32(b);
          return std::isnan(r) ? uint64_t{0x7fffffff} : f32(r);
        });
  check("add.ftz.f32 %f2, %f11, 0f00000000; mov.b32 %r2, %f2; cvt.u64.u32 %rd10, %r2;", kFloats,
        [](uint64_t a, uint64_t, uint32_t) {
          float x = asF32(a);
          if (std::fpclassify(x) == FP_SUBNORMAL)
            x = std::copysign(0.0f, x);
          return f32(x + 0.0f);
        });
  check("mul.sat.f32 %f2, %f11, %f12; mov.b32 %r2, %f2; cvt.u64.u32 %rd10, %r2;", kFloats,
        [](uint64_t a, uint64_t b, uint32_t) {
          // .sat clamps to [+0.0, 1.0]: NaN and -0.0 become +0.0 (as the GPU does).
          const float r = asF32(a) * asF32(b);
          return f32(r > 0.0f ? std::min(r, 1.0f) : 0.0f);
        });
  check("cvt.rzi.s32.f32 %r2, %f11; cvt.rmi.s32.f32 %r3, %f12; add.s32 %r2, %r2, %r3; "
        "cvt.s64.s32 %rd10, %r2;",
        kFloats, [](uint64_t a, uint64_t b, uint32_t) {
          auto conv = [](double v) {
            return static_cast<int64_t>(std::clamp(v, -2147483648.0, 2147483647.0));
          };
          return static_cast<uint64_t>(static_cast<int64_t>(
              static_cast<int32_t>(conv(std::trunc(asF32(a))) + conv(std::floor(asF32(b))))));
        });
  check("cvt.rn.f32.s32 %f2, %r12; cvt.rz.f32.u32 %f3, %r11; add.rn.f32 %f2, %f2, %f3; "
        "mov.b32 %r2, %f2; cvt.u64.u32 %rd10, %r2;",
        kIntegers, [](uint64_t a, uint64_t b, uint32_t) {
          const float x = static_cast<float>(static_cast<int32_t>(b));
          // toward zero: truncate the mantissa of the u32
          const uint32_t u = static_cast<uint32_t>(a);
          float y = static_cast<float>(u);
          if (static_cast<double>(y) > static_cast<double>(u))
            y = std::nextafter(y, 0.0f);
          return f32(x + y);
        });
  check("cvt.f64.f32 %fd1, %f11; sqrt.rn.f64 %fd2, %fd1; mov.b64 %rd10, %fd2;", kFloats,
        [](uint64_t a, uint64_t, uint32_t) {
          // An invalid double-precision operation gives the default NaN 0xfff8000000000000, as
          // on the GPU (double precision does not canonicalize NaNs).
          const double r = std::sqrt(static_cast<double>(asF32(a)));
          return std::isnan(r) ? uint64_t{0xfff8000000000000ull} : std::bit_cast<uint64_t>(r);
        });
}

// ptxas contracts a mul and a dependent add/sub that carry no rounding modifier into one fused
// multiply-add; with a rounding modifier on either they stay two roundings (PTX ISA, mul/add).
TEST_F(InstructionTest, MulAddWithoutRoundingModifierIsFused) {
  // (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24: the separate product rounds the 2^-24 away.
  const float x = 1.0f + 0x1p-12f;
  const std::vector<std::pair<uint64_t, uint64_t>> inputs = {
      {f32(x), f32(x)}, {f32(-x), f32(x)}, {f32(3.0f), f32(0.1f)}};
  const char* store = " mov.b32 %r2, %f3; cvt.u64.u32 %rd10, %r2;";
  const float c = 1.0f + 0x1p-11f;
  auto fused = [&](float sa, float sc) {
    return [=](uint64_t a, uint64_t b, uint32_t) {
      return f32(std::fma(sa * asF32(a), asF32(b), sc * c));
    };
  };
  auto separate = [&](float sa, float sc) {
    return [=](uint64_t a, uint64_t b, uint32_t) {
      volatile float product = asF32(a) * asF32(b);
      return f32(sa * product + sc * c);
    };
  };
  check(std::string("mul.f32 %f2, %f11, %f12; add.f32 %f3, %f2, 0fBF801000;") + store, inputs,
        fused(1, -1));
  check(std::string("mul.f32 %f2, %f11, %f12; sub.f32 %f3, %f2, 0f3F801000;") + store, inputs,
        fused(1, -1));
  check(std::string("mul.f32 %f2, %f11, %f12; sub.f32 %f3, 0f3F801000, %f2;") + store, inputs,
        fused(-1, 1));
  // The product feeds two adds: each is fused.
  check(std::string("mul.f32 %f2, %f11, %f12; add.f32 %f4, %f2, 0f3F801000; "
                    "sub.f32 %f5, %f2, 0f3F801000; sub.f32 %f3, %f5, %f4;") +
            store,
        inputs, [&](uint64_t a, uint64_t b, uint32_t) {
          const float p = asF32(a), q = asF32(b);
          volatile float sum = std::fma(p, q, c), difference = std::fma(p, q, -c);
          return f32(difference - sum);
        });
  check(std::string("mul.rn.f32 %f2, %f11, %f12; add.f32 %f3, %f2, 0fBF801000;") + store, inputs,
        separate(1, -1));
  check(std::string("mul.f32 %f2, %f11, %f12; add.rn.f32 %f3, %f2, 0fBF801000;") + store, inputs,
        separate(1, -1));
  // A product that something other than an add/sub also reads stays rounded for the add too.
  check(std::string("mul.f32 %f2, %f11, %f12; add.f32 %f4, %f2, 0fBF801000; "
                    "abs.f32 %f5, %f2; sub.f32 %f3, %f4, %f5;") +
            store,
        inputs, [&](uint64_t a, uint64_t b, uint32_t) {
          volatile float product = asF32(a) * asF32(b);
          volatile float sum = product - c;
          return f32(sum - std::fabs(product));
        });
  // Across blocks: a product made before a branch and absorbed after it.
  check(std::string("mul.f32 %f2, %f11, %f12; setp.eq.u32 %p1, %r1, 0; @%p1 bra SKIP; "
                    "mov.f32 %f6, 0f00000000; SKIP: add.f32 %f3, %f2, 0fBF801000;") +
            store,
        inputs, fused(1, -1));
  // Two products into one sub: the first mul is fused (the GPU's FFMA t - u: fma(a, a, -u)).
  check(std::string("mul.f32 %f2, %f11, %f11; mul.f32 %f4, %f12, %f12; sub.f32 %f3, %f2, %f4;") +
            store,
        inputs, [&](uint64_t a, uint64_t b, uint32_t) {
          volatile float u = asF32(b) * asF32(b);
          return f32(std::fma(asF32(a), asF32(a), -u));
        });
  // .ftz on only one of the two keeps them apart.
  check(std::string("mul.ftz.f32 %f2, %f11, %f12; add.f32 %f3, %f2, 0fBF801000;") + store, inputs,
        separate(1, -1));
  // f64 (DFMA): (1 + 2^-40)^2 - (1 + 2^-39) = 2^-80 fused, 0 separately.
  check("mov.b64 %fd1, %rd11; mul.f64 %fd2, %fd1, %fd1; add.f64 %fd3, %fd2, 0dBFF0000000002000; "
        "mov.b64 %rd10, %fd3;",
        {{std::bit_cast<uint64_t>(1.0 + 0x1p-40), 0}}, [](uint64_t a, uint64_t, uint32_t) {
          const double v = std::bit_cast<double>(a);
          return std::bit_cast<uint64_t>(std::fma(v, v, -(1.0 + 0x1p-39)));
        });
  // f16 (HFMA2): (1 + 2^-6)^2 - (1 + 2^-5) = 2^-12 = 0x0c00 fused, 0 separately.
  check("mov.b32 {%h1, %h2}, %r11; mul.f16 %h3, %h1, %h1; mov.b16 %h4, 0xbc20; "
        "add.f16 %h5, %h3, %h4; mov.b32 %r2, {%h5, %h5}; cvt.u64.u32 %rd10, %r2;",
        {{0x3c10, 0}}, [](uint64_t, uint64_t, uint32_t) { return uint64_t{0x0c000c00}; });
  // An operand written between the mul and the add ends the pair.
  check(std::string("mul.f32 %f2, %f11, %f12; mov.f32 %f2, %f2; add.f32 %f3, %f2, 0fBF801000;") +
            store,
        inputs, separate(1, -1));
}

TEST_F(InstructionTest, HalfPrecision) {
  check("cvt.rn.f16.f32 %h1, %f11; cvt.rn.f16.f32 %h2, %f12; add.f16 %h3, %h1, %h2; "
        "cvt.f32.f16 %f2, %h3; mov.b32 %r2, %f2; cvt.u64.u32 %rd10, %r2;",
        {{f32(1.5f), f32(2.25f)}, {f32(-3.0f), f32(0.5f)}, {f32(1000.0f), f32(24.0f)}},
        [](uint64_t a, uint64_t b, uint32_t) { return f32(asF32(a) + asF32(b)); });
  check("cvt.rn.bf16.f32 %h1, %f11; cvt.f32.bf16 %f2, %h1; mov.b32 %r2, %f2; "
        "cvt.u64.u32 %rd10, %r2;",
        {{f32(1.0f + 1.0f / 256.0f), 0}, {f32(3.0f), 0}}, [](uint64_t a, uint64_t, uint32_t) {
          const float x = asF32(a);
          return f32(x == 1.0f + 1.0f / 256.0f ? 1.0f : x); // ties to even
        });
}

TEST_F(InstructionTest, ComparisonAndSelection) {
  check("setp.lt.s32 %p1, %r11, %r12; setp.gt.or.u32 %p2, %r11, 100, %p1; "
        "selp.u32 %r2, 1, 0, %p2; cvt.u64.u32 %rd10, %r2;",
        kIntegers, [](uint64_t a, uint64_t b, uint32_t) -> uint64_t {
          const bool p1 = static_cast<int32_t>(a) < static_cast<int32_t>(b);
          return (static_cast<uint32_t>(a) > 100u) || p1;
        });
  check("setp.nan.f32 %p1, %f11, %f12; setp.ltu.f32 %p2, %f11, %f12; selp.u64 %rd10, 3, 5, %p2; "
        "@%p1 mov.u64 %rd10, 9;",
        kFloats, [](uint64_t a, uint64_t b, uint32_t) -> uint64_t {
          const float x = asF32(a), y = asF32(b);
          if (std::isnan(x) || std::isnan(y))
            return 9;
          return x < y ? 3 : 5;
        });
}

TEST_F(InstructionTest, WarpOperations) {
  check(
      "shfl.sync.down.b32 %r2, %r1, 3, 31, -1; cvt.u64.u32 %rd10, %r2;", kIntegers,
      [](uint64_t, uint64_t, uint32_t lane) { return uint64_t{lane + 3 <= 31 ? lane + 3 : lane}; });
  check("shfl.sync.bfly.b32 %r2, %r1, 5, 31, -1; cvt.u64.u32 %rd10, %r2;", kIntegers,
        [](uint64_t, uint64_t, uint32_t lane) { return uint64_t{lane ^ 5}; });
  check("shfl.sync.idx.b32 %r2, %r1, 7, 0x181f, -1; cvt.u64.u32 %rd10, %r2;", kIntegers,
        [](uint64_t, uint64_t, uint32_t lane) { return uint64_t{(lane & ~7u) | 7u}; });
  check("and.b32 %r2, %r1, 1; setp.eq.u32 %p1, %r2, 1; vote.sync.ballot.b32 %r3, %p1, -1; "
        "cvt.u64.u32 %rd10, %r3;",
        kIntegers, [](uint64_t, uint64_t, uint32_t) { return uint64_t{0xaaaaaaaau}; });
  check("setp.lt.u32 %p1, %r1, 20; @%p1 activemask.b32 %r2; @%p1 cvt.u64.u32 %rd10, %r2;",
        kIntegers,
        [](uint64_t, uint64_t, uint32_t lane) -> uint64_t { return lane < 20 ? 0xfffffu : 0; });
  check("and.b32 %r2, %r1, 3; match.any.sync.b32 %r3, %r2, -1; cvt.u64.u32 %rd10, %r3;", kIntegers,
        [](uint64_t, uint64_t, uint32_t lane) { return uint64_t{0x11111111u << (lane & 3)}; });
  // match.all over the full warp: every lane gets the whole warp and a true predicate when all
  // values are equal, else 0 and false (bits 0-31: the mask, bit 32: the predicate).
  const std::string matchAllResult = "selp.u32 %r4, 1, 0, %p1; cvt.u64.u32 %rd10, %r3; "
                                     "cvt.u64.u32 %rd13, %r4; shl.b64 %rd13, %rd13, 32; "
                                     "or.b64 %rd10, %rd10, %rd13;";
  check("shr.u32 %r2, %r1, 5; match.all.sync.b32 %r3|%p1, %r2, -1; " + matchAllResult, kIntegers,
        [](uint64_t, uint64_t, uint32_t) { return uint64_t{0x1ffffffffull}; });
  check("and.b32 %r2, %r1, 3; match.all.sync.b32 %r3|%p1, %r2, -1; " + matchAllResult, kIntegers,
        [](uint64_t, uint64_t, uint32_t) { return uint64_t{0}; });
  check("redux.sync.add.u32 %r2, %r1, -1; mov.u32 %r3, %laneid; add.u32 %r2, %r2, %r3; "
        "cvt.u64.u32 %rd10, %r2;",
        kIntegers, [](uint64_t, uint64_t, uint32_t lane) { return uint64_t{496 + lane}; });
  check("mov.u32 %r2, %lanemask_lt; cvt.u64.u32 %rd10, %r2;", kIntegers,
        [](uint64_t, uint64_t, uint32_t lane) { return (uint64_t{1} << lane) - 1; });
}

TEST_F(InstructionTest, StateSpacesAndGenericAddressing) {
  // Shared: each thread writes its input, reads its neighbour's after a barrier.
  check("mov.u32 %r2, sdata; shl.b32 %r3, %r1, 3; add.u32 %r4, %r2, %r3; st.shared.u64 [%r4], "
        "%rd11; bar.sync 0; xor.b32 %r5, %r1, 1; shl.b32 %r5, %r5, 3; add.u32 %r5, %r2, %r5; "
        "ld.shared.u64 %rd10, [%r5];",
        kIntegers, [](uint64_t, uint64_t, uint32_t lane) {
          const auto& pair = kIntegers[(lane ^ 1) % kIntegers.size()];
          return pair.first;
        });
  // Local through a generic pointer, and isspacep on shared/local/global addresses.
  check("mov.u64 %rd20, ldata; cvta.local.u64 %rd21, %rd20; st.u64 [%rd21+8], %rd12; "
        "ld.local.u64 %rd22, [ldata+8]; isspacep.local %p1, %rd21; "
        "mov.u64 %rd23, sdata; cvta.shared.u64 %rd23, %rd23; isspacep.shared %p2, %rd23; "
        "isspacep.global %p3, %rd4; and.pred %p1, %p1, %p2; and.pred %p1, %p1, %p3; "
        "selp.u64 %rd24, 1, 0, %p1; add.u64 %rd10, %rd22, %rd24;",
        kIntegers, [](uint64_t, uint64_t b, uint32_t) { return b + 1; });
  // Vector loads and stores.
  check("st.global.v2.u64 [%rd4], {%rd12, %rd11}; ld.global.v2.u32 {%r2, %r3}, [%rd4]; "
        "cvt.u64.u32 %rd10, %r3;",
        kIntegers, [](uint64_t, uint64_t b, uint32_t) { return b >> 32; });
}

TEST_F(InstructionTest, AtomicsAcrossThreads) {
  DeviceFunction kernel = load(wrap("atom.global.add.u64 %rd10, [%rd2], 1; "
                                    "atom.global.max.s32 %r2, [%rd2+8], %r1; "
                                    "mov.u32 %r3, sdata; atom.shared.add.u32 %r4, [%r3], 1; "
                                    "red.global.add.f32 [%rd2+12], 0f3F800000;"),
                               "k");
  uint64_t* in = allocate<uint64_t>(512);
  uint64_t* out = allocate<uint64_t>(256);
  std::memset(in, 0, 512 * 8);
  // 8 CTAs of 32 threads on several workers: every increment must land.
  void* args[] = {&out, &in};
  LaunchParams params;
  params.function = kernel;
  params.grid = dim3(8);
  params.block = dim3(32);
  params.args = args;
  params.stream = calls_->stream(nullptr);
  // Each CTA's threads index out[] by %tid.x only: give each CTA the same out (values race, ok).
  ASSERT_EQ(device_->launch(params), cudaSuccess);
  ASSERT_EQ(device_->synchronize(), cudaSuccess) << device_->faultMessage();
  EXPECT_EQ(in[0], 256u);
  EXPECT_EQ(static_cast<int32_t>(in[1] & 0xffffffff), 31);
  EXPECT_EQ(asF32(in[1] >> 32), 256.0f);
}

TEST_F(InstructionTest, UnsupportedInstructionNamesInstructionAndKernel) {
  ModuleImage image;
  image.form = ModuleImage::Form::Ptx;
  image.ptx = {wrap("mbarrier.init.shared.b64 [sdata], 1;")};
  image.label = "test";
  DeviceModule module = nullptr;
  std::string log;
  ASSERT_EQ(device_->loadModule(image, &module, &log), cudaSuccess) << log;
  DeviceFunction kernel = nullptr;
  ASSERT_EQ(device_->function(module, "k", &kernel), cudaSuccess);
  uint64_t* buffer = allocate<uint64_t>(64);
  testing::internal::CaptureStderr();
  EXPECT_EQ(launch(kernel, dim3(1), dim3(32), 0, buffer, buffer), cudaErrorNotSupported);
  const std::string text = testing::internal::GetCapturedStderr();
  EXPECT_NE(text.find("kernel k"), std::string::npos) << text;
  EXPECT_NE(text.find("mbarrier"), std::string::npos) << text;
  // The device stays usable.
  EXPECT_EQ(device_->synchronize(), cudaSuccess);
}

} // namespace
} // namespace ocelot::runtime::cpu::test
