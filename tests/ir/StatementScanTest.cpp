// At statement boundaries the lexer reads simple instructions and `.loc` lines by hand
// (Lexer::scanStatements) instead of through the scanner's rules and the grammar. Random bodies
// built from valid, nearly valid and invalid pieces must give the same module or the same
// diagnostic as the grammar-only route (ParseOptions::scannerFastPath off).

#include "TestPtx.h"
#include "ir/Emitter.h"

#include <random>

namespace ocelot::test {
namespace {

using namespace ocelot::ir;

void expectSameByBothRoutes(const std::string& text) {
  ParseResult fast = parsePtx(text, "body.ptx");
  ParseOptions grammarOnly;
  grammarOnly.scannerFastPath = false;
  ParseResult reference = parsePtx(text, "body.ptx", grammarOnly);
  ASSERT_EQ(fast.ok(), reference.ok())
      << fast.firstError() << " | " << reference.firstError() << "\n"
      << text;
  if (!fast.ok()) {
    // Both fail on the same line. (Not always at the same column: where a `{` or `}` that ends a
    // statement could also be part of one, the scanner takes the next line as one token.)
    ASSERT_FALSE(fast.diagnostics.empty());
    ASSERT_FALSE(reference.diagnostics.empty());
    EXPECT_EQ(fast.diagnostics[0].position.line, reference.diagnostics[0].position.line)
        << fast.firstError() << " | " << reference.firstError() << "\n"
        << text;
    return;
  }
  EXPECT_TRUE(fast.module->equals(*reference.module)) << text;
  std::string emitted = emitPtx(*fast.module);
  EXPECT_EQ(emitted, emitPtx(*reference.module)) << text;
}

TEST(StatementScan, CommonStatementsAreReadByHand) {
  expectSameByBothRoutes(kernelWithBody(
      "\t.loc 1 2 3\n\tadd.s32 \t%r1, %r2, 5;\n\t@%p1 bra $L__BB0_1;\n"
      "\t@!%p2 st.global.v2.f32 [%rd1+-8], {%f1, %f2};  // comment\n"
      "$L__BB0_1:\n\t.loc 1 4 5, function_name $L__info_string0, inlined_at 1 2 3\n"
      "\tld.global.nc.L2::cache_hint.u32 %r3, [%rd2], %rd3;\n\tshfl.sync.idx.b32 %r4|%p3, %r1, 0, "
      "31, -1;\n\tmov.f32 %f3, 0f3F800000;\n\tmov.u32 %r5, %tid.x;\n\tret;\n"));
}

TEST(StatementScan, RandomBodiesGiveTheSameResultByBothRoutes) {
  const std::vector<std::string> mnemonics =
      pieces("add.s32#ld.global.v4.f32#bra#bra.uni#mov.b32#setp.lt.s32#@%p1 bra#"
             "@!%p1 st.global.u32#@ %p1 ret#@p ret#ret#exit#x.y::z#a.b::#a.$b#"
             "cvt.rn.f32.s32#wmma.load.a.sync.aligned.row.m16n16k16.global.f16#"
             "call.uni#tex.2d.v4.f32.s32#ld.param.u64#shfl.sync.idx.b32#_#$x");
  const std::vector<std::string> operands =
      pieces("%r1#%r31#%r32#%rd2#%p1#!%p1#%tid.x#%tid.xy#%r1.x#%ctaid.y1#1#-1#0x1F#"
             "0x1FU#0b101#017#0f3F800000#0f3F80000#0d3FF0000000000000#1.5#sym#sym+4#_#"
             "[%rd1]#[%rd1+8]#[%rd1+-8]#[%rd1-8]#[ %rd1 + 4 ]#[sym]#[sym+4]#"
             "[%rd1+ - 4]#[%r1.x]#[1]#{%r1, %r2}#{%r1,_}#{1, -2}#{%r1.x}#"
             "{ %f1 , %f2 }#%r1|%p1#_|%p2#%r1|1#(%r1)#generic(sym)#L1#$L__BB0_1#!sym#"
             "-%r1#%#!#[%rd1#{%r1#5U#0x#p#!p#%q1#%SP#[param0]#[depot+4]#r1#%w3#x");
  const std::vector<std::string> separators = pieces(", #,# ,# #\t,\t#,,");
  const std::vector<std::string> ends = pieces(";\n# ;\n#;\r\n#; // c\n#;#\n#; ;\n");
  const std::vector<std::string> others =
      pieces("$L__BB0_1:\n#L1:\n#.loc 1 2 3\n#.loc\t1 2 3 \n#.loc 1 2\n#"
             ".loc 1 2 3, function_name $L__info_string0, inlined_at 1 4 5\n#"
             ".loc 1 2 3,function_name f,inlined_at 1 4 5\n#.loc 1 2 3 // c\n#"
             ".loc 1 2 3, function_name f, inlined_at 1 4\n#.loc 1 99999999999 3\n#"
             "{\n#}\n#.reg .b32 %q<4>;\n#// only a comment\n#\n#  \t\n#/* c */\n#"
             "L2 : add.s32 %r1, %r2, 1;\n#L3:  // c\n#_:\n#L4:\n.callprototype\n#"
             "prototype_0 : .callprototype (.param .b32 _) _ (.param .b64 _);\n#"
             "ts: .branchtargets L1, L2;\n#L5:\n// c\nts2: .branchtargets L5;\n#"
             ".param .b64 param0;\n#.local .align 16 .b8 depot[16];\n#"
             ".reg .b64 %SP, %SPL;\n#.shared .align 4 .b8 buf[];\n#"
             ".shared .b8 grid[2][3], flat[4] ;\n#.reg .b32 r<4>;\n#.reg .pred p;\n#"
             ".reg .b32 %r1;\n#.align 8 .b8 x[4];\n#.reg .b32 %q<4>, %q<2>;\n#"
             ".reg .b32 %q<4294967296>;\n#.reg .v4 .f32 %v<2>;\n#.reg .b32 x = 1;\n#"
             ".attribute(.managed) .global .u32 m;\n#.reg .b32 %r<3>;\n#"
             ".reg .b32 %w<010>;\n#.reg .b32 %w<0x10>;\n#.reg .b32 %w< 4 > ;\n#"
             ".reg\t.b32\t%w<4>,\t%x;\n#.reg .b32;\n#.reg %w<2>;\n#"
             ".local .b8 d[1][];\n#.reg .b32 %z.x;\n#.entry\n#.loc .b8 x;\n");
  std::mt19937 random(20261122);
  auto pick = [&](const std::vector<std::string>& from) { return from[random() % from.size()]; };
  for (int round = 0; round < 3000; ++round) {
    std::string body;
    size_t statements = 1 + random() % 6;
    for (size_t s = 0; s < statements; ++s) {
      if (random() % 4 == 0) {
        body += pick(others);
        continue;
      }
      body += "\t" + pick(mnemonics);
      size_t count = random() % 4;
      for (size_t i = 0; i < count; ++i)
        body += (i == 0 ? (random() % 8 == 0 ? "" : " \t") : pick(separators)) + pick(operands);
      body += pick(ends);
    }
    std::string text = kernelWithBody(body);
    text.insert(text.find(".visible"), ".global .u32 sym;\n");
    expectSameByBothRoutes(text);
    if (::testing::Test::HasFailure())
      break;
  }
}

} // namespace
} // namespace ocelot::test
