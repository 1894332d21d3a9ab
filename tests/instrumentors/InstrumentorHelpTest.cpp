// The options `--help` lists for the built-in instrumentors are exactly the ones they accept.

#include "instrumentors/InstrumentorHelp.h"

#include "instrumentors/InstrumentorRegistry.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace ocelot::instrumentors {
namespace {

/// A value each documented option accepts.
const std::map<std::string, std::string> kValidValue = {
    {"mode", "per-thread"}, {"budget-mb", "16"}, {"stripes", "4"},
    {"registers", "2"},     {"derive", "off"},
};

TEST(InstrumentorHelpTest, DocumentedOptionsAreAcceptedAndOthersRefused) {
  InstrumentorRegistry registry;
  for (const auto& [name, description] : registry.list()) {
    SCOPED_TRACE(name);
    EXPECT_FALSE(description.empty());
    for (const auto& option : builtinInstrumentorOptions(name)) {
      auto value = kValidValue.find(std::string(option.key));
      ASSERT_NE(value, kValidValue.end()) << "no test value for " << option.key;
      InstrumentorOptions options{{std::string(option.key), value->second}};
      EXPECT_NO_THROW(registry.create(name, options)) << option.key;
      EXPECT_FALSE(option.values.empty());
      EXPECT_FALSE(option.meaning.empty());
    }
    EXPECT_THROW(registry.create(name, InstrumentorOptions{{"frobnicate", "1"}}),
                 std::invalid_argument);
  }
  // The fixed-mode variants refuse `mode`, so it is not listed for them.
  for (const char* fixed : {"bbcount-warp", "bbcount-thread"}) {
    for (const auto& option : builtinInstrumentorOptions(fixed))
      EXPECT_NE(option.key, "mode");
    EXPECT_THROW(registry.create(fixed, InstrumentorOptions{{"mode", "per-warp"}}),
                 std::invalid_argument);
  }
  EXPECT_EQ(builtinInstrumentorOptions("bbcount").size(), 5u);
  EXPECT_TRUE(builtinInstrumentorOptions("ctaclock").empty());
}

} // namespace
} // namespace ocelot::instrumentors
