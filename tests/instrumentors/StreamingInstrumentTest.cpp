// `ocelot ptx instrument` writes each function as the passes finish it and drops it
// (InstrumentOptions::write): the text must be exactly what the whole-module path returns.

#include "instrumentors/InstrumentorRegistry.h"
#include "instrumentors/ModuleInstrumenter.h"
#include "ir/Parser.h"
#include "tests/support/GeneratedPtx.h"

#include <gtest/gtest.h>

namespace ocelot::test {
namespace {

TEST(StreamingInstrument, WritesWhatTheWholeModulePathReturns) {
  instrumentors::InstrumentorRegistry registry;
  // Kernels of nvcc's shape, and device functions calling each other (threaded buffer slots).
  std::string chain = testing::callChain(50);
  const std::string ptx = testing::nvccLikeModule(300 << 10) + chain.substr(chain.find(".func"));
  for (const char* list : {"bbcount", "bbcount-thread", "ctaclock", "bbcount,ctaclock"}) {
    SCOPED_TRACE(list);
    std::vector<std::shared_ptr<const PTXInstrumentor>> made;
    std::vector<instrumentors::SlotRequest> slots;
    for (const auto& spec : instrumentors::parseInstrumentorList(list)) {
      made.push_back(registry.create(spec.name, spec.options));
      slots.push_back(
          {made.back().get(), made.back()->variant(LaunchInfo{}, KernelFacts{}).variant});
    }
    instrumentors::InstrumentOptions options;
    options.label = "generated";
    instrumentors::InstrumentedPtx whole = instrumentors::instrumentModule(ptx, slots, options);
    ASSERT_TRUE(whole.ok) << whole.error;

    std::string streamed;
    size_t pieces = 0;
    options.write = [&](std::string_view piece) {
      streamed += piece;
      ++pieces;
    };
    ir::ParseResult parsed = ir::parsePtxBuffer(std::string(ptx), "generated");
    ASSERT_TRUE(parsed.ok()) << parsed.firstError();
    instrumentors::InstrumentedPtx result =
        instrumentors::instrumentModule(std::move(parsed.module), slots, options);
    ASSERT_TRUE(result.ok) << result.error;
    EXPECT_TRUE(result.ptx.empty());
    EXPECT_GT(pieces, 10u);
    // The first difference with some context (the modules are large).
    size_t at = 0;
    while (at < streamed.size() && at < whole.ptx.size() && streamed[at] == whole.ptx[at])
      ++at;
    EXPECT_TRUE(streamed == whole.ptx)
        << "first difference at byte " << at << "\nstreamed: ..."
        << streamed.substr(at > 200 ? at - 200 : 0, 400) << "\nwhole:    ..."
        << whole.ptx.substr(at > 200 ? at - 200 : 0, 400);
    EXPECT_EQ(result.kernels, whole.kernels);
    EXPECT_EQ(result.exclusions.size(), whole.exclusions.size());
    EXPECT_EQ(result.states.size(), whole.states.size());
  }
}

} // namespace
} // namespace ocelot::test
