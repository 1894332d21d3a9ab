// The instruction sweep (tests/cpu/sweep) on the CPU device, compared bit for bit with the tables
// a GPU recorded (tests/cpu/reference/sweep-<group>.bin.zst, written by instruction_sweep.cu
// through `scripts/gpu-batch.sh --only sweep`). Every case is the same PTX instruction on the same
// input rows; the few instructions whose GPU results come from undocumented hardware approximations
// (MUFU) are compared within the error bound the PTX ISA states, and docs/cpu-backend.md lists
// them.

#include "CpuDeviceFixture.h"
#include "sweep/SweepCases.h"
#include "sweep/SweepInputs.h"
#include "sweep/SweepTable.h"

#include <zstd.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

namespace ocelot::runtime::cpu::test {
namespace {

enum class Kind { NO, R16, R32, R64 };

struct SweepCase {
  const char* group;
  const char* name;
  Kind destination;
  Kind sources[4];
  const char* text;
};

const std::vector<SweepCase>& sweepCases() {
  static const std::vector<SweepCase> cases = {
#define OCELOT_SWEEP_ENTRY(group, name, D, A, B, C, E, text)                                       \
  {#group, #name, Kind::D, {Kind::A, Kind::B, Kind::C, Kind::E}, text},
      OCELOT_SWEEP_CASES(OCELOT_SWEEP_ENTRY)
#undef OCELOT_SWEEP_ENTRY
  };
  return cases;
}

uint32_t bytesOf(Kind kind) {
  return kind == Kind::R16 ? 2 : kind == Kind::R32 ? 4 : 8;
}

std::string registerOf(Kind kind, int index) {
  const char* prefix = kind == Kind::R16 ? "%h" : kind == Kind::R32 ? "%s" : "%l";
  return prefix + std::to_string(index);
}

/// A module with the kernel of one case, sweep_<case>: thread i reads row i (four 64-bit words),
/// runs the case's template on registers of the case's kinds and stores the destination.
std::string sweepModule(const SweepCase& c) {
  std::ostringstream ptx;
  ptx << ".version 8.5\n.target sm_90\n.address_size 64\n";
  {
    std::string body = c.text;
    body = std::regex_replace(body, std::regex("%0"), registerOf(c.destination, 0));
    for (int i = 0; i < 4; ++i)
      if (c.sources[i] != Kind::NO)
        body = std::regex_replace(body, std::regex("%" + std::to_string(i + 1)),
                                  registerOf(c.sources[i], i + 1));
    ptx << ".visible .entry sweep_" << c.name
        << "(.param .u64 in, .param .u64 out, .param .u32 n)\n{\n"
        << "  .reg .pred %q<2>;\n  .reg .b32 %i<8>;\n  .reg .b64 %w<12>;\n"
        << "  .reg .b16 %h<6>;\n  .reg .b32 %s<6>;\n  .reg .b64 %l<6>;\n"
        << "  ld.param.u64 %w1, [in];\n  ld.param.u64 %w2, [out];\n  ld.param.u32 %i1, [n];\n"
        << "  mov.u32 %i2, %ctaid.x;\n  mov.u32 %i3, %ntid.x;\n  mov.u32 %i4, %tid.x;\n"
        << "  mad.lo.u32 %i5, %i2, %i3, %i4;\n  setp.ge.u32 %q1, %i5, %i1;\n  @%q1 bra DONE;\n"
        << "  mul.wide.u32 %w3, %i5, 32;\n  add.s64 %w4, %w1, %w3;\n";
    for (int i = 0; i < 4; ++i) {
      if (c.sources[i] == Kind::NO)
        continue;
      const std::string word = "%w" + std::to_string(5 + i);
      ptx << "  ld.global.u64 " << word << ", [%w4+" << 8 * i << "];\n";
      const std::string reg = registerOf(c.sources[i], i + 1);
      if (c.sources[i] == Kind::R16)
        ptx << "  cvt.u16.u64 " << reg << ", " << word << ";\n";
      else if (c.sources[i] == Kind::R32)
        ptx << "  cvt.u32.u64 " << reg << ", " << word << ";\n";
      else
        ptx << "  mov.b64 " << reg << ", " << word << ";\n";
    }
    const uint32_t bytes = bytesOf(c.destination);
    ptx << "  " << body << "\n"
        << "  mul.wide.u32 %w9, %i5, " << bytes << ";\n  add.s64 %w10, %w2, %w9;\n"
        << "  st.global.b" << 8 * bytes << " [%w10], " << registerOf(c.destination, 0) << ";\n"
        << "DONE:\n  ret;\n}\n";
  }
  return ptx.str();
}

/// The GPU's table of `group`, or an empty table when the reference is not there.
bool readReference(const std::string& group, sweep::SweepTable* table, std::string* why) {
  const std::string path =
      std::string(OCELOT_SOURCE_DIR) + "/tests/cpu/reference/sweep-" + group + ".bin.zst";
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    *why = "no GPU reference " + path + " (scripts/gpu-batch.sh --only sweep records it)";
    return false;
  }
  const std::vector<char> compressed((std::istreambuf_iterator<char>(file)),
                                     std::istreambuf_iterator<char>());
  const unsigned long long size = ZSTD_getFrameContentSize(compressed.data(), compressed.size());
  if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN) {
    *why = path + " is not a zstd frame with a known size";
    return false;
  }
  std::vector<uint8_t> bytes(size);
  const size_t got =
      ZSTD_decompress(bytes.data(), bytes.size(), compressed.data(), compressed.size());
  if (ZSTD_isError(got) || got != size || !sweep::decodeTable(bytes, table)) {
    *why = path + " does not decode as a sweep table";
    return false;
  }
  return true;
}

uint64_t resultAt(const std::vector<uint8_t>& data, uint32_t bytes, uint32_t row) {
  uint64_t value = 0;
  std::memcpy(&value, data.data() + size_t{row} * bytes, bytes);
  return value;
}

/// How far apart two results of an approximate instruction may be.
struct Tolerance {
  double ulps = 0;     ///< units in the last place of the GPU's result
  double absolute = 0; ///< absolute difference
  double relative = 0; ///< difference relative to the GPU's result
  bool exact() const { return ulps == 0 && absolute == 0 && relative == 0; }
};

/// Instructions whose GPU results come from the special function unit's undocumented
/// approximations: the CPU device computes the exact function and rounds once (with the GPU's
/// special values, flushing and range reduction, which must match exactly), staying within the
/// error the PTX ISA allows (a result within any of the bounds passes). Everything else must match
/// bit for bit.
Tolerance toleranceOf(const std::string& name) {
  const Tolerance oneUlp{1, 0, 0}, twoUlps{2, 0, 0};
  const Tolerance log2{1, 0x1p-22, 0}, sinCos{0, 0x1p-20, 0};
  const Tolerance tanh{0, 0, std::exp2(-10.987)}, highWord{0, 0, 0x1p-19};
  static const std::map<std::string, Tolerance> kApproximate = {
      {"rcp_approx_f32", oneUlp},      {"rcp_approx_ftz_f32", oneUlp},
      {"sqrt_approx_f32", oneUlp},     {"sqrt_approx_ftz_f32", oneUlp},
      {"rsqrt_approx_f32", twoUlps},   {"rsqrt_approx_ftz_f32", twoUlps},
      {"ex2_approx_f32", twoUlps},     {"ex2_approx_ftz_f32", twoUlps},
      {"lg2_approx_f32", log2},        {"lg2_approx_ftz_f32", log2},
      {"sin_approx_f32", sinCos},      {"sin_approx_ftz_f32", sinCos},
      {"cos_approx_f32", sinCos},      {"cos_approx_ftz_f32", sinCos},
      {"tanh_approx_f32", tanh},       {"div_approx_f32", twoUlps},
      {"div_approx_ftz_f32", twoUlps}, {"div_full_f32", twoUlps},
      {"div_full_ftz_f32", twoUlps},   {"rcp_approx_ftz_f64", highWord},
      {"rsqrt_approx_f64", twoUlps},   {"rsqrt_approx_ftz_f64", highWord},
      {"ex2_approx_f16", oneUlp},      {"tanh_approx_f16", oneUlp},
  };
  auto it = kApproximate.find(name);
  return it == kApproximate.end() ? Tolerance{} : it->second;
}

/// A result's value as a double (binary16 results too), and its unit in the last place.
double valueOf(uint32_t bytes, uint64_t bits) {
  if (bytes == 2) {
    const uint32_t sign = (bits >> 15) & 1, exponent = (bits >> 10) & 0x1f, mantissa = bits & 0x3ff;
    double value = exponent == 0    ? std::ldexp(mantissa, -24)
                   : exponent == 31 ? (mantissa ? std::nan("") : INFINITY)
                                    : std::ldexp(1024 + mantissa, int(exponent) - 25);
    return sign ? -value : value;
  }
  return bytes == 4 ? double{sweep::asFloat(static_cast<uint32_t>(bits))} : sweep::asDouble(bits);
}

double ulpOf(uint32_t bytes, double value) {
  const int mantissaBits = bytes == 2 ? 10 : bytes == 4 ? 23 : 52;
  const int minExponent = bytes == 2 ? -14 : bytes == 4 ? -126 : -1022;
  const int exponent = value == 0 ? minExponent : std::max(std::ilogb(value), minExponent);
  return std::ldexp(1.0, exponent - mantissaBits);
}

class SweepTest : public CpuDeviceTest {
protected:
  void runGroup(const std::string& group) {
    sweep::SweepTable reference;
    std::string why;
    if (!readReference(group, &reference, &why))
      GTEST_SKIP() << why;
    const std::vector<uint64_t> rows = sweep::rowsOf(group);
    const auto count = static_cast<uint32_t>(rows.size() / sweep::kWordsPerRow);
    const uint64_t hash = sweep::rowsHash(rows);
    uint64_t* input = allocate<uint64_t>(rows.size());
    std::memcpy(input, rows.data(), rows.size() * sizeof(uint64_t));
    uint8_t* output = allocate<uint8_t>(size_t{count} * 8);
    std::ostringstream summary;
    int failing = 0;
    for (const SweepCase& c : sweepCases()) {
      if (group != c.group)
        continue;
      auto it = reference.find(c.name);
      if (it == reference.end()) {
        // A case added after the reference was recorded: reported, compared once it is.
        std::printf("sweep case %s is not in the GPU reference yet (scripts/gpu-batch.sh --only "
                    "sweep records it)\n",
                    c.name);
        continue;
      }
      const sweep::SweepResults& gpu = it->second;
      const uint32_t bytes = bytesOf(c.destination);
      ASSERT_EQ(gpu.rowsHash, hash) << c.name << ": the reference ran on other input rows";
      ASSERT_EQ(gpu.bytesPerResult, bytes) << c.name;
      ASSERT_EQ(gpu.rows, count) << c.name;
      ModuleImage image;
      image.form = ModuleImage::Form::Ptx;
      image.ptx = {sweepModule(c)};
      image.label = std::string("sweep ") + c.name;
      DeviceModule module = nullptr;
      DeviceFunction kernel = nullptr;
      std::string log;
      if (device_->loadModule(image, &module, &log) != cudaSuccess ||
          device_->function(module, (std::string("sweep_") + c.name).c_str(), &kernel) !=
              cudaSuccess) {
        summary << c.name << " (" << c.text << "): does not load: " << log << "\n";
        ++failing;
        continue;
      }
      std::memset(output, 0xa5, size_t{count} * 8);
      testing::internal::CaptureStderr();
      const cudaError_t launched = launch(kernel, dim3((count + 255) / 256), dim3(256), 0, input,
                                          static_cast<void*>(output), count);
      const std::string launchLog = testing::internal::GetCapturedStderr();
      if (launched != cudaSuccess) {
        summary << c.name << " (" << c.text << "): does not run: " << launchLog << "\n";
        ++failing;
        continue;
      }
      ASSERT_EQ(device_->synchronize(), cudaSuccess) << c.name << ": " << device_->faultMessage();
      const std::vector<uint8_t> cpu(output, output + size_t{count} * 8);
      const Tolerance tolerance = toleranceOf(c.name);
      uint32_t mismatches = 0;
      uint64_t maxDistance = 0;
      std::ostringstream examples;
      for (uint32_t row = 0; row < count; ++row) {
        const uint64_t want = resultAt(gpu.data, bytes, row);
        const uint64_t got = resultAt(cpu, bytes, row);
        if (got == want || withinTolerance(tolerance, bytes, got, want))
          continue;
        maxDistance = std::max(maxDistance, orderedDistance(bytes, got, want));
        if (++mismatches <= 4) {
          examples << "    row " << row << " in";
          for (int i = 0; i < 4; ++i)
            if (c.sources[i] != Kind::NO)
              examples << " " << std::hex << "0x" << rows[size_t{row} * 4 + i] << std::dec;
          examples << ": gpu 0x" << std::hex << want << " cpu 0x" << got << std::dec << "\n";
        }
      }
      if (mismatches != 0) {
        ++failing;
        summary << c.name << " (" << c.text << "): " << mismatches << " of " << count
                << " rows differ, by up to " << maxDistance << " units in the last place\n"
                << examples.str();
      }
    }
    EXPECT_EQ(failing, 0) << summary.str();
  }

  /// How many representable values lie between two results (floats ordered by their bits).
  static uint64_t orderedDistance(uint32_t bytes, uint64_t a, uint64_t b) {
    auto ordered = [&](uint64_t bits) -> int64_t {
      const uint64_t sign = uint64_t{1} << (8 * bytes - 1);
      const uint64_t magnitude = bits & (sign - 1);
      return (bits & sign) ? -static_cast<int64_t>(magnitude) : static_cast<int64_t>(magnitude);
    };
    const int64_t d = ordered(a) - ordered(b);
    return static_cast<uint64_t>(d < 0 ? -d : d);
  }

  static bool withinTolerance(const Tolerance& tolerance, uint32_t bytes, uint64_t got,
                              uint64_t want) {
    if (tolerance.exact())
      return false;
    const double g = valueOf(bytes, got), w = valueOf(bytes, want);
    // NaNs, infinities and signs are special values: those must be the GPU's exactly (a zero's
    // sign aside, and an approximation may land on either side of the flush-to-zero boundary).
    if (std::isnan(g) || std::isnan(w) || std::isinf(g) || std::isinf(w))
      return false;
    if (g != 0 && w != 0 && std::signbit(g) != std::signbit(w))
      return false;
    const double difference = std::fabs(g - w);
    const double smallestNormal = bytes == 2 ? 0x1p-14 : bytes == 4 ? 0x1p-126 : 0x1p-1022;
    if ((g == 0 || w == 0) && std::fabs(g + w) <= smallestNormal)
      return true;
    return difference <= tolerance.absolute || difference <= tolerance.relative * std::fabs(w) ||
           difference <= tolerance.ulps * ulpOf(bytes, w);
  }
};

TEST_F(SweepTest, SinglePrecisionMatchesTheGpu) {
  runGroup("f32");
}
TEST_F(SweepTest, DoublePrecisionMatchesTheGpu) {
  runGroup("f64");
}
TEST_F(SweepTest, HalfPrecisionMatchesTheGpu) {
  runGroup("h16");
}
TEST_F(SweepTest, ThirtyTwoBitIntegersAndVideoMatchTheGpu) {
  runGroup("i32");
}
TEST_F(SweepTest, SixtyFourBitIntegersMatchTheGpu) {
  runGroup("i64");
}

} // namespace
} // namespace ocelot::runtime::cpu::test
