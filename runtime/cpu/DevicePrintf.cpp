#include "runtime/cpu/DevicePrintf.h"

#include <cctype>
#include <cstdio>
#include <cstring>

namespace ocelot::runtime::cpu {

std::string readDeviceString(uint64_t address, const DeviceReader& read, size_t limit) {
  std::string text;
  for (size_t i = 0; i < limit; ++i) {
    char c = 0;
    if (!read(address + i, &c, 1) || c == 0)
      break;
    text.push_back(c);
  }
  return text;
}

std::string formatDevicePrintf(uint64_t format, uint64_t arguments, const DeviceReader& read,
                               int* count) {
  int consumed = 0;
  const std::string pattern = readDeviceString(format, read, 1 << 16);
  std::string out;
  uint64_t cursor = arguments;
  auto take = [&](size_t size, void* value) {
    ++consumed;
    cursor = (cursor + size - 1) / size * size;
    std::memset(value, 0, size);
    const bool ok = arguments != 0 && read(cursor, value, size);
    cursor += size;
    return ok;
  };
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '%') {
      out.push_back(pattern[i]);
      continue;
    }
    if (i + 1 < pattern.size() && pattern[i + 1] == '%') {
      out.push_back('%');
      ++i;
      continue;
    }
    // %[flags][width][.precision][length]conversion
    size_t j = i + 1;
    while (j < pattern.size() && std::strchr("-+ #0", pattern[j]))
      ++j;
    while (j < pattern.size() && (std::isdigit(static_cast<unsigned char>(pattern[j])) ||
                                  pattern[j] == '.' || pattern[j] == '*'))
      ++j;
    int longs = 0;
    bool half = false;
    while (j < pattern.size() && std::strchr("hlLqjzt", pattern[j])) {
      if (pattern[j] == 'l' || pattern[j] == 'L' || pattern[j] == 'q' || pattern[j] == 'j' ||
          pattern[j] == 'z' || pattern[j] == 't')
        ++longs;
      else
        half = true;
      ++j;
    }
    if (j >= pattern.size()) {
      out.append(pattern, i, std::string::npos);
      break;
    }
    const char conversion = pattern[j];
    // The spec without length modifiers, re-targeted at the host's 64-bit types.
    std::string spec;
    for (size_t k = i; k < j; ++k)
      if (!std::strchr("hlLqjzt", pattern[k]))
        spec.push_back(pattern[k]);
    char buffer[512];
    buffer[0] = 0;
    switch (conversion) {
    case 'd':
    case 'i': {
      int64_t value = 0;
      if (longs > 0) {
        take(8, &value);
      } else {
        int32_t narrow = 0;
        take(4, &narrow);
        value = half ? static_cast<int16_t>(narrow) : narrow;
      }
      std::snprintf(buffer, sizeof buffer, (spec + "lld").c_str(), static_cast<long long>(value));
      break;
    }
    case 'u':
    case 'x':
    case 'X':
    case 'o': {
      uint64_t value = 0;
      if (longs > 0) {
        take(8, &value);
      } else {
        uint32_t narrow = 0;
        take(4, &narrow);
        value = half ? static_cast<uint16_t>(narrow) : narrow;
      }
      std::snprintf(buffer, sizeof buffer, (spec + "ll" + conversion).c_str(),
                    static_cast<unsigned long long>(value));
      break;
    }
    case 'c': {
      int32_t value = 0;
      take(4, &value);
      std::snprintf(buffer, sizeof buffer, (spec + "c").c_str(), value);
      break;
    }
    case 'f':
    case 'F':
    case 'e':
    case 'E':
    case 'g':
    case 'G':
    case 'a':
    case 'A': {
      double value = 0;
      take(8, &value);
      std::snprintf(buffer, sizeof buffer, (spec + conversion).c_str(), value);
      break;
    }
    case 's': {
      uint64_t address = 0;
      take(8, &address);
      const std::string text = address == 0 ? "(null)" : readDeviceString(address, read);
      std::snprintf(buffer, sizeof buffer, (spec + "s").c_str(), text.c_str());
      break;
    }
    case 'p': {
      uint64_t address = 0;
      take(8, &address);
      std::snprintf(buffer, sizeof buffer, (spec + "p").c_str(),
                    reinterpret_cast<void*>(static_cast<uintptr_t>(address)));
      break;
    }
    default:
      out.append(pattern, i, j - i + 1);
      i = j;
      continue;
    }
    out += buffer;
    i = j;
  }
  if (count != nullptr)
    *count = consumed;
  return out;
}

} // namespace ocelot::runtime::cpu
