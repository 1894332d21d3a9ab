#pragma once

#include <bit>
#include <cstdint>

namespace ocelot::runtime::cpu {

/// Threads per warp. PTX fixes it (WARP_SZ) and every warp-level instruction assumes it.
inline constexpr uint32_t kWarpSize = 32;

/// One bit per lane of a warp: which lanes execute, which lanes a predicate is true for.
using LaneMask = uint32_t;
inline constexpr LaneMask kAllLanes = 0xffffffffu;

/// How many lanes are set. Counted with shifts and masks rather than std::popcount: without
/// -mpopcnt (the baseline x86-64 target) GCC calls libgcc's __popcountdi2, which cost the
/// interpreter 5-9% of its time where it counts every instruction's lanes.
inline int laneCount(LaneMask mask) {
  uint32_t x = mask - ((mask >> 1) & 0x55555555u);
  x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
  x = (x + (x >> 4)) & 0x0f0f0f0fu;
  return static_cast<int>((x * 0x01010101u) >> 24);
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
