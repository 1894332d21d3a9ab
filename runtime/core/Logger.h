#pragma once

#include <string_view>

namespace ocelot::runtime {

enum class LogLevel { Off, Warn, Info, Debug };

/// One line per event on stderr, prefixed "ocelot[<level>]: ". The level comes from OCELOT_LOG
/// (off | warn | info | debug; default warn): warnings are what a user must know (a function Ocelot
/// does not implement yet, a module that fell back to the original code), info follows modules and
/// devices, debug every registration.
class Logger {
public:
  explicit Logger(LogLevel level) : level_(level) {}

  /// The level OCELOT_LOG asks for; an unknown value gives the default, warn.
  static LogLevel levelFromEnvironment();
  static LogLevel parseLevel(std::string_view text);

  LogLevel level() const { return level_; }
  bool enabled(LogLevel level) const { return level != LogLevel::Off && level <= level_; }

  /// Writes `message` as one line (a single write(2), so lines of concurrent threads never mix).
  void log(LogLevel level, std::string_view message) const;
  void warn(std::string_view message) const { log(LogLevel::Warn, message); }
  void info(std::string_view message) const { log(LogLevel::Info, message); }
  void debug(std::string_view message) const { log(LogLevel::Debug, message); }

private:
  LogLevel level_;
};

} // namespace ocelot::runtime
