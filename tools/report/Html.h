#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ocelot::report {

/// `text` with &, <, >, " and ' escaped, for HTML text and attribute values (SVG included).
std::string escapeHtml(std::string_view text);

/// A number for SVG coordinates and attributes: at most two decimals, no exponent.
std::string coordinate(double value);

/// "1.23 ms", "456 us", "7.8 s" for a time in nanoseconds.
std::string formatNanoseconds(double ns);

/// 1234567 -> "1,234,567".
std::string groupDigits(uint64_t value);

/// The heat colour of `fraction` in [0, 1] (pale yellow through orange to dark red), as "#rrggbb".
std::string heatColour(double fraction);

} // namespace ocelot::report
