// Bad input: every malformed module gets one diagnostic with file, line, column and what was
// expected, and never a crash or a hang. tests/ir/malformed/*.ptx each start with
// `// expect: LINE:COLUMN: MESSAGE-PREFIX`; the generated cases below cover what files cannot
// hold conveniently (binary garbage, huge tokens, deep nesting, every truncation of a module).

#include "TestPtx.h"
#include "ir/Emitter.h"

#include <filesystem>
#include <random>
#include <regex>

namespace ocelot::test {
namespace {

namespace fs = std::filesystem;

struct Expectation {
  uint32_t line = 0;
  uint32_t column = 0;
  std::string message;
};

Expectation expectationOf(const std::string& text) {
  static const std::regex header(R"(^// expect: (\d+):(\d+): (.*))");
  std::smatch match;
  std::string firstLine = text.substr(0, text.find('\n'));
  if (!std::regex_match(firstLine, match, header))
    return {};
  return {static_cast<uint32_t>(std::stoul(match[1])), static_cast<uint32_t>(std::stoul(match[2])),
          match[3]};
}

std::vector<fs::path> malformedFiles() {
  std::vector<fs::path> files;
  for (const auto& entry :
       fs::directory_iterator(std::string(OCELOT_SOURCE_DIR) + "/tests/ir/malformed"))
    if (entry.path().extension() == ".ptx")
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

class MalformedPtxTest : public ::testing::TestWithParam<fs::path> {};

TEST_P(MalformedPtxTest, GivesOneLocatedDiagnostic) {
  const fs::path& path = GetParam();
  std::string text = readTextFile(path.string());
  Expectation expected = expectationOf(text);
  ASSERT_FALSE(expected.message.empty()) << path << " lacks its '// expect:' header";

  ir::ParseResult result = ir::parsePtxFile(path);
  ASSERT_FALSE(result.ok()) << path << " parsed but must not";
  ASSERT_EQ(result.diagnostics.size(), 1u);
  const ir::Diagnostic& diagnostic = result.diagnostics.front();
  EXPECT_EQ(diagnostic.file, path.string());
  EXPECT_EQ(diagnostic.position.line, expected.line) << diagnostic.format();
  EXPECT_EQ(diagnostic.position.column, expected.column) << diagnostic.format();
  EXPECT_EQ(diagnostic.message.rfind(expected.message, 0), 0u)
      << "got:      " << diagnostic.message << "\nexpected: " << expected.message << "...";
  // The formatted diagnostic is what users see: file:line:column: message.
  EXPECT_EQ(diagnostic.format(), path.string() + ":" + std::to_string(expected.line) + ":" +
                                     std::to_string(expected.column) + ": " + diagnostic.message);
}

INSTANTIATE_TEST_SUITE_P(Files, MalformedPtxTest, ::testing::ValuesIn(malformedFiles()),
                         [](const ::testing::TestParamInfo<fs::path>& param) {
                           return param.param.stem().string();
                         });

const char* kHeader = ".version 9.0\n.target sm_90\n.address_size 64\n";

TEST(MalformedPtxGenerated, OverlongIdentifierIsRejected) {
  // The limit (16 MiB) is far beyond compilers' names; one character more is an error.
  std::string name(ir::kMaxPtxTokenLength + 1, 'x');
  std::string text = std::string(kHeader) + ".global .u32 " + name + ";\n";
  ir::ParseResult result = ir::parsePtx(text, "long.ptx");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.diagnostics[0].position.line, 4u);
  EXPECT_NE(result.diagnostics[0].message.find("longer than the limit"), std::string::npos)
      << result.firstError();
}

TEST(MalformedPtxGenerated, LongNamesCompilersWriteAreAccepted) {
  // A template kernel's mangled name of 12,516 characters failed against the first limit of
  // 4,096; ptxas takes names of a million characters. As kernel, parameter, callee and variable.
  for (size_t length : {size_t{12516}, size_t{1000000}}) {
    std::string name = "_Z" + std::string(length - 2, 'N');
    std::string text = std::string(kHeader) + ".global .u32 " + name + "_v;\n.func " + name +
                       "_f()\n{\n\tret;\n}\n.visible .entry " + name + "(.param .u64 " + name +
                       "_p)\n{\n\t.reg .b64 %rd<2>;\n\tld.param.u64 %rd1, [" + name +
                       "_p];\n\tcall.uni " + name + "_f, ();\n\tmov.u64 %rd1, " + name +
                       "_v;\n\tret;\n}\n";
    ir::ParseResult result = ir::parsePtx(text, "long-names.ptx");
    ASSERT_TRUE(result.ok()) << length << ": " << result.firstError();
    ASSERT_NE(result.module->findFunction(name), nullptr);
    ir::ParseResult again = ir::parsePtx(ir::emitPtx(*result.module), "again.ptx");
    ASSERT_TRUE(again.ok()) << again.firstError();
    EXPECT_TRUE(again.module->equals(*result.module));
  }
}

TEST(MalformedPtxGenerated, NestingLimitsLieBeyondPtxas) {
  // ptxas' parser gives up at about 1,660 nested scopes; Ocelot takes 4,096.
  std::string scopes = std::string(kHeader) + ".visible .entry k()\n{\n" + std::string(2000, '{') +
                       "\tret;\n" + std::string(2000, '}') + "\n}\n";
  EXPECT_TRUE(ir::parsePtx(scopes, "scopes.ptx").ok());
  // Initializers 256 deep (nvcc writes them flat).
  std::string dims, open(256, '{'), close(256, '}');
  for (int i = 0; i < 256; ++i)
    dims += "[1]";
  std::string deep =
      std::string(kHeader) + ".global .u32 a" + dims + " = " + open + "5" + close + ";\n";
  ir::ParseResult result = ir::parsePtx(deep, "dims.ptx");
  ASSERT_TRUE(result.ok()) << result.firstError();
  ir::ParseResult again = ir::parsePtx(ir::emitPtx(*result.module), "dims-again.ptx");
  ASSERT_TRUE(again.ok()) << again.firstError();
  EXPECT_TRUE(again.module->equals(*result.module));
  std::string deeper = std::string(kHeader) + ".global .u32 a[1] = " + std::string(257, '{') + "5" +
                       std::string(257, '}') + ";\n";
  EXPECT_FALSE(ir::parsePtx(deeper, "deeper.ptx").ok());
}

TEST(MalformedPtxGenerated, DeeplyNestedScopesAreRejected) {
  std::string text = std::string(kHeader) + ".visible .entry k()\n{\n" + std::string(100000, '{') +
                     std::string(100000, '}') + "\n}\n";
  ir::ParseResult result = ir::parsePtx(text, "deep.ptx");
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.firstError().find("nested deeper than"), std::string::npos)
      << result.firstError();
}

TEST(MalformedPtxGenerated, DeeplyNestedInitializersAreRejected) {
  std::string text = std::string(kHeader) + ".global .b32 x[1] = " + std::string(5000, '{') + "1" +
                     std::string(5000, '}') + ";\n";
  ir::ParseResult result = ir::parsePtx(text, "deepinit.ptx");
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.firstError().find("nested deeper than"), std::string::npos)
      << result.firstError();
}

TEST(MalformedPtxGenerated, HugeRegisterRangeCostsNothing) {
  // A range is one table entry, not four billion registers.
  std::string text = std::string(kHeader) + ".visible .entry k()\n{\n\t.reg .b32 %r<4000000000>;\n"
                                            "\tmov.u32 %r3999999999, 1;\n\tret;\n}\n";
  auto module = parseOrFail(text);
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->findFunction("k")->registerDeclarators().size(), 1u);
}

TEST(MalformedPtxGenerated, BinaryGarbageNeverCrashes) {
  std::mt19937 random(20261121);
  for (int round = 0; round < 200; ++round) {
    std::string text(static_cast<size_t>(random() % 4096), '\0');
    for (char& c : text)
      c = static_cast<char>(random() & 0xff);
    ir::ParseResult result = ir::parsePtx(text, "garbage.bin");
    EXPECT_FALSE(result.ok());
    if (!result.ok()) {
      EXPECT_EQ(result.diagnostics.size(), 1u);
      EXPECT_FALSE(result.diagnostics[0].message.empty());
    }
  }
}

TEST(MalformedPtxGenerated, EmbeddedNulByteIsReported) {
  std::string text = std::string(kHeader) + ".global .u32 x;\n";
  text[text.size() - 4] = '\0';
  ir::ParseResult result = ir::parsePtx(text, "nul.ptx");
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.firstError().find("unexpected byte 0x00"), std::string::npos)
      << result.firstError();
}

TEST(MalformedPtxGenerated, EveryTruncationOfARealModuleIsHandled) {
  std::string text = readTextFile(irDataPath("wild.ptx"));
  ASSERT_FALSE(text.empty());
  size_t failures = 0;
  for (size_t length = 0; length < text.size(); length += 37) {
    ir::ParseResult result = ir::parsePtx(std::string_view(text).substr(0, length), "cut.ptx");
    if (result.ok())
      continue; // cut between items: a shorter but valid module
    ++failures;
    ASSERT_EQ(result.diagnostics.size(), 1u);
    const auto& position = result.diagnostics[0].position;
    // The error points inside the truncated text (line 0 only for "cannot read" errors).
    size_t lines = static_cast<size_t>(std::count(text.begin(), text.begin() + length, '\n')) + 1;
    EXPECT_GE(position.line, 1u) << result.firstError();
    EXPECT_LE(position.line, lines) << result.firstError();
  }
  EXPECT_GT(failures, 50u);
}

TEST(MalformedPtxGenerated, UnreadableFileIsADiagnostic) {
  ir::ParseResult result = ir::parsePtxFile("/nonexistent/ocelot/input.ptx");
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.firstError().find("cannot open file"), std::string::npos);
}

} // namespace
} // namespace ocelot::test
