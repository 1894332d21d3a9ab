#include "runtime/core/Logger.h"

#include <gtest/gtest.h>

namespace ocelot::runtime {
namespace {

TEST(Logger, Levels) {
  EXPECT_EQ(Logger::parseLevel("debug"), LogLevel::Debug);
  EXPECT_EQ(Logger::parseLevel("info"), LogLevel::Info);
  EXPECT_EQ(Logger::parseLevel("warn"), LogLevel::Warn);
  EXPECT_EQ(Logger::parseLevel("off"), LogLevel::Off);
  EXPECT_EQ(Logger::parseLevel("nonsense"), LogLevel::Warn);
  Logger info(LogLevel::Info);
  EXPECT_TRUE(info.enabled(LogLevel::Warn));
  EXPECT_TRUE(info.enabled(LogLevel::Info));
  EXPECT_FALSE(info.enabled(LogLevel::Debug));
  EXPECT_FALSE(Logger(LogLevel::Off).enabled(LogLevel::Warn));
}

TEST(Logger, WritesOneLinePerEvent) {
  ::testing::internal::CaptureStderr();
  Logger logger(LogLevel::Info);
  logger.warn("first");
  logger.debug("hidden");
  logger.info("second");
  EXPECT_EQ(::testing::internal::GetCapturedStderr(),
            "ocelot[warn]: first\nocelot[info]: second\n");
}

} // namespace
} // namespace ocelot::runtime
