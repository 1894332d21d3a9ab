// The file the instruction sweep writes: for each case of one input group, its name, the hash of
// the input rows it ran on and its results (one destination register per row, little-endian).
//   "OCSWEEP1", u32 case count, then per case: u32 name length, name, u64 rows hash,
//   u32 bytes per result, u32 row count, results.
#pragma once

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace ocelot::sweep {

struct SweepResults {
  uint64_t rowsHash = 0;
  uint32_t bytesPerResult = 0;
  uint32_t rows = 0;
  std::vector<uint8_t> data;
};

using SweepTable = std::map<std::string, SweepResults>;

inline void appendU32(std::vector<uint8_t>& out, uint32_t value) {
  for (int i = 0; i < 4; ++i)
    out.push_back(static_cast<uint8_t>(value >> (8 * i)));
}
inline void appendU64(std::vector<uint8_t>& out, uint64_t value) {
  for (int i = 0; i < 8; ++i)
    out.push_back(static_cast<uint8_t>(value >> (8 * i)));
}

inline std::vector<uint8_t> encodeTable(const SweepTable& table) {
  std::vector<uint8_t> out = {'O', 'C', 'S', 'W', 'E', 'E', 'P', '1'};
  appendU32(out, static_cast<uint32_t>(table.size()));
  for (const auto& [name, results] : table) {
    appendU32(out, static_cast<uint32_t>(name.size()));
    out.insert(out.end(), name.begin(), name.end());
    appendU64(out, results.rowsHash);
    appendU32(out, results.bytesPerResult);
    appendU32(out, results.rows);
    out.insert(out.end(), results.data.begin(), results.data.end());
  }
  return out;
}

/// Parses a table; false when the bytes are not one.
inline bool decodeTable(const std::vector<uint8_t>& in, SweepTable* table) {
  size_t at = 0;
  auto u32 = [&](uint32_t* value) {
    if (at + 4 > in.size())
      return false;
    *value = 0;
    for (int i = 0; i < 4; ++i)
      *value |= static_cast<uint32_t>(in[at + i]) << (8 * i);
    at += 4;
    return true;
  };
  auto u64 = [&](uint64_t* value) {
    if (at + 8 > in.size())
      return false;
    *value = 0;
    for (int i = 0; i < 8; ++i)
      *value |= static_cast<uint64_t>(in[at + i]) << (8 * i);
    at += 8;
    return true;
  };
  if (in.size() < 12 || std::string(in.begin(), in.begin() + 8) != "OCSWEEP1")
    return false;
  at = 8;
  uint32_t count = 0;
  if (!u32(&count))
    return false;
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t length = 0;
    if (!u32(&length) || at + length > in.size())
      return false;
    std::string name(in.begin() + static_cast<std::ptrdiff_t>(at),
                     in.begin() + static_cast<std::ptrdiff_t>(at + length));
    at += length;
    SweepResults results;
    if (!u64(&results.rowsHash) || !u32(&results.bytesPerResult) || !u32(&results.rows))
      return false;
    const size_t bytes = size_t{results.bytesPerResult} * results.rows;
    if (at + bytes > in.size())
      return false;
    results.data.assign(in.begin() + static_cast<std::ptrdiff_t>(at),
                        in.begin() + static_cast<std::ptrdiff_t>(at + bytes));
    at += bytes;
    (*table)[name] = std::move(results);
  }
  return at == in.size();
}

} // namespace ocelot::sweep
