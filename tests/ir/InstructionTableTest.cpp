// The instruction table (ir/Opcodes.def) against the code that reads it: every row is reachable
// from its own example, every example is PTX that ptxas and the front end take, and the verifier
// checks exactly the operand counts and types the rows give (each row's example is mutated and
// re-verified, so a verifier with a list of its own fails here for any row that list misses).

#include "ir/InstructionTable.h"

#include "TestPtx.h"
#include "ir/Emitter.h"
#include "ir/InstructionForm.h"
#include "ir/Verifier.h"
#include "tests/support/InstructionExamples.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace ocelot::test {
namespace {

using namespace ocelot::ir;

std::string_view spellingOf(std::string_view instruction) {
  return instruction.substr(0, instruction.find(' '));
}

/// The operands of an example, split at top-level commas.
std::vector<std::string> operandsOf(std::string_view instruction) {
  std::vector<std::string> operands;
  size_t space = instruction.find(' ');
  if (space == std::string_view::npos)
    return operands;
  std::string current;
  int depth = 0;
  for (char c : instruction.substr(space + 1)) {
    if (c == '{' || c == '[' || c == '(')
      ++depth;
    if (c == '}' || c == ']' || c == ')')
      --depth;
    if (c == ',' && depth == 0) {
      operands.push_back(current);
      current.clear();
      continue;
    }
    if (c != ' ' || !current.empty())
      current += c;
  }
  operands.push_back(current);
  return operands;
}

std::string withOperands(std::string_view instruction, const std::vector<std::string>& operands) {
  std::string text(spellingOf(instruction));
  for (size_t i = 0; i < operands.size(); ++i)
    text += (i == 0 ? " " : ", ") + operands[i];
  return text;
}

/// The verifier's errors for the example module around `instruction` (a parse failure is one).
std::vector<std::string> errorsOf(std::string_view instruction) {
  std::vector<std::string> errors;
  ParseResult parsed = parsePtx(exampleModule(instruction), "example.ptx");
  if (!parsed.ok())
    return {"parse: " + parsed.firstError()};
  for (const VerifierDiagnostic& diagnostic : verifyModule(*parsed.module))
    if (diagnostic.severity == VerifierDiagnostic::Severity::Error)
      errors.push_back(diagnostic.format());
  return errors;
}

bool anyContains(const std::vector<std::string>& errors, std::string_view text) {
  return std::any_of(errors.begin(), errors.end(),
                     [&](const std::string& e) { return e.find(text) != std::string::npos; });
}

std::string joined(const std::vector<std::string>& errors) {
  std::string text;
  for (const auto& e : errors)
    text += "\n  " + e;
  return text;
}

TEST(OpcodeTableTest, NamesAndOpcodesAgree) {
  for (size_t i = 1; i < kOpcodeCount; ++i) {
    const auto opcode = static_cast<Opcode>(i);
    const std::string_view name = opcodeName(opcode);
    ASSERT_FALSE(name.empty()) << i;
    EXPECT_EQ(opcodeFromName(name), opcode) << name;
    EXPECT_TRUE(isKnownOpcode(name)) << name;
    const OpcodeTraits& general = lookupOpcodeTraits(opcode, {});
    EXPECT_EQ(general.opcode, opcode) << name;
    EXPECT_EQ(general.name, name);
    EXPECT_TRUE(general.qualifier.empty()) << name;
    EXPECT_TRUE(general.known()) << name;
  }
  EXPECT_EQ(opcodeFromName("frobnicate"), Opcode::Unknown);
  EXPECT_EQ(opcodeFromName(""), Opcode::Unknown);
  EXPECT_EQ(opcodeName(Opcode::Unknown), "");
  const OpcodeTraits& unknown = lookupOpcodeTraits(Opcode::Unknown, {});
  EXPECT_FALSE(unknown.known());
  EXPECT_EQ(unknown.family, SemanticFamily::None);
  EXPECT_EQ(InstructionForm("frobnicate.b32").opcode(), Opcode::Unknown);
  EXPECT_EQ(InstructionForm("frobnicate.b32").opcodeName(), "frobnicate");
}

TEST(OpcodeTableTest, DerivedTraitsFollowTheFlags) {
  for (const OpcodeTraits& row : instructionTable()) {
    const bool leaves = row.has(kBranch) || row.has(kReturn) || row.has(kExit) || row.has(kTrap);
    EXPECT_EQ(row.has(kTerminator), leaves) << row.name << "." << row.qualifier;
    const StateSpace expected = row.has(kTexture) ? StateSpace::Tex
                                : (row.has(kMemoryRead) || row.has(kMemoryWrite))
                                    ? StateSpace::Generic
                                    : StateSpace::None;
    EXPECT_EQ(row.space, expected) << row.name << "." << row.qualifier;
  }
}

TEST(OpcodeTableTest, EveryRowHasAnExampleThatSelectsIt) {
  const auto table = instructionTable();
  ASSERT_EQ(table.size(), std::size(kInstructionExamples));
  for (size_t i = 0; i < table.size(); ++i) {
    const OpcodeTraits& row = table[i];
    const InstructionExample& example = kInstructionExamples[i];
    SCOPED_TRACE(example.text);
    EXPECT_EQ(example.opcode, row.opcode);
    EXPECT_EQ(example.qualifier, row.qualifier);
    // The example's spelling selects this very row: no earlier variant shadows it.
    InstructionForm form(spellingOf(example.text));
    EXPECT_EQ(form.opcode(), row.opcode);
    EXPECT_EQ(form.opcodeName(), row.name);
    EXPECT_EQ(&form.traits(), &row);
    EXPECT_EQ(form.family(), row.family);
  }
}

TEST(OpcodeTableTest, ExamplesParseRoundTripAndVerify) {
  for (const InstructionExample& example : kInstructionExamples) {
    SCOPED_TRACE(example.text);
    auto module = parseOrFail(exampleModule(example.text), "example.ptx");
    ASSERT_NE(module, nullptr);
    const auto errors = errorsOf(example.text);
    EXPECT_TRUE(errors.empty()) << joined(errors);
    auto reparsed = parseOrFail(emitPtx(*module), "example-emitted.ptx");
    ASSERT_NE(reparsed, nullptr);
    EXPECT_TRUE(reparsed->equals(*module));
  }
}

TEST(OpcodeTableTest, ExamplesAreRealPtx) {
#ifndef OCELOT_PTXAS_PATH
  GTEST_SKIP() << "ptxas not found";
#else
  // ptxas for sm_100a takes every example but the Hopper-only wgmma ones, which sm_90a takes.
  const std::filesystem::path dir = std::filesystem::path(OCELOT_BINARY_DIR) / "tests/ir/examples";
  std::filesystem::create_directories(dir);
  for (size_t i = 0; i < std::size(kInstructionExamples); ++i) {
    const std::string_view text = kInstructionExamples[i].text;
    SCOPED_TRACE(text);
    const std::filesystem::path ptx = dir / ("example" + std::to_string(i) + ".ptx");
    const std::filesystem::path log = dir / ("example" + std::to_string(i) + ".log");
    bool assembled = false;
    for (const std::string arch : {"sm_100a", "sm_90a"}) {
      std::string module = exampleModule(text);
      module.replace(module.find("sm_100a"), 7, arch);
      std::ofstream(ptx) << module;
      const std::string command = "\"" + std::string(OCELOT_PTXAS_PATH) + "\" -arch=" + arch +
                                  " \"" + ptx.string() + "\" -o /dev/null > \"" + log.string() +
                                  "\" 2>&1";
      if (std::system(command.c_str()) == 0) {
        assembled = true;
        break;
      }
    }
    std::ifstream messages(log);
    EXPECT_TRUE(assembled) << std::string((std::istreambuf_iterator<char>(messages)), {});
  }
#endif
}

TEST(OpcodeTableTest, VerifierChecksTheOperandCountsTheTableGives) {
  const auto table = instructionTable();
  for (size_t i = 0; i < table.size(); ++i) {
    const OpcodeTraits& row = table[i];
    const std::string_view text = kInstructionExamples[i].text;
    SCOPED_TRACE(text);
    auto operands = operandsOf(text);
    if (operands.empty())
      continue;
    const OperandRule rule = row.operands;
    // One operand more than the rule allows (or than the example has), and one fewer.
    auto more = operands;
    do
      more.push_back(operands.back());
    while (rule.maxOperands != OperandRule::kAnyCount && more.size() <= rule.maxOperands);
    auto fewer = operands;
    fewer.resize(rule.countChecked() && rule.minOperands > 0 ? rule.minOperands - 1u
                                                             : operands.size() - 1);
    const std::string takes = std::string(row.name) + " takes ";
    switch (rule.shape) {
    case OperandShape::Counted:
    case OperandShape::Uniform:
    case OperandShape::Selection:
    case OperandShape::Comparison:
      if (rule.maxOperands != OperandRule::kAnyCount) {
        const auto errors = errorsOf(withOperands(text, more));
        EXPECT_TRUE(anyContains(errors, takes)) << joined(errors);
      }
      if (rule.minOperands > 0) {
        const auto errors = errorsOf(withOperands(text, fewer));
        EXPECT_TRUE(anyContains(errors, takes)) << joined(errors);
      }
      break;
    case OperandShape::Label: {
      const auto errors = errorsOf(withOperands(text, more));
      EXPECT_TRUE(anyContains(errors, std::string(row.name) + " takes exactly one label"))
          << joined(errors);
      break;
    }
    case OperandShape::BranchTable: {
      const auto errors = errorsOf(withOperands(text, fewer));
      EXPECT_TRUE(anyContains(errors, "takes an index and the name of a .branchtargets table"))
          << joined(errors);
      break;
    }
    case OperandShape::Call: {
      operands[0] = "nosuch";
      const auto errors = errorsOf(withOperands(text, operands));
      EXPECT_TRUE(anyContains(errors, "call target 'nosuch' is not a function")) << joined(errors);
      break;
    }
    case OperandShape::Unchecked:
    case OperandShape::Conversion: {
      // No count in the table: the verifier checks none.
      const auto errors = errorsOf(withOperands(text, more));
      EXPECT_FALSE(anyContains(errors, " takes ")) << joined(errors);
      break;
    }
    }
  }
}

TEST(OpcodeTableTest, VerifierChecksTheOperandTypesTheTableGives) {
  const auto table = instructionTable();
  size_t typed = 0;
  for (size_t i = 0; i < table.size(); ++i) {
    const OpcodeTraits& row = table[i];
    const std::string_view text = kInstructionExamples[i].text;
    SCOPED_TRACE(text);
    auto operands = operandsOf(text);
    if (operands.empty() || operands[0].front() != '%')
      continue;
    // A destination of the wrong kind: a predicate for a value, a value for a predicate.
    operands[0] = operands[0].starts_with("%p") ? "%r7" : "%p7";
    const auto errors = errorsOf(withOperands(text, operands));
    switch (row.operands.shape) {
    case OperandShape::Uniform:
    case OperandShape::Selection:
    case OperandShape::Comparison:
    case OperandShape::Conversion:
      ++typed;
      EXPECT_TRUE(anyContains(errors, "destination " + operands[0])) << joined(errors);
      break;
    default:
      EXPECT_FALSE(anyContains(errors, "destination " + operands[0])) << joined(errors);
      break;
    }
  }
  EXPECT_GT(typed, 10u);
}

} // namespace
} // namespace ocelot::test
