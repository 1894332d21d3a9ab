#include "ir/PtxVersion.h"

namespace ocelot::ir {

namespace {

std::optional<uint32_t> digits(std::string_view text) {
  if (text.empty() || text.size() > 9)
    return std::nullopt;
  uint32_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9')
      return std::nullopt;
    value = value * 10 + static_cast<uint32_t>(c - '0');
  }
  return value;
}

} // namespace

std::optional<PtxVersion> parsePtxVersion(std::string_view text) {
  size_t dot = text.find('.');
  if (dot == std::string_view::npos)
    return std::nullopt;
  auto major = digits(text.substr(0, dot));
  auto minor = digits(text.substr(dot + 1));
  if (!major || !minor)
    return std::nullopt;
  return PtxVersion{*major, *minor};
}

} // namespace ocelot::ir
