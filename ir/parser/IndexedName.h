#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

namespace ocelot::ir::detail {

/// Splits `%r12` into {"%r", 12}; nullopt when the name does not end in a canonical number.
inline std::optional<std::pair<std::string_view, uint32_t>>
splitIndexedName(std::string_view name) {
  size_t end = name.size();
  size_t start = end;
  while (start > 0 && name[start - 1] >= '0' && name[start - 1] <= '9')
    --start;
  size_t digits = end - start;
  if (digits == 0 || start == 0 || digits > 9)
    return std::nullopt;
  if (digits > 1 && name[start] == '0')
    return std::nullopt; // %r01 is not an element of %r<N>
  uint32_t index = 0;
  for (size_t i = start; i < end; ++i)
    index = index * 10 + static_cast<uint32_t>(name[i] - '0');
  return std::make_pair(name.substr(0, start), index);
}

} // namespace ocelot::ir::detail
