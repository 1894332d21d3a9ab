#include "tests/support/GeneratedPtx.h"

#include <cstdint>

namespace ocelot::testing {

namespace {

constexpr const char* kHeader = ".version 9.0\n.target sm_90\n.address_size 64\n\n";

/// A small deterministic generator (no <random>: its distributions differ between libraries).
class Choices {
public:
  explicit Choices(uint64_t seed) : state_(seed * 0x9e3779b97f4a7c15ull + 1) {}
  uint32_t below(uint32_t bound) {
    state_ = state_ * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<uint32_t>((state_ >> 33) % bound);
  }

private:
  uint64_t state_;
};

void appendRegister(std::string& out, const char* prefix, uint32_t index) {
  out += prefix;
  out += std::to_string(index);
}

/// One kernel of nvcc's shape: its blocks do address arithmetic, loads, stores, compares and
/// guarded branches forward and back (loops), some call a device function.
void appendKernel(std::string& out, size_t index) {
  Choices pick(index);
  const std::string name = "_Z6kernel" + std::to_string(index) + "PfPKfi";
  out += ".visible .entry " + name + "(\n\t.param .u64 " + name + "_param_0,\n\t.param .u64 " +
         name + "_param_1,\n\t.param .u32 " + name + "_param_2\n)\n{\n";
  out += "\t.reg .pred \t%p<16>;\n\t.reg .f32 \t%f<64>;\n\t.reg .b32 \t%r<64>;\n"
         "\t.reg .b64 \t%rd<32>;\n\n\n";
  out += "\tld.param.u64 \t%rd1, [" + name + "_param_0];\n";
  out += "\tld.param.u64 \t%rd2, [" + name + "_param_1];\n";
  out += "\tld.param.u32 \t%r1, [" + name + "_param_2];\n";
  out += "\tmov.u32 \t%r2, %ntid.x;\n\tmov.u32 \t%r3, %ctaid.x;\n\tmov.u32 \t%r4, %tid.x;\n"
         "\tmad.lo.s32 \t%r5, %r3, %r2, %r4;\n\tcvta.to.global.u64 \t%rd3, %rd1;\n"
         "\tcvta.to.global.u64 \t%rd4, %rd2;\n";
  const uint32_t blocks = 40;
  const std::string label = "$L__BB" + std::to_string(index) + "_";
  uint32_t call = 0;
  for (uint32_t block = 1; block <= blocks; ++block) {
    out += "\n" + label + std::to_string(block) + ":\n";
    auto r = [&] { return 1 + pick.below(63); };
    auto rd = [&] { return 1 + pick.below(31); };
    auto f = [&] { return 1 + pick.below(63); };
    uint32_t shape = pick.below(8);
    if (shape == 0) {
      out += "\t{ // callseq " + std::to_string(call) +
             ", 0\n\t.param .b32 param0;\n"
             "\tst.param.b32 \t[param0], ";
      appendRegister(out, "%r", r());
      out += ";\n\t.param .b32 retval0;\n\tcall.uni (retval0), \n\t_Z7helper" +
             std::to_string(pick.below(4)) + "i, \n\t(\n\tparam0\n\t);\n\tld.param.b32 \t";
      appendRegister(out, "%r", r());
      out += ", [retval0];\n\t} // callseq " + std::to_string(call++) + "\n";
    }
    const uint32_t a = r(), b = r(), d = rd(), e = rd(), x = f(), y = f(), z = f();
    out += "\tadd.s32 \t%r" + std::to_string(a) + ", %r" + std::to_string(b) + ", %r" +
           std::to_string(r()) + ";\n";
    out += "\tmul.wide.s32 \t%rd" + std::to_string(d) + ", %r" + std::to_string(a) + ", 4;\n";
    out += "\tadd.s64 \t%rd" + std::to_string(e) + ", %rd3, %rd" + std::to_string(d) + ";\n";
    out += "\tld.global.f32 \t%f" + std::to_string(x) + ", [%rd" + std::to_string(e) + "];\n";
    if (shape < 4) {
      out += "\tfma.rn.f32 \t%f" + std::to_string(y) + ", %f" + std::to_string(x) + ", %f" +
             std::to_string(z) + ", 0f3F800000;\n";
      out += "\tst.global.f32 \t[%rd" + std::to_string(e) + "+4], %f" + std::to_string(y) + ";\n";
    } else {
      out += "\tcvt.rn.f32.s32 \t%f" + std::to_string(y) + ", %r" + std::to_string(b) + ";\n";
      out += "\tmax.f32 \t%f" + std::to_string(z) + ", %f" + std::to_string(x) + ", %f" +
             std::to_string(y) + ";\n";
      out += "\tshl.b32 \t%r" + std::to_string(b) + ", %r" + std::to_string(a) + ", 2;\n";
      out += "\tand.b32  \t%r" + std::to_string(r()) + ", %r" + std::to_string(b) + ", 255;\n";
      out += "\tst.global.f32 \t[%rd" + std::to_string(e) + "], %f" + std::to_string(z) + ";\n";
    }
    const uint32_t p = 1 + pick.below(15);
    out += "\tsetp.lt.s32 \t%p" + std::to_string(p) + ", %r" + std::to_string(a) + ", %r1;\n";
    if (block == blocks)
      break;
    // Mostly forward branches (if/else shapes); every fifth block closes a loop a few blocks up.
    uint32_t target = block % 5 == 0 && block > 3 ? block - 1 - pick.below(3)
                                                  : std::min(blocks, block + 1 + pick.below(3));
    out += "\t@%p" + std::to_string(p) + " bra \t" + label + std::to_string(target) + ";\n";
  }
  out += "\tret;\n\n}\n\t// .globl\t" + name + "\n";
}

} // namespace

std::string nvccLikeModule(std::size_t bytes) {
  std::string out;
  out.reserve(bytes + (64 << 10));
  out += kHeader;
  for (int helper = 0; helper < 4; ++helper) {
    std::string name = "_Z7helper" + std::to_string(helper) + "i";
    out += ".visible .func  (.param .b32 func_retval0) " + name + "(\n\t.param .b32 " + name +
           "_param_0\n)\n{\n\t.reg .b32 \t%r<4>;\n\n\n\tld.param.u32 \t%r1, [" + name +
           "_param_0];\n\tmul.lo.s32 \t%r2, %r1, 3;\n\tadd.s32 \t%r3, %r2, " +
           std::to_string(helper) + ";\n\tst.param.b32 \t[func_retval0], %r3;\n\tret;\n\n}\n";
  }
  for (size_t kernel = 0; out.size() < bytes; ++kernel)
    appendKernel(out, kernel);
  return out;
}

std::string nestedLoops(std::size_t depth) {
  std::string out = kHeader;
  out += ".visible .entry nested(\n\t.param .u32 nested_param_0,\n\t.param .u64 nested_param_1\n)"
         "\n{\n\t.reg .pred \t%p<" +
         std::to_string(depth + 1) + ">;\n\t.reg .b32 \t%r<" + std::to_string(depth + 3) +
         ">;\n\t.reg .b64 \t%rd<3>;\n\n";
  out += "\tld.param.u32 \t%r0, [nested_param_0];\n\tld.param.u64 \t%rd1, [nested_param_1];\n";
  for (size_t level = 1; level <= depth; ++level) {
    out += "\tmov.u32 \t%r" + std::to_string(level) + ", 0;\n";
    out += "$L__loop" + std::to_string(level) + ":\n";
  }
  out += "\tadd.s32 \t%r" + std::to_string(depth + 1) + ", %r" + std::to_string(depth + 1) +
         ", %r" + std::to_string(depth) + ";\n";
  for (size_t level = depth; level >= 1; --level) {
    std::string r = std::to_string(level);
    out += "\tadd.s32 \t%r" + r + ", %r" + r + ", 1;\n";
    out += "\tsetp.lt.u32 \t%p" + r + ", %r" + r + ", %r0;\n";
    out += "\t@%p" + r + " bra \t$L__loop" + r + ";\n";
  }
  out += "\tst.global.u32 \t[%rd1], %r" + std::to_string(depth + 1) + ";\n\tret;\n\n}\n";
  return out;
}

std::string callChain(std::size_t count) {
  std::string out = kHeader;
  // Callees come first: PTX needs a function declared before a call names it.
  for (size_t i = count; i-- > 0;) {
    std::string name = "chain" + std::to_string(i);
    out += ".func  (.param .b32 func_retval0) " + name + "(\n\t.param .b32 " + name +
           "_param_0\n)\n{\n\t.reg .b32 \t%r<4>;\n\n\tld.param.u32 \t%r1, [" + name +
           "_param_0];\n\tadd.s32 \t%r2, %r1, 1;\n";
    if (i + 1 < count) {
      out += "\t{\n\t.param .b32 param0;\n\tst.param.b32 \t[param0], %r2;\n\t.param .b32 "
             "retval0;\n\tcall.uni (retval0), chain" +
             std::to_string(i + 1) + ", (param0);\n\tld.param.b32 \t%r3, [retval0];\n\t}\n";
    } else {
      out += "\tmov.u32 \t%r3, %r2;\n";
    }
    out += "\tst.param.b32 \t[func_retval0], %r3;\n\tret;\n\n}\n";
  }
  out += ".visible .entry chain(\n\t.param .u64 chain_param_0\n)\n{\n\t.reg .b32 \t%r<3>;\n"
         "\t.reg .b64 \t%rd<2>;\n\n\tld.param.u64 \t%rd1, [chain_param_0];\n"
         "\tmov.u32 \t%r1, %tid.x;\n";
  if (count > 0)
    out += "\t{\n\t.param .b32 param0;\n\tst.param.b32 \t[param0], %r1;\n\t.param .b32 "
           "retval0;\n\tcall.uni (retval0), chain0, (param0);\n\tld.param.b32 \t%r2, "
           "[retval0];\n\t}\n";
  else
    out += "\tmov.u32 \t%r2, %r1;\n";
  out += "\tst.global.u32 \t[%rd1], %r2;\n\tret;\n\n}\n";
  return out;
}

} // namespace ocelot::testing
