// The module pipeline's pass hook: every module goes parse -> passes -> emit, and a pass that fails
// or throws sends the module back to the application's original code instead of taking the
// application down.
#include "runtime/core/ModulePipeline.h"

#include "ir/Module.h"
#include "runtime/core/ParseErrors.h"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

namespace ocelot::runtime::testing {
namespace {

const std::string kPtx = R"(.version 9.0
.target sm_90
.address_size 64

.visible .entry kernel(.param .u64 out)
{
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  ret;
}
)";

TEST(ModulePipeline, WithoutPassesTheModuleIsParsedAndEmitted) {
  ModulePipeline pipeline;
  auto built = pipeline.buildText(kPtx, "library");
  ASSERT_TRUE(built) << built.error().reason;
  EXPECT_NE(built->find(".entry kernel"), std::string::npos);
}

TEST(ModulePipeline, ConfiguredPassesSeeEveryModule) {
  ModulePipeline pipeline;
  std::atomic<int> calls{0};
  size_t functions = 0;
  pipeline.setTransform([&](ir::Module& module, const std::string& label) {
    ++calls;
    functions = module.functions().size();
    EXPECT_EQ(label, "library");
    return std::optional<std::string>{};
  });
  auto built = pipeline.buildText(kPtx, "library");
  ASSERT_TRUE(built) << built.error().reason;
  EXPECT_EQ(calls.load(), 1);
  EXPECT_EQ(functions, 1u);
  pipeline.setTransform(nullptr); // back to parse and emit only
  ASSERT_TRUE(pipeline.buildText(kPtx, "library"));
  EXPECT_EQ(calls.load(), 1);
}

TEST(ModulePipeline, AFailedParseCarriesTheErrorNvidiasRuntimeGives) {
  ModulePipeline pipeline;
  auto newer = pipeline.buildText(".version 99.9\n.target sm_90\n.address_size 64\n", "library");
  ASSERT_FALSE(newer);
  EXPECT_EQ(newer.error().error, cudaErrorUnsupportedPtxVersion) << newer.error().reason;
  auto broken = pipeline.buildText(".version 9.0\n.target sm_90\n.entry (", "library");
  ASSERT_FALSE(broken);
  EXPECT_EQ(broken.error().error, cudaErrorInvalidPtx) << broken.error().reason;

  ir::ParseResult overBudget;
  overBudget.diagnostics.push_back(
      {"big.ptx", {}, "module too large", ir::DiagnosticKind::ResourceLimit});
  EXPECT_EQ(parseFailureError(overBudget), cudaErrorMemoryAllocation);
}

TEST(ModulePipeline, AFailingPassIsReportedNotFatal) {
  ModulePipeline pipeline;
  pipeline.setTransform([](ir::Module&, const std::string&) {
    return std::optional<std::string>("counter buffer does not fit");
  });
  auto failed = pipeline.buildText(kPtx, "library");
  ASSERT_FALSE(failed);
  EXPECT_NE(failed.error().reason.find("counter buffer does not fit"), std::string::npos);
}

TEST(ModulePipeline, AThrowingPassIsReportedNotFatal) {
  ModulePipeline pipeline;
  pipeline.setTransform([](ir::Module&, const std::string&) -> std::optional<std::string> {
    throw std::runtime_error("instrumentor bug");
  });
  auto failed = pipeline.buildText(kPtx, "library");
  ASSERT_FALSE(failed);
  EXPECT_NE(failed.error().reason.find("instrumentor bug"), std::string::npos);
}

TEST(ModulePipeline, PassesCanChangeWhileThreadsBuildModules) {
  ModulePipeline pipeline;
  std::atomic<bool> stop{false};
  std::vector<std::thread> builders;
  std::atomic<int> failures{0};
  for (int i = 0; i < 4; ++i)
    builders.emplace_back([&] {
      while (!stop.load())
        if (!pipeline.buildText(kPtx, "library"))
          ++failures;
    });
  for (int i = 0; i < 200; ++i)
    pipeline.setTransform(i % 2 == 0 ? ModuleTransform([](ir::Module&, const std::string&) {
      return std::optional<std::string>{};
    })
                                     : ModuleTransform());
  stop = true;
  for (std::thread& builder : builders)
    builder.join();
  EXPECT_EQ(failures.load(), 0);
}

} // namespace
} // namespace ocelot::runtime::testing
