// The CPU device's settings from the environment: a value that is not valid is never taken
// silently (OCELOT_CPU_WATCHDOG_MS=1s once meant 1 ms, OCELOT_CPU_WORKERS=abc was ignored).

#include "runtime/cpu/EnvironmentNumber.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace ocelot::runtime::cpu::test {
namespace {

/// The units OCELOT_CPU_WATCHDOG_MS takes.
std::optional<uint32_t> parseTime(std::string_view text, uint32_t maximum = UINT32_MAX) {
  return parseNumber(text, 0, maximum, {{"ms", 1}, {"s", 1000}});
}

TEST(CpuEnvironmentTest, NumbersWithinTheirRangeAndUnits) {
  EXPECT_EQ(parseNumber("250", 0, 1000), 250u);
  EXPECT_EQ(parseTime("1s"), 1000u);
  EXPECT_EQ(parseTime("250ms"), 250u);
  EXPECT_EQ(parseNumber("0", 0, 10), 0u);
  EXPECT_FALSE(parseNumber("0", 1, 1024));      // no workers
  EXPECT_FALSE(parseNumber("100000", 1, 1024)); // beyond the range
  EXPECT_FALSE(parseNumber("abc", 0, 1000));
  EXPECT_FALSE(parseNumber("", 0, 1000));
  EXPECT_FALSE(parseNumber("-1", 0, 1000));
  EXPECT_FALSE(parseNumber("1s", 0, 1000)); // no units for this variable
  EXPECT_FALSE(parseTime("1h"));
  EXPECT_FALSE(parseTime("5000000s")); // overflows 32 bits
  EXPECT_FALSE(parseNumber("99999999999999999999", 0, UINT32_MAX));
}

TEST(CpuEnvironmentTest, AnInvalidValueWarnsAndFallsBack) {
  setenv("OCELOT_TEST_WORKERS", "abc", 1);
  testing::internal::CaptureStderr();
  EXPECT_EQ(environmentNumber("OCELOT_TEST_WORKERS", 7, 1, 1024, "a number from 1 to 1024"), 7u);
  std::string log = testing::internal::GetCapturedStderr();
  EXPECT_NE(log.find("OCELOT_TEST_WORKERS=abc is not a number from 1 to 1024; using 7"),
            std::string::npos)
      << log;

  setenv("OCELOT_TEST_WORKERS", "12", 1);
  testing::internal::CaptureStderr();
  EXPECT_EQ(environmentNumber("OCELOT_TEST_WORKERS", 7, 1, 1024, "a number from 1 to 1024"), 12u);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");

  unsetenv("OCELOT_TEST_WORKERS");
  EXPECT_EQ(environmentNumber("OCELOT_TEST_WORKERS", 7, 1, 1024, "a number from 1 to 1024"), 7u);
}

} // namespace
} // namespace ocelot::runtime::cpu::test
