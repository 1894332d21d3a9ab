#include "runtime/cpu/EnvironmentNumber.h"

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace ocelot::runtime::cpu {

std::optional<uint32_t> parseNumber(std::string_view text, uint32_t minimum, uint32_t maximum,
                                    std::initializer_list<NumberUnit> units) {
  uint64_t value = 0;
  const char* end = text.data() + text.size();
  auto [rest, error] = std::from_chars(text.data(), end, value);
  if (error != std::errc() || rest == text.data())
    return std::nullopt;
  const std::string_view suffix(rest, static_cast<size_t>(end - rest));
  if (!suffix.empty()) {
    bool known = false;
    for (const NumberUnit& unit : units)
      if (suffix == unit.suffix) {
        if (unit.factor != 0 && value > UINT64_MAX / unit.factor)
          return std::nullopt;
        value *= unit.factor;
        known = true;
        break;
      }
    if (!known)
      return std::nullopt;
  }
  if (value < minimum || value > maximum)
    return std::nullopt;
  return static_cast<uint32_t>(value);
}

uint32_t environmentNumber(const char* name, uint32_t fallback, uint32_t minimum, uint32_t maximum,
                           std::string_view valid, std::initializer_list<NumberUnit> units) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == 0)
    return fallback;
  if (std::optional<uint32_t> parsed = parseNumber(value, minimum, maximum, units))
    return *parsed;
  // The device has no logger of its own (it sits below the runtime core): the line has the
  // runtime's warning prefix.
  const std::string line = std::string("ocelot[warn]: ") + name + "=" + value + " is not " +
                           std::string(valid) + "; using " + std::to_string(fallback) + "\n";
  std::fwrite(line.data(), 1, line.size(), stderr);
  return fallback;
}

} // namespace ocelot::runtime::cpu
