// The CPU executor against the instruction table (ir/Opcodes.def): every row's example decodes when
// its family is one the device runs, and is reported as unsupported, with the reason, when it is
// not. A row whose family has no decoder, or whose family's decoder lacks the row's opcode, fails
// here; so does a family the decoders do not account for.

#include "ir/InstructionTable.h"
#include "runtime/cpu/CpuModule.h"
#include "runtime/cpu/DeviceMemory.h"
#include "runtime/cpu/InstructionDecoders.h"
#include "tests/support/InstructionExamples.h"

#include <gtest/gtest.h>

namespace ocelot::runtime::cpu::test {
namespace {

using ocelot::test::exampleModule;
using ocelot::test::kInstructionExamples;

class CpuInstructionTableTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string error;
    memory_ = DeviceMemory::create(&error);
    ASSERT_NE(memory_, nullptr) << error;
  }

  /// Decodes kernel `k` of the example module around `instruction`: "" or the decoder's error.
  std::string decode(std::string_view instruction) {
    auto module = CpuModule::load({exampleModule(instruction)}, "example", *memory_);
    if (!module)
      return "load: " + module.error().message;
    auto kernel = (*module)->kernel("k");
    return kernel ? "" : kernel.error().message;
  }

  std::unique_ptr<DeviceMemory> memory_;
};

bool runsOnTheCpu(ir::SemanticFamily family) {
  return family == ir::SemanticFamily::ThreadControl || familyDecoder(family) != nullptr;
}

TEST_F(CpuInstructionTableTest, EveryFamilyIsDecodedOrNamedAsNotYetSupported) {
  for (const ir::OpcodeTraits& row : ir::instructionTable()) {
    const ir::SemanticFamily family = row.family;
    SCOPED_TRACE(std::string(row.name) + " (" + std::string(ir::semanticFamilyName(family)) + ")");
    const int accounted = (family == ir::SemanticFamily::None ? 1 : 0) +
                          (runsOnTheCpu(family) ? 1 : 0) + (laterFeature(family).empty() ? 0 : 1);
    EXPECT_EQ(accounted, 1);
  }
}

TEST_F(CpuInstructionTableTest, EveryRowDecodesAsItsFamilySays) {
  const auto table = ir::instructionTable();
  ASSERT_EQ(table.size(), std::size(kInstructionExamples));
  size_t decoded = 0;
  for (size_t i = 0; i < table.size(); ++i) {
    const ir::OpcodeTraits& row = table[i];
    const std::string_view text = kInstructionExamples[i].text;
    SCOPED_TRACE(std::string(text) + " (" + std::string(ir::semanticFamilyName(row.family)) + ")");
    const std::string error = decode(text);
    if (runsOnTheCpu(row.family)) {
      EXPECT_EQ(error, "");
      ++decoded;
    } else if (std::string_view feature = laterFeature(row.family); !feature.empty()) {
      EXPECT_NE(error.find("not supported by the CPU device yet (" + std::string(feature) + ")"),
                std::string::npos)
          << error;
    } else {
      EXPECT_NE(error.find("not supported by the CPU device"), std::string::npos) << error;
      EXPECT_EQ(error.find("not supported by the CPU device yet"), std::string::npos) << error;
    }
  }
  EXPECT_GT(decoded, 80u);
}

TEST_F(CpuInstructionTableTest, UnknownOpcodesAreReportedAsUnsupported) {
  const std::string error = decode("frobnicate.sync.b32 %r1, %r2");
  EXPECT_NE(error.find("`frobnicate.sync.b32`"), std::string::npos) << error;
  EXPECT_NE(error.find("not supported by the CPU device"), std::string::npos) << error;
  // ... and why: it is invalid PTX (the launch fails with cudaErrorInvalidPtx, see
  // CpuKernelsTest's ModuleErrorsAreThoseOfNvidiasRuntime).
  EXPECT_NE(error.find("no PTX ISA has this instruction"), std::string::npos) << error;
}

} // namespace
} // namespace ocelot::runtime::cpu::test
