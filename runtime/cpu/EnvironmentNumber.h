#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace ocelot::runtime::cpu {

/// A number from the environment variable `name` within [minimum, maximum]; `fallback` when the
/// variable is unset or empty. A value that is not such a number (`abc`, `0` for worker threads,
/// `1s` where milliseconds are meant) is never taken silently: it gives one warning on stderr that
/// names the variable, the value, the valid values and what is used instead (`fallback`).
/// `units`, if given, are suffixes the value may carry with their factor (`{"ms", 1}, {"s",
/// 1000}`).
struct NumberUnit {
  std::string_view suffix;
  uint64_t factor;
};
uint32_t environmentNumber(const char* name, uint32_t fallback, uint32_t minimum, uint32_t maximum,
                           std::string_view valid, std::initializer_list<NumberUnit> units = {});

/// The parsing part: the number `text` names, or nothing when it is not one in range.
std::optional<uint32_t> parseNumber(std::string_view text, uint32_t minimum, uint32_t maximum,
                                    std::initializer_list<NumberUnit> units = {});

} // namespace ocelot::runtime::cpu
