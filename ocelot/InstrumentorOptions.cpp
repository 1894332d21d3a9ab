#include "ocelot/InstrumentorOptions.h"

#include <charconv>
#include <stdexcept>

namespace ocelot {

InstrumentorOptions InstrumentorOptions::parse(std::string_view text) {
  InstrumentorOptions options;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find_first_of(":;", start);
    std::string_view item =
        text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    if (!item.empty()) {
      size_t equals = item.find('=');
      std::string key(item.substr(0, equals));
      if (key.empty())
        throw std::invalid_argument("option '" + std::string(item) + "' has no name");
      std::string value =
          equals == std::string_view::npos ? "1" : std::string(item.substr(equals + 1));
      options.values_[key] = value;
    }
    if (end == std::string_view::npos)
      break;
    start = end + 1;
  }
  return options;
}

std::string InstrumentorOptions::text(std::string_view key, std::string_view fallback) const {
  auto it = values_.find(key);
  return it != values_.end() ? it->second : std::string(fallback);
}

uint64_t InstrumentorOptions::unsignedNumber(std::string_view key, uint64_t fallback) const {
  auto it = values_.find(key);
  if (it == values_.end())
    return fallback;
  const std::string& v = it->second;
  uint64_t value = 0;
  auto [end, error] = std::from_chars(v.data(), v.data() + v.size(), value);
  if (error != std::errc() || end != v.data() + v.size() || v.empty())
    throw std::invalid_argument("option " + std::string(key) + "=" + v +
                                ": expected a non-negative integer");
  return value;
}

bool InstrumentorOptions::flag(std::string_view key, bool fallback) const {
  auto it = values_.find(key);
  if (it == values_.end())
    return fallback;
  const std::string& v = it->second;
  if (v == "1" || v == "on" || v == "true" || v == "yes")
    return true;
  if (v == "0" || v == "off" || v == "false" || v == "no")
    return false;
  throw std::invalid_argument("option " + std::string(key) + "=" + v + ": expected on or off");
}

void InstrumentorOptions::checkKnown(std::string_view instrumentor,
                                     std::initializer_list<std::string_view> known) const {
  for (const auto& [key, value] : values_) {
    bool found = false;
    for (std::string_view k : known)
      found = found || k == key;
    if (!found) {
      std::string list;
      for (std::string_view k : known)
        list += (list.empty() ? "" : ", ") + std::string(k);
      throw std::invalid_argument(std::string(instrumentor) + ": unknown option '" + key + "'" +
                                  (list.empty() ? " (it takes none)" : " (known: " + list + ")"));
    }
  }
}

std::string InstrumentorOptions::toString() const {
  std::string text;
  for (const auto& [key, value] : values_)
    text += (text.empty() ? "" : ":") + key + "=" + value;
  return text;
}

} // namespace ocelot
