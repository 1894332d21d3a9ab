#pragma once

#include "runtime/cpu/DecodedKernel.h"
#include "runtime/cpu/Fault.h"
#include "runtime/cpu/Lanes.h"

#include <cstddef>
#include <cstdint>

namespace ocelot::runtime::cpu {

class DeviceMemory;
class ExecutionTracer;
struct LaunchServices;

/// Where the state spaces of a launch live, as handlers see them. Global, constant and kernel
/// parameter memory are real host addresses inside the device arena (or registered host memory);
/// shared and local addresses are offsets into the CTA's and the thread's own buffers, and their
/// generic forms are offsets into two reserved address windows (see AddressWindows).
struct MemoryView {
  uintptr_t arenaBase = 0;
  uintptr_t arenaSize = 0;
  uintptr_t sharedWindow = 0;
  uintptr_t localWindow = 0;
  const DeviceMemory* memory = nullptr; ///< for registered host memory and the memory checker
  bool checked = false;                 ///< OCELOT_MEMCHECK: exact allocation bounds
};

/// What an instruction handler works on: the registers of one warp and the memory it can reach.
/// The interpreter points it at the warp it runs; handlers never see scheduling state.
struct ExecutionContext {
  /// Register rows: row r of lane l is rows[r * kWarpSize + l]. Every register is 64 bits wide;
  /// narrower values are stored zero- or sign-extended and read back truncated.
  uint64_t* rows = nullptr;
  /// One lane mask per predicate register.
  LaneMask* predicates = nullptr;
  /// The carry flag (CC.CF) of add.cc/addc/sub.cc/subc/mad.cc/madc, per lane.
  LaneMask carry = 0;

  MemoryView memory;
  std::byte* shared = nullptr;
  uint32_t sharedSize = 0;
  std::byte* local = nullptr; ///< lane l's local memory starts at local + l * localStride
  uint32_t localStride = 0;
  uint32_t localSize = 0; ///< bytes of local memory each thread may use
  uint32_t frameBase = 0; ///< local offset of the current function's frame
  uint32_t stackTop = 0;  ///< local offset just past the current frame

  LaunchServices* services = nullptr;
  ExecutionTracer* tracer = nullptr; ///< null unless a tracer is attached to the launch
  uint32_t pc = 0;                   ///< the instruction running (maintained while tracing)
  uint32_t warpIndex = 0;            ///< within the CTA
  uint32_t smid = 0;

  Fault fault;

  uint64_t* row(uint32_t index) const { return rows + size_t{index} * kWarpSize; }
  LaneMask& predicate(uint32_t index) const { return predicates[index]; }

  /// Records a fault for `lane` and returns false, so handlers can `return fail(...)`.
  bool fail(FaultKind kind, uint32_t lane, uint64_t address = 0, uint32_t size = 0,
            const char* detail = nullptr) {
    fault = Fault{kind, lane, address, size, detail};
    return false;
  }
};

/// Runs fn(lane) for the lanes of `mask`. A full warp is a plain counted loop, which compilers
/// unroll and vectorize; partial warps iterate over the set bits.
template <class Fn> inline void forLanes(LaneMask mask, Fn&& fn) {
  if (mask == kAllLanes) {
    for (uint32_t lane = 0; lane < kWarpSize; ++lane)
      fn(lane);
  } else {
    forEachLane(mask, fn);
  }
}

} // namespace ocelot::runtime::cpu
