// Warp-wide instructions: shfl, vote, match, redux, activemask, elect. The interpreter runs the
// active lanes of a warp together, so each handler sees every participating lane at once; the
// member mask operand is implied by the active mask (a thread may only name lanes that execute
// the same instruction with it, which the SIMT stack guarantees here).

#include "runtime/cpu/InstructionDecoders.h"
#include "runtime/cpu/LaneValues.h"

#include <bit>

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

enum class VoteMode : uint32_t { All, Any, Uniform, Ballot };

template <VoteMode Mode>
bool executeVote(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  LaneMask value = c.predicate(in.op[1]) & m;
  if (in.aux != 0)
    value = ~c.predicate(in.op[1]) & m;
  if constexpr (Mode == VoteMode::Ballot) {
    uint64_t* d = c.row(in.op[0]);
    forLanes(m, [&](uint32_t lane) { d[lane] = value; });
  } else {
    bool result;
    if constexpr (Mode == VoteMode::All)
      result = value == m;
    else if constexpr (Mode == VoteMode::Any)
      result = value != 0;
    else
      result = value == 0 || value == m;
    writePredicate(c, in.op[0], m, result ? kAllLanes : 0);
  }
  return true;
}

template <bool All>
bool executeMatch(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  const uint64_t width = in.aux2 == 32 ? 0xffffffffull : ~0ull;
  uint64_t* d = c.row(in.op[0]);
  alignas(64) uint64_t result[kWarpSize] = {};
  LaneMask allEqual = 0;
  forEachLane(m, [&](uint32_t lane) {
    LaneMask same = 0;
    forEachLane(m, [&](uint32_t other) {
      if ((a[other] & width) == (a[lane] & width))
        same |= LaneMask{1} << other;
    });
    if constexpr (All) {
      result[lane] = same == m ? m : 0;
      if (same == m)
        allEqual |= LaneMask{1} << lane;
    } else {
      result[lane] = same;
    }
  });
  forEachLane(m, [&](uint32_t lane) { d[lane] = result[lane]; });
  if (All && in.op[2] != kNone)
    writePredicate(c, in.op[2], m, allEqual);
  return true;
}

enum class ReduxOp : uint32_t { Add, Min, Max, And, Or, Xor };

template <class T, ReduxOp Op>
bool executeRedux(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  bool first = true;
  T total{};
  forEachLane(m, [&](uint32_t lane) {
    const T value = static_cast<T>(a[lane]);
    if (first) {
      total = value;
      first = false;
      return;
    }
    if constexpr (Op == ReduxOp::Add)
      total = static_cast<T>(total + value);
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
  uint64_t* d = c.row(in.op[0]);
  const uint64_t bits = rowBits(total);
  forLanes(m, [&](uint32_t lane) { d[lane] = bits; });
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
    return c.ok();
  }
  default:
    return c.unsupported();
  }
}

} // namespace ocelot::runtime::cpu
