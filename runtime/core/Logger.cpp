#include "runtime/core/Logger.h"

#include <cstdlib>
#include <string>
#include <unistd.h>

namespace ocelot::runtime {

LogLevel Logger::parseLevel(std::string_view text) {
  if (text == "off" || text == "none")
    return LogLevel::Off;
  if (text == "info")
    return LogLevel::Info;
  if (text == "debug")
    return LogLevel::Debug;
  return LogLevel::Warn;
}

LogLevel Logger::levelFromEnvironment() {
  const char* value = std::getenv("OCELOT_LOG");
  return value == nullptr ? LogLevel::Warn : parseLevel(value);
}

void Logger::log(LogLevel level, std::string_view message) const {
  if (!enabled(level))
    return;
  static constexpr std::string_view kPrefixes[] = {
      "", "ocelot[warn]: ", "ocelot[info]: ", "ocelot[debug]: "};
  std::string line;
  line.reserve(message.size() + 16);
  line += kPrefixes[static_cast<int>(level)];
  line += message;
  line += '\n';
  // Logging must never fail the caller; a short or failed write to stderr is ignored.
  [[maybe_unused]] ssize_t written = ::write(STDERR_FILENO, line.data(), line.size());
}

} // namespace ocelot::runtime
