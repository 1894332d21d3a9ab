#pragma once

#include <bit>
#include <cstdint>

namespace ocelot::runtime::cpu {

/// Threads per warp. PTX fixes it (WARP_SZ) and every warp-level instruction assumes it.
inline constexpr uint32_t kWarpSize = 32;

/// One bit per lane of a warp: which lanes execute, which lanes a predicate is true for.
using LaneMask = uint32_t;
inline constexpr LaneMask kAllLanes = 0xffffffffu;

inline int laneCount(LaneMask mask) {
  return std::popcount(mask);
}
inline bool laneActive(LaneMask mask, uint32_t lane) {
  return ((mask >> lane) & 1u) != 0;
}

/// Calls fn(lane) for every set lane, lowest first.
template <class Fn> inline void forEachLane(LaneMask mask, Fn&& fn) {
  while (mask != 0) {
    const uint32_t lane = static_cast<uint32_t>(std::countr_zero(mask));
    fn(lane);
    mask &= mask - 1;
  }
}

} // namespace ocelot::runtime::cpu
