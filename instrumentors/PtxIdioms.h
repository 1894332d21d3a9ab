#pragma once

// The PTX sequences instrumentation code is made of, each one call: which lanes of a warp act
// together and which of them acts for the group, linear CTA and thread ids, warp-wide sums.

#include "ir/IRBuilder.h"

#include <optional>

namespace ocelot::instrumentors {

/// Lanes of a warp that reach a point together, and the one that acts for them.
struct WarpGroup {
  ir::RegisterRef mask;   ///< .b32: the lanes of the group
  ir::RegisterRef leader; ///< .pred: true in the group's lowest lane only
};

/// The lanes active at the builder's point (`activemask`), or, with `guard`, those of them whose
/// guard holds (`vote.sync.ballot` over the active lanes). The leader is the lowest lane of the
/// group; no lane leads an empty group. The code itself is unguarded: every active lane runs it.
WarpGroup warpGroup(ir::IRBuilder& b, std::optional<ir::Guard> guard = std::nullopt);

/// The number of lanes in `mask`, as a .u64 (`popc` + `cvt`).
ir::RegisterRef laneCount(ir::IRBuilder& b, ir::RegisterRef mask);

/// The CTA's linear id x + y * nctaid.x + z * nctaid.x * nctaid.y, as a .u32.
ir::RegisterRef linearCtaId(ir::IRBuilder& b);

/// The thread's linear id in the whole grid (CTA-major: linear CTA id * CTA size + linear thread
/// id in the CTA), as a .u64; `totalThreads` receives the grid's thread count (.u64) if given.
ir::RegisterRef linearGlobalThreadId(ir::IRBuilder& b, ir::RegisterRef* totalThreads = nullptr);

/// The sum of the .u64 `value` over the lanes of `mask`, returned in every lane of the mask
/// (`redux.sync.add.u32` on the low 27 and the high bits, so exact while each lane's value is
/// below 2^54). Needs sm_80. Only the lanes of `mask` may execute it: with `guard`, it is guarded.
ir::RegisterRef warpSum(ir::IRBuilder& b, ir::RegisterRef value, ir::RegisterRef mask,
                        std::optional<ir::Guard> guard = std::nullopt);

/// `p && q` as a new predicate.
ir::RegisterRef predicateAnd(ir::IRBuilder& b, ir::RegisterRef p, ir::RegisterRef q);

/// The guard as an operand (`%p` or `!%p`).
ir::Operand guardOperand(const ir::Guard& guard);

} // namespace ocelot::instrumentors
