#include "runtime/core/Logger.h"

#include "runtime/core/LogLevelVariable.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

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

TEST(Logger, AnUnknownLevelInTheEnvironmentIsReported) {
  const char* saved = std::getenv("OCELOT_LOG");
  const std::string restore = saved != nullptr ? saved : "";
  ::setenv("OCELOT_LOG", "shouty", 1);
  EXPECT_EQ(Logger::levelFromEnvironment(), LogLevel::Warn);
  EXPECT_EQ(logLevelVariableProblem(),
            "OCELOT_LOG=shouty is not a log level Ocelot knows (off, warn, info or debug); using "
            "warn");
  for (const char* known : {"off", "none", "warn", "info", "debug", "trace", ""}) {
    ::setenv("OCELOT_LOG", known, 1);
    EXPECT_EQ(logLevelVariableProblem(), "") << known;
  }
  ::unsetenv("OCELOT_LOG");
  EXPECT_EQ(logLevelVariableProblem(), "");
  if (saved != nullptr)
    ::setenv("OCELOT_LOG", restore.c_str(), 1);
}

} // namespace
} // namespace ocelot::runtime
