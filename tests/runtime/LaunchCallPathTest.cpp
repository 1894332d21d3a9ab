// Launch-site call paths (issue 16): the ELF symbol tables that name return addresses, the stack
// capture that drops the runtime's own frames, and the symbolizer.

#include "runtime/instrumentation/LaunchCallPath.h"

#include "runtime/instrumentation/ElfFunctionSymbols.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

using namespace ocelot::runtime::instrumentation;

namespace {

CapturedCallPath captured;

// Out of line and with work after the calls, so that neither inlining nor tail calls remove the
// frames the test looks for.
__attribute__((noinline)) int captureInner(const CallPathCapture& capture, int depth) {
  capture.capture(captured);
  asm volatile("" ::: "memory");
  return depth + 1;
}

__attribute__((noinline)) int captureOuter(const CallPathCapture& capture) {
  int depth = captureInner(capture, 1);
  asm volatile("" ::: "memory");
  return depth + 1;
}

size_t indexOf(const std::vector<std::string>& frames, const std::string& prefix) {
  auto it = std::find_if(frames.begin(), frames.end(),
                         [&](const std::string& f) { return f.rfind(prefix, 0) == 0; });
  return static_cast<size_t>(it - frames.begin());
}

} // namespace

TEST(ElfFunctionSymbols, FindsThisTestsOwnFunctions) {
  ElfFunctionSymbols symbols = ElfFunctionSymbols::read("/proc/self/exe");
  ASSERT_GT(symbols.size(), 0u);
  CallPathSymbolizer symbolizer;
  // A return address one byte into the function names it (the lookup uses the byte before).
  auto inner = reinterpret_cast<uintptr_t>(&captureInner);
  EXPECT_EQ(symbolizer.frame(inner + 1),
            "(anonymous namespace)::captureInner(ocelot::runtime::instrumentation::"
            "CallPathCapture const&, int)");
}

TEST(ElfFunctionSymbols, RejectsWhatIsNotElf) {
  EXPECT_EQ(ElfFunctionSymbols::parse({}).size(), 0u);
  std::vector<char> text(200, 'x');
  EXPECT_EQ(ElfFunctionSymbols::parse(text).size(), 0u);
  EXPECT_EQ(ElfFunctionSymbols::read("/nonexistent/file").find(0x1000), nullptr);
  // A real header whose section table lies past the end: nothing, and no read out of bounds.
  ElfFunctionSymbols whole = ElfFunctionSymbols::read("/proc/self/exe");
  ASSERT_GT(whole.size(), 0u);
  std::vector<char> headerOnly(64);
  FILE* self = std::fopen("/proc/self/exe", "rb");
  ASSERT_NE(self, nullptr);
  ASSERT_EQ(std::fread(headerOnly.data(), 1, headerOnly.size(), self), headerOnly.size());
  std::fclose(self);
  EXPECT_EQ(ElfFunctionSymbols::parse(headerOnly).size(), 0u);
}

TEST(LaunchCallPath, CapturesCallersInnermostFirstUpToMain) {
  CallPathCapture nothingOwn(0, 0);
  captured = {};
  EXPECT_EQ(captureOuter(nothingOwn), 3);
  ASSERT_GT(captured.depth, 3u);
  CallPathSymbolizer symbolizer;
  std::vector<std::string> frames = symbolizer.symbolize(captured);
  size_t inner = indexOf(frames, "(anonymous namespace)::captureInner(");
  size_t outer = indexOf(frames, "(anonymous namespace)::captureOuter(");
  ASSERT_LT(inner, frames.size()) << ::testing::PrintToString(frames);
  ASSERT_LT(outer, frames.size()) << ::testing::PrintToString(frames);
  EXPECT_EQ(outer, inner + 1);
  // Named up to main and no further (the C library's start-up is left out).
  EXPECT_EQ(frames.back(), "main");
  // Each distinct address is named once; naming again gives the same names.
  EXPECT_EQ(symbolizer.symbolize(captured), frames);
}

// `times` captures from one call site: the same stack every time. Returns the first capture.
__attribute__((noinline)) CapturedCallPath captureRepeatedly(const CallPathCapture& capture,
                                                             int times) {
  std::vector<CapturedCallPath> paths;
  for (int i = 0; i < times; ++i) {
    captured = {};
    captureOuter(capture);
    paths.push_back(captured);
  }
  for (const CapturedCallPath& path : paths) {
    EXPECT_EQ(path.depth, paths[0].depth);
    for (uint32_t f = 0; f < path.depth && f < paths[0].depth; ++f)
      EXPECT_EQ(path.frames[f], paths[0].frames[f]) << "frame " << f;
  }
  return paths[0];
}

TEST(LaunchCallPath, ARepeatedStackIsWalkedWithoutTheUnwinder) {
  CallPathCapture nothingOwn(0, 0);
  CapturedCallPath first = captureRepeatedly(nothingOwn, 100);
  // The unwinder ran for the first capture only; the table walked the other 99 to the same
  // return addresses.
  EXPECT_EQ(nothingOwn.unwinds(), 1u);
  CallPathSymbolizer symbolizer;
  std::vector<std::string> frames = symbolizer.symbolize(first);
  EXPECT_EQ(indexOf(frames, "(anonymous namespace)::captureOuter("),
            indexOf(frames, "(anonymous namespace)::captureInner(") + 1);
  EXPECT_EQ(frames.back(), "main");
  // Another call site of captureRepeatedly: a new return address, one more unwind; the table's
  // walk from it agrees with the unwinder's (captureRepeatedly compares them).
  captureRepeatedly(nothingOwn, 3);
  EXPECT_EQ(nothingOwn.unwinds(), 2u);
}

TEST(LaunchCallPath, DropsTheLeadingFramesOfItsOwnObject) {
  // This test program plays the runtime's library: every frame inside it is "Ocelot's own", so
  // what is left starts outside it (the C library that called main).
  CallPathCapture own = CallPathCapture::forObjectOf(reinterpret_cast<const void*>(&captureInner));
  ASSERT_TRUE(own.inOwnImage(reinterpret_cast<uintptr_t>(&captureInner)));
  captured = {};
  captureOuter(own);
  ASSERT_GT(captured.depth, 0u);
  EXPECT_FALSE(own.inOwnImage(captured.frames[0]));
  CallPathSymbolizer symbolizer;
  for (const std::string& frame : symbolizer.symbolize(captured))
    EXPECT_EQ(frame.find("captureInner"), std::string::npos) << frame;
}
