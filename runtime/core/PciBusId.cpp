#include "runtime/core/PciBusId.h"

#include <charconv>
#include <cstdio>
#include <vector>

namespace ocelot::runtime {
namespace {

std::optional<unsigned int> hexNumber(std::string_view text) {
  unsigned int value = 0;
  if (text.empty() || text.size() > 8)
    return std::nullopt;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, 16);
  if (error != std::errc() || end != text.data() + text.size())
    return std::nullopt;
  return value;
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  for (size_t start = 0;;) {
    size_t end = text.find(separator, start);
    parts.push_back(text.substr(start, end - start));
    if (end == std::string_view::npos)
      return parts;
    start = end + 1;
  }
}

} // namespace

std::string PciBusId::text() const {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%04x:%02x:%02x.0", domain, bus, device);
  return buffer;
}

std::optional<PciBusId> PciBusId::parse(std::string_view text) {
  // The function number after '.' is optional and ignored: a GPU is function 0.
  if (size_t dot = text.find('.'); dot != std::string_view::npos) {
    if (!hexNumber(text.substr(dot + 1)))
      return std::nullopt;
    text = text.substr(0, dot);
  }
  std::vector<std::string_view> parts = split(text, ':');
  if (parts.size() != 2 && parts.size() != 3)
    return std::nullopt;
  PciBusId id;
  size_t first = parts.size() - 2;
  if (parts.size() == 3) {
    auto domain = hexNumber(parts[0]);
    if (!domain)
      return std::nullopt;
    id.domain = *domain;
  }
  auto bus = hexNumber(parts[first]);
  auto device = hexNumber(parts[first + 1]);
  if (!bus || !device)
    return std::nullopt;
  id.bus = *bus;
  id.device = *device;
  return id;
}

} // namespace ocelot::runtime
