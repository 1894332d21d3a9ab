#pragma once

// What CtaExecutor's files share of a warp: its state between time slices and its call frames.
// Private to the CPU device.

#include "runtime/cpu/CtaExecutor.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ocelot::runtime::cpu {

constexpr uint32_t kFrameAlignment = 16;
constexpr uint32_t kBarrierCount = 16;

struct CallFrame {
  uint32_t depth; ///< SIMT stack size when the call was made
  uint32_t callSite;
  uint32_t callee;
  uint32_t savedFrameBase, savedStackTop;
  LaneMask lanes; ///< lanes that called
  size_t spillBegin;
  bool spilled;
};

/// The coordinates of linear index `index` in `extent` (x fastest).
inline dim3 unlinear(uint64_t index, dim3 extent) {
  dim3 result;
  result.x = static_cast<uint32_t>(index % extent.x);
  result.y = static_cast<uint32_t>((index / extent.x) % extent.y);
  result.z = static_cast<uint32_t>(index / (uint64_t{extent.x} * extent.y));
  return result;
}

struct CtaExecutor::Warp {
  uint32_t index = 0;
  uint64_t* rows = nullptr;
  LaneMask* predicates = nullptr;
  LaneMask carry = 0;
  LaneMask valid = 0; ///< lanes that are threads of the CTA
  LaneMask exited = 0;
  std::vector<SimtEntry> stack;
  std::vector<CallFrame> calls;
  std::vector<uint64_t> spill;
  uint32_t frameBase = 0, stackTop = 0;
  enum class State : uint8_t { Ready, Waiting, Done } state = State::Ready;
  // A pending bar.red: where its result goes.
  uint32_t reduceDestination = kNone;
  uint32_t reduceFlags = 0;
  LaneMask reduceLanes = 0;
  uint32_t barrier = 0;
};

} // namespace ocelot::runtime::cpu
