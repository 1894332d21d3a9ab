#include "tools/report/Html.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>

namespace ocelot::report {

std::string escapeHtml(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    case '\'':
      out += "&#39;";
      break;
    default:
      out += c;
    }
  }
  return out;
}

std::string coordinate(double value) {
  if (!std::isfinite(value))
    value = 0;
  char text[48];
  std::snprintf(text, sizeof text, "%.2f", value);
  std::string out = text;
  while (out.find('.') != std::string::npos && (out.back() == '0' || out.back() == '.')) {
    bool dot = out.back() == '.';
    out.pop_back();
    if (dot)
      break;
  }
  return out == "-0" ? "0" : out;
}

std::string formatNanoseconds(double ns) {
  char text[48];
  if (ns >= 1e9)
    std::snprintf(text, sizeof text, "%.3g s", ns / 1e9);
  else if (ns >= 1e6)
    std::snprintf(text, sizeof text, "%.3g ms", ns / 1e6);
  else if (ns >= 1e3)
    std::snprintf(text, sizeof text, "%.3g us", ns / 1e3);
  else
    std::snprintf(text, sizeof text, "%.0f ns", ns);
  return text;
}

std::string groupDigits(uint64_t value) {
  std::string digits = std::to_string(value);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i != 0 && (digits.size() - i) % 3 == 0)
      out += ',';
    out += digits[i];
  }
  return out;
}

std::string heatColour(double fraction) {
  fraction = std::clamp(std::isfinite(fraction) ? fraction : 0.0, 0.0, 1.0);
  // Three stops: #fff3c4 -> #fd8d3c -> #b10026.
  const double stops[3][3] = {{255, 243, 196}, {253, 141, 60}, {177, 0, 38}};
  int segment = fraction < 0.5 ? 0 : 1;
  double t = fraction < 0.5 ? fraction * 2 : (fraction - 0.5) * 2;
  char text[8];
  int rgb[3];
  for (int c = 0; c < 3; ++c)
    rgb[c] = static_cast<int>(
        std::lround(stops[segment][c] + (stops[segment + 1][c] - stops[segment][c]) * t));
  std::snprintf(text, sizeof text, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
  return text;
}

} // namespace ocelot::report
