// ptxas' fast level (PtxasEffort::Fast, what the corpus tests assemble most instrumented modules
// at) must reject the mistakes an instrumentation pass can make exactly as the default level
// does: an instrumented module broken in each of those ways fails at both levels, and the intact
// module passes at both. scripts/ptxas-effort-agreement.py checks the same on random mutations
// of whole corpus modules.

#include "InstrumentorTestSupport.h"

#include <gtest/gtest.h>

#include <functional>
#include <regex>

namespace ocelot::test {
namespace {

struct Breakage {
  const char* what;
  std::function<std::string(const std::string&)> apply; ///< the broken text; "" if not applicable
  const char* arch = "sm_90";                           ///< what ptxas assembles it for
};

/// Replaces the first match of `pattern` in `text` by `replacement` ("" when there is none).
std::string replaceFirst(const std::string& text, const std::string& pattern,
                         const std::string& replacement) {
  std::smatch match;
  if (!std::regex_search(text, match, std::regex(pattern)))
    return "";
  return match.prefix().str() + std::regex_replace(match.str(), std::regex(pattern), replacement) +
         match.suffix().str();
}

/// The line of the first use of the instrumentation buffer parameter, in the instrumented body.
size_t bufferUse(const std::string& ptx) {
  size_t body = ptx.find('{');
  return body == std::string::npos ? body : ptx.find("__ocelot_instrumentation", body);
}

std::vector<Breakage> breakages() {
  return {
      {"a statement without its ';'",
       [](const std::string& ptx) {
         size_t at = bufferUse(ptx);
         size_t semicolon = at == std::string::npos ? at : ptx.find(';', at);
         if (semicolon == std::string::npos)
           return std::string();
         return ptx.substr(0, semicolon) + ptx.substr(semicolon + 1);
       }},
      {"an undefined symbol (the buffer parameter misspelt)",
       [](const std::string& ptx) {
         size_t at = bufferUse(ptx);
         if (at == std::string::npos)
           return std::string();
         return ptx.substr(0, at) + "__ocelot_instrumentation_missing" +
                ptx.substr(at + std::string("__ocelot_instrumentation").size());
       }},
      {"a register used but not declared (the 64-bit declaration one short)",
       [](const std::string& ptx) {
         // %ocl_rd<N> declares %ocl_rd0..%ocl_rd<N-1>: the instrumented code uses the last.
         std::smatch match;
         if (!std::regex_search(ptx, match, std::regex(R"(\.reg \.b64\s+%ocl_rd<(\d+)>)")))
           return std::string();
         const int count = std::stoi(match[1].str());
         return match.prefix().str() + ".reg .b64 %ocl_rd<" + std::to_string(count - 1) + ">" +
                match.suffix().str();
       }},
      {"a register of the wrong type (64-bit registers declared 32-bit)",
       [](const std::string& ptx) {
         return replaceFirst(ptx, R"(\.reg \.b64(\s+%ocl_rd<))", ".reg .b32$1");
       }},
      {"an instruction with a type its operands do not have",
       [](const std::string& ptx) {
         return replaceFirst(ptx, R"(ld\.param\.u64(\s+%\w+, \[__ocelot_instrumentation))",
                             "ld.param.f16$1");
       }},
      {"a branch to a label that does not exist",
       [](const std::string& ptx) {
         return replaceFirst(ptx, R"(bra(\.uni)?(\s+)([$\w]+);)", "bra$1$2$3_missing;");
       }},
      {"an undeclared register name",
       [](const std::string& ptx) {
         return replaceFirst(ptx, R"(ld\.param\.u64(\s+)%\w+, \[__ocelot_instrumentation)",
                             "ld.param.u64$1%ocl_rd987654, [__ocelot_instrumentation");
       }},
      {"a module for a later target than ptxas' (sm_90 code for sm_75)",
       [](const std::string& ptx) { return ptx; }, "sm_75"},
  };
}

class PtxasEffortTest : public ::testing::TestWithParam<const char*> {};

TEST_P(PtxasEffortTest, BothLevelsRejectTheSameBrokenInstrumentedModules) {
  if (!ptxasAvailable())
    GTEST_SKIP() << "ptxas not found";
  std::vector<std::shared_ptr<const PTXInstrumentor>> keep;
  auto out = instrumentWith(kLoopKernel, GetParam(), &keep);
  ASSERT_TRUE(out.ok) << out.error;
  for (PtxasEffort effort : {PtxasEffort::Full, PtxasEffort::Fast})
    ASSERT_TRUE(runPtxas(out.ptx, "sm_90", effort).ok())
        << (effort == PtxasEffort::Fast ? "fast" : "full") << "\n"
        << runPtxas(out.ptx, "sm_90", effort).output << out.ptx;
  for (const Breakage& breakage : breakages()) {
    SCOPED_TRACE(breakage.what);
    std::string broken = breakage.apply(out.ptx);
    ASSERT_FALSE(broken.empty()) << "the breakage found nothing to break in\n" << out.ptx;
    if (std::string(breakage.arch) == "sm_90")
      ASSERT_NE(broken, out.ptx);
    PtxasResult full = runPtxas(broken, breakage.arch, PtxasEffort::Full);
    PtxasResult fast = runPtxas(broken, breakage.arch, PtxasEffort::Fast);
    ASSERT_TRUE(full.ran && fast.ran) << "ptxas did not run";
    EXPECT_NE(full.status, 0) << "the default level accepted it";
    EXPECT_NE(fast.status, 0) << "the fast level accepted it:\n" << broken;
  }
}

INSTANTIATE_TEST_SUITE_P(Instrumentors, PtxasEffortTest,
                         ::testing::Values("bbcount", "bbcount-thread", "ctaclock",
                                           "bbcount,ctaclock"),
                         [](const ::testing::TestParamInfo<const char*>& param) {
                           std::string name = param.param;
                           for (char& c : name)
                             if (c == '-' || c == ',')
                               c = '_';
                           return name;
                         });

} // namespace
} // namespace ocelot::test
