#pragma once

#include "runtime/cpu/ExecutionContext.h"

#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace ocelot::runtime::cpu {

/// Reads lane `lane` of a row as T: integers truncated to T's width, floats from their bits.
template <class T> inline T laneValue(const uint64_t* row, uint32_t lane) {
  if constexpr (std::is_same_v<T, float>)
    return std::bit_cast<float>(static_cast<uint32_t>(row[lane]));
  else if constexpr (std::is_same_v<T, double>)
    return std::bit_cast<double>(row[lane]);
  else
    return static_cast<T>(row[lane]);
}

/// The row bits of a value of type T: signed integers sign-extended, everything else
/// zero-extended (so a narrower read of the row gives the value back, and a wider signed read of
/// a loaded `.s8` gives the sign-extended value PTX defines).
template <class T> inline uint64_t rowBits(T value) {
  if constexpr (std::is_same_v<T, float>)
    return std::bit_cast<uint32_t>(value);
  else if constexpr (std::is_same_v<T, double>)
    return std::bit_cast<uint64_t>(value);
  else if constexpr (std::is_same_v<T, bool>)
    return value ? 1 : 0;
  else if constexpr (std::is_signed_v<T>)
    return static_cast<uint64_t>(static_cast<int64_t>(value));
  else
    return static_cast<uint64_t>(value);
}

/// Writes value(lane) (row bits) to `destination` for the lanes of `mask`. For a full warp the
/// values go to a local buffer first, so the loop vectorizes even when the destination is also a
/// source of the instruction (`add %r1, %r1, 1`).
template <class Fn> inline void writeLanes(LaneMask mask, uint64_t* destination, Fn&& value) {
  if (mask == kAllLanes) {
    alignas(64) uint64_t buffer[kWarpSize];
    for (uint32_t lane = 0; lane < kWarpSize; ++lane)
      buffer[lane] = value(lane);
    std::memcpy(destination, buffer, sizeof buffer);
  } else {
    forEachLane(mask, [&](uint32_t lane) { destination[lane] = value(lane); });
  }
}

/// A lane mask of the lanes of `mask` for which test(lane) holds.
template <class Fn> inline LaneMask testLanes(LaneMask mask, Fn&& test) {
  if (mask == kAllLanes) {
    LaneMask result = 0;
    for (uint32_t lane = 0; lane < kWarpSize; ++lane)
      result |= static_cast<LaneMask>(test(lane) ? 1u : 0u) << lane;
    return result;
  }
  LaneMask result = 0;
  forEachLane(mask, [&](uint32_t lane) {
    if (test(lane))
      result |= LaneMask{1} << lane;
  });
  return result;
}

/// Writes `result` for the lanes of `mask` into predicate `predicate`, keeping the other lanes.
inline void writePredicate(ExecutionContext& context, uint32_t predicate, LaneMask mask,
                           LaneMask result) {
  LaneMask& value = context.predicate(predicate);
  value = (value & ~mask) | (result & mask);
}

} // namespace ocelot::runtime::cpu
