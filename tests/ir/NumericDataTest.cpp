// Numeric data: initializer lists (`.b8 t[N] = {1, 2, ...}`, `0f` tables) and debug-section bodies
// are read by hand-written loops in the lexer (runs of integers or 0f/0d literals as one token,
// section lines straight into the section). The grammar-only route (ParseOptions with the scanner
// fast path off) reads them through the scanner's rules: both must give the same module or the
// same diagnostic, and emission must not depend on how the values were read.

#include "TestPtx.h"
#include "ir/Emitter.h"

#include <random>

namespace ocelot::test {
namespace {

using namespace ocelot::ir;

const char* kHeader = ".version 9.0\n.target sm_90\n.address_size 64\n";

/// Parses `text` by both routes and checks that they agree; returns the fast route's result.
ParseResult parseBothWays(const std::string& text) {
  ParseResult fast = parsePtx(text, "data.ptx");
  ParseOptions grammarOnly;
  grammarOnly.scannerFastPath = false;
  ParseResult reference = parsePtx(text, "data.ptx", grammarOnly);
  EXPECT_EQ(fast.ok(), reference.ok())
      << fast.firstError() << " | " << reference.firstError() << "\n"
      << text;
  if (fast.ok() && reference.ok()) {
    EXPECT_TRUE(fast.module->equals(*reference.module)) << text;
    for (bool preserveLines : {true, false}) {
      std::string emitted = emitPtx(*fast.module, EmitOptions{preserveLines});
      EXPECT_EQ(emitted, emitPtx(*reference.module, EmitOptions{preserveLines})) << text;
      ParseResult again = parsePtx(emitted, "emitted.ptx");
      EXPECT_TRUE(again.ok()) << again.firstError() << "\n" << emitted;
      if (again.ok()) {
        EXPECT_TRUE(again.module->equals(*fast.module)) << emitted;
      }
    }
  }
  if (!fast.ok() && !reference.ok()) {
    EXPECT_EQ(fast.firstError(), reference.firstError()) << text;
  }
  return fast;
}

const Initializer& initializerOf(const Module& module, std::string_view name) {
  const GlobalVariable* global = module.findGlobal(name);
  EXPECT_NE(global, nullptr) << name;
  for (const auto& d : global->spec().declarators)
    if (d.name == name && d.initializer)
      return *d.initializer;
  ADD_FAILURE() << name << " has no initializer";
  static const Initializer none;
  return none;
}

TEST(IntegerValues, StoreEachValueInTheNarrowestWidthOfTheList) {
  IntegerValues bytes{0, 1, 255};
  EXPECT_EQ(bytes.width(), 1u);
  EXPECT_EQ(bytes, (std::vector<int64_t>{0, 1, 255}));
  IntegerValues words{1, 256, 65535};
  EXPECT_EQ(words.width(), 2u);
  IntegerValues wide{1, 65536, 4294967295};
  EXPECT_EQ(wide.width(), 4u);
  EXPECT_EQ(wide[2], 4294967295);
  IntegerValues signedValues{1, -1, INT64_MIN, INT64_MAX};
  EXPECT_EQ(signedValues.width(), 8u);
  EXPECT_EQ(signedValues, (std::vector<int64_t>{1, -1, INT64_MIN, INT64_MAX}));
  // Widening keeps the values; appending runs of other widths too.
  IntegerValues grown{7, 8};
  grown.push_back(70000);
  grown.append(IntegerValues{-3});
  const uint8_t more[] = {9, 255};
  grown.appendBytes(more, 2);
  EXPECT_EQ(grown, (std::vector<int64_t>{7, 8, 70000, -3, 9, 255}));
  EXPECT_EQ(grown, (IntegerValues{7, 8, 70000, -3, 9, 255}));
  EXPECT_NE(grown, (IntegerValues{7, 8, 70000, -3, 9}));
}

TEST(NumericData, IntegerRunsArePackedAndEmittedAsBefore) {
  std::string text = std::string(kHeader) +
                     ".global .align 1 .b8 bytes[6] = {0, 1, 17, 255, 0, 9};\n"
                     ".global .align 4 .u32 words[5] = {1, 300, 65536, 4294967295, 7};\n"
                     ".global .align 8 .s64 wide[4] = {-1, 9223372036854775807, -7, 0};\n"
                     ".global .align 1 .b8 spaced[4] = {1 ,2\t,  3,4};\n"
                     ".global .align 1 .b8 lines[5] = {1, 2,\n3, 4,\r\n 5};\n"
                     ".global .align 4 .u32 nested[2][3] = {{1, 2, 3}, {4, 5, 600}};\n"
                     ".global .align 1 .b8 one[1] = {42};\n";
  ParseResult result = parseBothWays(text);
  ASSERT_TRUE(result.ok()) << result.firstError();
  const Module& module = *result.module;
  EXPECT_EQ(initializerOf(module, "bytes").integerValues(),
            (std::vector<int64_t>{0, 1, 17, 255, 0, 9}));
  EXPECT_EQ(initializerOf(module, "bytes").integerValues().width(), 1u);
  EXPECT_EQ(initializerOf(module, "words").integerValues().width(), 4u);
  EXPECT_EQ(initializerOf(module, "wide").integerValues(),
            (std::vector<int64_t>{-1, INT64_MAX, -7, 0}));
  EXPECT_EQ(initializerOf(module, "lines").integerValues(), (std::vector<int64_t>{1, 2, 3, 4, 5}));
  EXPECT_EQ(initializerOf(module, "nested").elements()[1].integerValues(),
            (std::vector<int64_t>{4, 5, 600}));
  std::string emitted = emitPtx(module, EmitOptions{false});
  EXPECT_NE(emitted.find("bytes[6] = {0, 1, 17, 255, 0, 9};"), std::string::npos) << emitted;
  EXPECT_NE(emitted.find("words[5] = {1, 300, 65536, 4294967295, 7};"), std::string::npos);
  EXPECT_NE(emitted.find("wide[4] = {-1, 9223372036854775807, -7, 0};"), std::string::npos);
  EXPECT_NE(emitted.find("spaced[4] = {1, 2, 3, 4};"), std::string::npos);
  EXPECT_NE(emitted.find("nested[2][3] = {{1, 2, 3}, {4, 5, 600}};"), std::string::npos);
}

TEST(NumericData, SpellingsOutsideRunsKeepTheirForm) {
  // -0, octal, hex, U suffixes and values past int64_t are not plain decimal: the list is kept
  // element by element, as written.
  std::string text = std::string(kHeader) +
                     ".global .align 4 .u32 a[4] = {1, 2, -0, 3};\n"
                     ".global .align 4 .u32 b[4] = {1, 2, 017, 3};\n"
                     ".global .align 4 .u32 c[4] = {1, 2, 0x1F, 3U};\n"
                     ".global .align 8 .u64 d[3] = {1, 9223372036854775808, 2};\n"
                     ".global .align 8 .u64 e[3] = {1, sym, 2};\n"
                     ".global .align 4 .u32 sym;\n";
  ParseResult result = parseBothWays(text);
  ASSERT_TRUE(result.ok()) << result.firstError();
  for (const char* name : {"a", "b", "c", "d", "e"})
    EXPECT_EQ(initializerOf(*result.module, name).kind(), Initializer::Kind::List) << name;
  std::string emitted = emitPtx(*result.module, EmitOptions{false});
  EXPECT_NE(emitted.find("a[4] = {1, 2, -0, 3};"), std::string::npos) << emitted;
  EXPECT_NE(emitted.find("b[4] = {1, 2, 017, 3};"), std::string::npos) << emitted;
  EXPECT_NE(emitted.find("c[4] = {1, 2, 0x1F, 3U};"), std::string::npos) << emitted;
  EXPECT_NE(emitted.find("d[3] = {1, 9223372036854775808, 2};"), std::string::npos) << emitted;
}

TEST(NumericData, FloatRunsKeepTheirBits) {
  std::string text =
      std::string(kHeader) +
      ".global .align 4 .f32 f[4] = {0f3F800000, 0f40000000, 0fbf800000, 0f00000000};\n"
      ".global .align 8 .f64 d[2] = {0d3FF0000000000000, 0dC000000000000000};\n"
      ".global .align 4 .f32 mixed[4] = {0f3F800000, -0f3F800000, 0f3F800000, 1.5};\n";
  ParseResult result = parseBothWays(text);
  ASSERT_TRUE(result.ok()) << result.firstError();
  const Initializer& f = initializerOf(*result.module, "f");
  ASSERT_EQ(f.kind(), Initializer::Kind::List);
  ASSERT_EQ(f.elements().size(), 4u);
  const auto& third = f.elements()[2].scalar().as<ImmediateOperand>();
  EXPECT_EQ(third.format, ImmediateOperand::Format::Float32Bits);
  EXPECT_EQ(third.magnitude, 0xbf800000u);
  std::string emitted = emitPtx(*result.module, EmitOptions{false});
  EXPECT_NE(emitted.find("f[4] = {0f3F800000, 0f40000000, 0fBF800000, 0f00000000};"),
            std::string::npos)
      << emitted;
  EXPECT_NE(emitted.find("d[2] = {0d3FF0000000000000, 0dC000000000000000};"), std::string::npos);
  EXPECT_NE(emitted.find("mixed[4] = {0f3F800000, -0f3F800000, 0f3F800000, 1.5};"),
            std::string::npos);
}

TEST(NumericData, RunsAreReportedWhereTheyGoWrong) {
  struct Case {
    std::string body;
    std::string error;
  };
  std::vector<Case> cases = {
      {".global .b8 t[3] = {1, 2, 3 x};", "data.ptx:4:29: unexpected identifier 'x'"},
      {".global .b8 t[3] = {1, 2, 3, 4 5};", "data.ptx:4:32: unexpected integer '5'"},
      {".global .b8 t[3] = {1, 2, 99999999999999999999999};",
       "data.ptx:4:27: integer literal '99999999999999999999999' does not fit in 64 bits"},
      {".global .f32 t[3] = {0f3F800000, 0f3F80000, 0f3F800000};",
       "data.ptx:4:34: floating-point literal '0f3F80000' needs 8 (0f) or 16 (0d) hex digits"},
      {".global .b8 t[3] = {1, 2, 3,, 4};", "data.ptx:4:29: unexpected ','"},
      {".global .b8 t[3] = {1, 2, 3", "data.ptx:4:29: unexpected end of file, expected '}'"},
      {".global .b8 t[3] = {1, -0, 3};\n.global .b8 u[2] = {- 5, 6};", ""},
      {".global .u32 s;\n.global .u64 t[3] = {s+4, 5, s + 4, 6};", ""},
  };
  for (const Case& c : cases) {
    ParseResult result = parseBothWays(std::string(kHeader) + c.body + "\n");
    if (c.error.empty()) {
      EXPECT_TRUE(result.ok()) << result.firstError();
      continue;
    }
    ASSERT_FALSE(result.ok()) << c.body;
    EXPECT_EQ(result.firstError().rfind(c.error, 0), 0u)
        << "got:      " << result.firstError() << "\nexpected: " << c.error;
  }
}

TEST(NumericData, SectionLinesAreReadByHandAsTheRulesReadThem) {
  std::string text = std::string(kHeader) +
                     ".global .align 4 .u32 sym;\n"
                     "\t.section\t.debug_info\n\t{\n"
                     ".b32 95918\n.b8 2\n\n  .b8 0\n.b32 .debug_abbrev\n"
                     ".b8 108,103,101 , 110\n$L__info_string0:\n"
                     ".b64 $L__func_begin0\n.b32 .debug_loc+1021\n.b32 .debug_loc + 7\n"
                     ".b8 1, 0x1F, -0x2, -5, 007\n.b8 0x1f\n.b16 -0X2A, 3\n.b32 "
                     "$L__end-$L__start\n.b32 $L__a - $L__b\n"
                     ".b64 sym+4, sym + 8\n.b8 1,\n2\n.b8 3 // comment\n// only a comment\n"
                     "L : \n.b8 4 .b16 5\r\n.b8 6\n\t}\n";
  ParseResult result = parseBothWays(text);
  ASSERT_TRUE(result.ok()) << result.firstError();
  const auto* section = dyn_cast<DebugSection>(result.module->items().back().get());
  ASSERT_NE(section, nullptr);
  std::string emitted = emitPtx(*result.module, EmitOptions{false});
  EXPECT_NE(emitted.find(".b8 108, 103, 101, 110\n$L__info_string0:\n"), std::string::npos)
      << emitted;
  EXPECT_NE(emitted.find(".b8 1, 0x1F, -0x2, -5, 7\n.b8 0x1F\n.b16 -0x2A, 3\n"), std::string::npos)
      << emitted;
  EXPECT_NE(emitted.find(".b32 .debug_loc+1021\n.b32 .debug_loc+7\n"), std::string::npos);
  EXPECT_NE(emitted.find(".b32 $L__end-$L__start\n.b32 $L__a-$L__b\n"), std::string::npos);
  EXPECT_NE(emitted.find(".b8 4\n.b16 5\n.b8 6\n"), std::string::npos) << emitted;
}

TEST(NumericData, MalformedSectionLinesGiveTheRulesDiagnostics) {
  struct Case {
    std::string line;
    std::string error;
  };
  std::vector<Case> cases = {
      {".b8 12abc", "data.ptx:6:7: expected ',' or a new directive before 'abc'"},
      {".b8 1, 2 3", "data.ptx:6:10: expected ',' or a new directive before '3'"},
      {".b8 ,1", "data.ptx:6:5: unexpected ',' in .section"},
      {".b8", "data.ptx:7:2: expected a value before '}'"},
      {".b8 +5", "data.ptx:6:1: expected a data directive such as .b8, found '.b8 +5'"},
      {".b64 $L__x:", "data.ptx:6:6: expected a value, found label '$L__x:'"},
      {".b64 a-5", "data.ptx:6:7: expected ',' or a new directive before '-5'"},
      {".b8 1 }x", "data.ptx:7:2: unexpected '}', expected ';' or ','"},
      {"oops", "data.ptx:6:1: expected a data directive such as .b8 or a label, found 'oops'"},
      {".b8 99999999999999999999999",
       "data.ptx:6:1: integer literal '99999999999999999999999' does not fit in 64 bits"},
  };
  for (const Case& c : cases) {
    std::string text = std::string(kHeader) + "\t.section\t.debug_str\n\t{\n" + c.line + "\n\t}\n";
    ParseResult result = parseBothWays(text);
    ASSERT_FALSE(result.ok()) << c.line;
    EXPECT_EQ(result.firstError().rfind(c.error, 0), 0u)
        << "got:      " << result.firstError() << "\nexpected: " << c.error;
  }
}

/// Random data built from pieces that are valid, nearly valid and invalid where the hand-written
/// loops make their decisions: both routes must agree on every one of them.
TEST(NumericData, RandomDataGivesTheSameResultByBothRoutes) {
  const std::vector<std::string> elements =
      pieces("0#1#9#10#99#100#255#256#999#1000#65535#65536#4294967295#4294967296#-1#"
             "-255#-0#017#00#0x1F#3U#1.5#sym#sym+4#0f3F800000#0f3f800000#-0f3F800000#"
             "0d3FF0000000000000#0f3F80000#123456789012345678#1234567890123456789#"
             "9223372036854775807#9223372036854775808#99999999999999999999999#{1, 2}#"
             "{}#x##}#1 2");
  const std::vector<std::string> separators =
      pieces(", #,# , #,\n#, \r\n#\t,\t#,\r\r# #,,#, // c\n");
  const std::vector<std::string> sectionPieces =
      pieces(".b8 #.b32 #.b64 #0#17#-5#255#0x1F#-0x2#007#12abc#.debug_abbrev#.d+12#"
             "$L__x#$L__x+3#$L__a-$L__b# - #$L__l:#, #,# , #\n#\r\n#\n\n# #\t#// c#+#"
             "x#99999999999999999999#0f3F800000");
  std::mt19937 random(20261121);
  auto pick = [&](const std::vector<std::string>& from) { return from[random() % from.size()]; };
  for (int round = 0; round < 4000; ++round) {
    std::string text = std::string(kHeader) + ".global .align 4 .u32 sym;\n";
    if (round % 2 == 0) {
      text += ".global .align 1 .b8 t[64] = {";
      size_t count = random() % 12;
      for (size_t i = 0; i < count; ++i) {
        if (i > 0)
          text += pick(separators);
        text += pick(elements);
      }
      text += "};\n";
    } else {
      text += "\t.section\t.debug_info\n\t{\n";
      size_t count = random() % 16;
      for (size_t i = 0; i < count; ++i)
        text += pick(sectionPieces);
      text += "\n\t}\n";
    }
    parseBothWays(text);
    if (::testing::Test::HasFailure())
      break;
  }
}

} // namespace
} // namespace ocelot::test
