// Warp-wide instructions: shfl, vote, match, redux, activemask, elect. The interpreter runs the
// active lanes of a warp together, so each handler sees every participating lane at once. The
// member mask of the .sync forms is per lane: lanes executing one instruction together may name
// different groups (cooperative groups' labeled_partition gives each bucket its own mask and then
// reduces with redux.sync over it), so vote, match and redux combine, for each lane, the lanes
// its mask names among those executing. shfl reads its source lane whatever the masks say.

#include "runtime/cpu/InstructionDecoders.h"
#include "runtime/cpu/LaneValues.h"

#include <bit>
#include <type_traits>

namespace ocelot::runtime::cpu {
namespace {

enum class ShuffleMode : uint32_t { Up, Down, Butterfly, Index };

template <ShuffleMode Mode>
bool executeShuffle(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  alignas(64) uint64_t a[kWarpSize];
  std::memcpy(a, c.row(in.op[1]), sizeof a);
  const uint64_t* b = c.row(in.op[2]);
  const uint64_t* cc = c.row(in.op[3]);
  uint64_t* d = c.row(in.op[0]);
  LaneMask valid = 0;
  forLanes(m, [&](uint32_t lane) {
    const uint32_t bval = static_cast<uint32_t>(b[lane]) & 31;
    const uint32_t cval = static_cast<uint32_t>(cc[lane]) & 31;
    const uint32_t segment = (static_cast<uint32_t>(cc[lane]) >> 8) & 31;
    const uint32_t maxLane = (lane & segment) | (cval & ~segment);
    const uint32_t minLane = lane & segment;
    int32_t j;
    bool ok;
    if constexpr (Mode == ShuffleMode::Up) {
      j = static_cast<int32_t>(lane) - static_cast<int32_t>(bval);
      ok = j >= static_cast<int32_t>(maxLane);
    } else if constexpr (Mode == ShuffleMode::Down) {
      j = static_cast<int32_t>(lane + bval);
      ok = j <= static_cast<int32_t>(maxLane);
    } else if constexpr (Mode == ShuffleMode::Butterfly) {
      j = static_cast<int32_t>(lane ^ bval);
      ok = j <= static_cast<int32_t>(maxLane);
    } else {
      j = static_cast<int32_t>(minLane | (bval & ~segment));
      ok = j <= static_cast<int32_t>(maxLane);
    }
    if (!ok)
      j = static_cast<int32_t>(lane);
    d[lane] = a[static_cast<uint32_t>(j) & 31] & 0xffffffffu;
    valid |= static_cast<LaneMask>(ok ? 1u : 0u) << lane;
  });
  if (in.op[4] != kNone)
    writePredicate(c, in.op[4], m, valid);
  return true;
}

/// Each executing lane's group: the lanes its member mask (row `maskRow`, kNone for the forms
/// without one) names among the lanes of `m`, itself always included. Returns true when every
/// lane of `m` has the same group (the usual full-warp case), which is then groups[first lane].
bool memberGroups(const ExecutionContext& c, uint32_t maskRow, LaneMask m, LaneMask* groups) {
  const uint32_t first = static_cast<uint32_t>(std::countr_zero(m));
  if (maskRow == kNone) {
    groups[first] = m;
    return true;
  }
  const uint64_t* masks = c.row(maskRow);
  const LaneMask common = static_cast<LaneMask>(masks[first]);
  bool uniform = true;
  forEachLane(
      m, [&](uint32_t lane) { uniform = uniform && static_cast<LaneMask>(masks[lane]) == common; });
  if (uniform) {
    groups[first] = (common & m) | (LaneMask{1} << first);
    if ((common & m) == m)
      return true;
  }
  forEachLane(m, [&](uint32_t lane) {
    groups[lane] = (static_cast<LaneMask>(masks[lane]) & m) | (LaneMask{1} << lane);
  });
  return false;
}

enum class VoteMode : uint32_t { All, Any, Uniform, Ballot };

template <VoteMode Mode> bool voteResult(LaneMask value, LaneMask group) {
  if constexpr (Mode == VoteMode::All)
    return (value & group) == group;
  else if constexpr (Mode == VoteMode::Any)
    return (value & group) != 0;
  else
    return (value & group) == 0 || (value & group) == group;
}

template <VoteMode Mode>
bool executeVote(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  LaneMask value = c.predicate(in.op[1]) & m;
  if (in.aux != 0)
    value = ~c.predicate(in.op[1]) & m;
  LaneMask groups[kWarpSize];
  if (memberGroups(c, in.op[5], m, groups)) {
    const LaneMask group = groups[std::countr_zero(m)];
    if constexpr (Mode == VoteMode::Ballot) {
      uint64_t* d = c.row(in.op[0]);
      forLanes(m, [&](uint32_t lane) { d[lane] = value & group; });
    } else {
      writePredicate(c, in.op[0], m, voteResult<Mode>(value, group) ? kAllLanes : 0);
    }
    return true;
  }
  if constexpr (Mode == VoteMode::Ballot) {
    uint64_t* d = c.row(in.op[0]);
    forEachLane(m, [&](uint32_t lane) { d[lane] = value & groups[lane]; });
  } else {
    LaneMask result = 0;
    forEachLane(m, [&](uint32_t lane) {
      if (voteResult<Mode>(value, groups[lane]))
        result |= LaneMask{1} << lane;
    });
    writePredicate(c, in.op[0], m, result);
  }
  return true;
}

template <bool All>
bool executeMatch(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  const uint64_t width = in.aux2 == 32 ? 0xffffffffull : ~0ull;
  uint64_t* d = c.row(in.op[0]);
  LaneMask groups[kWarpSize];
  const bool uniform = memberGroups(c, in.op[5], m, groups);
  alignas(64) uint64_t result[kWarpSize] = {};
  LaneMask allEqual = 0;
  // Where every lane's group is the same (all of m), the lanes of one value share one answer:
  // each value is compared once with the group, not once per lane (probe code matches addresses
  // at every memory access).
  LaneMask remaining = m;
  while (remaining != 0) {
    const uint32_t lane = static_cast<uint32_t>(std::countr_zero(remaining));
    const LaneMask group = uniform ? groups[std::countr_zero(m)] : groups[lane];
    LaneMask same = 0;
    forEachLane(group, [&](uint32_t other) {
      if ((a[other] & width) == (a[lane] & width))
        same |= LaneMask{1} << other;
    });
    const LaneMask answered = uniform ? same & remaining : LaneMask{1} << lane;
    forEachLane(answered, [&](uint32_t member) {
      if constexpr (All) {
        result[member] = same == group ? group : 0;
        if (same == group)
          allEqual |= LaneMask{1} << member;
      } else {
        result[member] = same;
      }
    });
    remaining &= ~answered;
  }
  forEachLane(m, [&](uint32_t lane) { d[lane] = result[lane]; });
  if (All && in.op[2] != kNone)
    writePredicate(c, in.op[2], m, allEqual);
  return true;
}

enum class ReduxOp : uint32_t { Add, Min, Max, And, Or, Xor };

template <class T, ReduxOp Op> T reduceLanes(const uint64_t* a, LaneMask lanes) {
  T total = static_cast<T>(a[std::countr_zero(lanes)]);
  lanes &= lanes - 1;
  forEachLane(lanes, [&](uint32_t lane) {
    const T value = static_cast<T>(a[lane]);
    if constexpr (Op == ReduxOp::Add) // wraps, as on the GPU (unsigned: no overflow to UB)
      total = static_cast<T>(static_cast<std::make_unsigned_t<T>>(total) +
                             static_cast<std::make_unsigned_t<T>>(value));
    else if constexpr (Op == ReduxOp::Min)
      total = value < total ? value : total;
    else if constexpr (Op == ReduxOp::Max)
      total = value > total ? value : total;
    else if constexpr (Op == ReduxOp::And)
      total = total & value;
    else if constexpr (Op == ReduxOp::Or)
      total = total | value;
    else
      total = total ^ value;
  });
  return total;
}

template <class T, ReduxOp Op>
bool executeRedux(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  uint64_t* d = c.row(in.op[0]);
  LaneMask groups[kWarpSize];
  if (memberGroups(c, in.op[5], m, groups)) {
    const uint64_t bits = rowBits(reduceLanes<T, Op>(a, groups[std::countr_zero(m)]));
    forLanes(m, [&](uint32_t lane) { d[lane] = bits; });
    return true;
  }
  // Lanes of one group share the result: compute it once per group.
  alignas(64) uint64_t result[kWarpSize];
  LaneMask pending = m;
  while (pending != 0) {
    const LaneMask group = groups[std::countr_zero(pending)];
    const uint64_t bits = rowBits(reduceLanes<T, Op>(a, group));
    LaneMask same = 0;
    forEachLane(pending, [&](uint32_t lane) {
      if (groups[lane] == group)
        same |= LaneMask{1} << lane;
    });
    forEachLane(same, [&](uint32_t lane) { result[lane] = bits; });
    pending &= ~same;
  }
  forEachLane(m, [&](uint32_t lane) { d[lane] = result[lane]; });
  return true;
}

template <class T> ExecuteFn reduxFor(ReduxOp op) {
  switch (op) {
  case ReduxOp::Add:
    return &executeRedux<T, ReduxOp::Add>;
  case ReduxOp::Min:
    return &executeRedux<T, ReduxOp::Min>;
  case ReduxOp::Max:
    return &executeRedux<T, ReduxOp::Max>;
  case ReduxOp::And:
    return &executeRedux<T, ReduxOp::And>;
  case ReduxOp::Or:
    return &executeRedux<T, ReduxOp::Or>;
  case ReduxOp::Xor:
    return &executeRedux<T, ReduxOp::Xor>;
  }
  return nullptr;
}

bool executeActiveMask(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  uint64_t* d = c.row(in.op[0]);
  forLanes(m, [&](uint32_t lane) { d[lane] = m; });
  return true;
}

bool executeElect(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint32_t leader = static_cast<uint32_t>(std::countr_zero(m));
  uint64_t* d = c.row(in.op[0]);
  forLanes(m, [&](uint32_t lane) { d[lane] = leader; });
  if (in.op[1] != kNone)
    writePredicate(c, in.op[1], m, LaneMask{1} << leader);
  return true;
}

/// The member mask of a .sync form (operand `index`), or kNone.
uint32_t memberMask(DecodeContext& c, size_t index) {
  return c.operandCount() > index ? c.source(index, ir::ScalarType::B32) : kNone;
}

/// `d|p` destinations: the value row and the predicate (kNone when absent).
void dualDestination(DecodeContext& c, size_t index, uint32_t* value, uint32_t* predicate) {
  if (const auto* dual = c.operand(index).getIf<ir::DualOperand>()) {
    *value = c.operands.destination(dual->parts[0]);
    *predicate = c.operands.predicateDestination(dual->parts[1]);
  } else {
    *value = c.destination(index);
    *predicate = kNone;
  }
}

} // namespace

bool decodeWarp(DecodeContext& c) {
  using Op = ir::Opcode;
  switch (c.opcode()) {
  case Op::Activemask: {
    if (!c.expectOperands(1))
      return false;
    c.out.op[0] = c.destination(0);
    c.out.execute = &executeActiveMask;
    return c.ok();
  }
  case Op::Elect: {
    if (c.operandCount() < 1)
      return c.fail("elect needs a destination");
    dualDestination(c, 0, &c.out.op[0], &c.out.op[1]);
    c.out.execute = &executeElect;
    return c.ok();
  }
  case Op::Shfl: {
    if (c.operandCount() < 4)
      return c.fail("shfl needs d, a, b, c");
    dualDestination(c, 0, &c.out.op[0], &c.out.op[4]);
    c.out.op[1] = c.source(1, ir::ScalarType::B32);
    c.out.op[2] = c.source(2, ir::ScalarType::B32);
    c.out.op[3] = c.source(3, ir::ScalarType::B32);
    c.out.execute = c.has("up")     ? &executeShuffle<ShuffleMode::Up>
                    : c.has("down") ? &executeShuffle<ShuffleMode::Down>
                    : c.has("bfly") ? &executeShuffle<ShuffleMode::Butterfly>
                    : c.has("idx")  ? &executeShuffle<ShuffleMode::Index>
                                    : nullptr;
    if (c.out.execute == nullptr)
      return c.unsupported("shfl mode");
    return c.ok();
  }
  case Op::Vote: {
    if (c.operandCount() < 2)
      return c.fail("vote needs d, a");
    const ir::Operand& source = c.operand(1);
    const auto* reg = source.getIf<ir::RegisterOperand>();
    if (reg != nullptr && reg->negated) {
      c.out.op[1] = c.operands.registerPredicate(reg->reg);
      c.out.aux = 1;
    } else {
      c.out.op[1] = c.predicateSource(1);
    }
    c.out.op[5] = memberMask(c, 2);
    if (c.has("ballot")) {
      c.out.op[0] = c.destination(0);
      c.out.execute = &executeVote<VoteMode::Ballot>;
    } else {
      c.out.op[0] = c.predicateDestination(0);
      c.out.execute = c.has("all")   ? &executeVote<VoteMode::All>
                      : c.has("any") ? &executeVote<VoteMode::Any>
                      : c.has("uni") ? &executeVote<VoteMode::Uniform>
                                     : nullptr;
    }
    if (c.out.execute == nullptr)
      return c.unsupported("vote mode");
    return c.ok();
  }
  case Op::Match: {
    const auto type = c.type();
    if (!type || c.operandCount() < 2)
      return c.fail("match needs a type, d and a");
    const bool all = c.has("all");
    if (all)
      dualDestination(c, 0, &c.out.op[0], &c.out.op[2]);
    else
      c.out.op[0] = c.destination(0);
    c.out.op[1] = c.source(1, *type);
    c.out.op[5] = memberMask(c, 2);
    c.out.aux2 = ir::scalarTypeBits(*type);
    c.out.execute = all ? &executeMatch<true> : &executeMatch<false>;
    return c.ok();
  }
  case Op::Redux: {
    const auto type = c.type();
    if (!type || c.operandCount() < 2)
      return c.fail("redux needs a type, d and a");
    const ReduxOp op = c.has("add")   ? ReduxOp::Add
                       : c.has("min") ? ReduxOp::Min
                       : c.has("max") ? ReduxOp::Max
                       : c.has("and") ? ReduxOp::And
                       : c.has("or")  ? ReduxOp::Or
                                      : ReduxOp::Xor;
    switch (*type) {
    case ir::ScalarType::S32:
      c.out.execute = reduxFor<int32_t>(op);
      break;
    case ir::ScalarType::U32:
    case ir::ScalarType::B32:
      c.out.execute = reduxFor<uint32_t>(op);
      break;
    default:
      return c.unsupported("redux type");
    }
    c.out.op[0] = c.destination(0);
    c.out.op[1] = c.source(1, *type);
    c.out.op[5] = memberMask(c, 2);
    return c.ok();
  }
  default:
    return c.unsupported();
  }
}

} // namespace ocelot::runtime::cpu
