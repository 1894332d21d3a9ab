// Comparison and selection: setp (with boolean combination and dual results), set, selp, slct.

#include "runtime/cpu/FloatSemantics.h"
#include "runtime/cpu/HalfPrecision.h"
#include "runtime/cpu/InstructionDecoders.h"
#include "runtime/cpu/LaneValues.h"
#include "runtime/cpu/TypeDispatch.h"

#include <cmath>

namespace ocelot::runtime::cpu {
namespace {

enum Compare : uint32_t {
  kEq,
  kNe,
  kLt,
  kLe,
  kGt,
  kGe, // ordered (floats), signed or unsigned by type (integers)
  kEqu,
  kNeu,
  kLtu,
  kLeu,
  kGtu,
  kGeu, // unordered floats
  kNum,
  kNan,
};

enum BoolOp : uint32_t { kNoBool, kBoolAnd, kBoolOr, kBoolXor };

constexpr uint32_t kFtzFlag = 1u << 8;

std::optional<Compare> compareNamed(std::string_view name) {
  static constexpr std::pair<std::string_view, Compare> kNames[] = {
      {"eq", kEq},   {"ne", kNe},   {"lt", kLt},   {"le", kLe},   {"gt", kGt},   {"ge", kGe},
      {"lo", kLt},   {"ls", kLe},   {"hi", kGt},   {"hs", kGe},   {"equ", kEqu}, {"neu", kNeu},
      {"ltu", kLtu}, {"leu", kLeu}, {"gtu", kGtu}, {"geu", kGeu}, {"num", kNum}, {"nan", kNan}};
  for (const auto& [spelling, compare] : kNames)
    if (spelling == name)
      return compare;
  return std::nullopt;
}

/// The value of a lane as the comparison sees it (half types widen to float; ftz flushes).
template <class T> struct Comparable {
  using Type = T;
  static T get(const uint64_t* row, uint32_t lane, bool) { return laneValue<T>(row, lane); }
};
template <> struct Comparable<float> {
  using Type = float;
  static float get(const uint64_t* row, uint32_t lane, bool ftz) {
    const float value = laneValue<float>(row, lane);
    return ftz ? flushSubnormal(value) : value;
  }
};
struct HalfTag {};
struct Bfloat16Tag {};
template <> struct Comparable<HalfTag> {
  using Type = float;
  static float get(const uint64_t* row, uint32_t lane, bool) {
    return halfToFloat(static_cast<uint16_t>(row[lane]));
  }
};
template <> struct Comparable<Bfloat16Tag> {
  using Type = float;
  static float get(const uint64_t* row, uint32_t lane, bool) {
    return bfloat16ToFloat(static_cast<uint16_t>(row[lane]));
  }
};

/// The lanes of `mask` for which `a cmp b` holds.
template <class T>
LaneMask compareLanes(uint32_t compare, bool ftz, LaneMask mask, const uint64_t* a,
                      const uint64_t* b) {
  using V = typename Comparable<T>::Type;
  auto lanes = [&](auto&& test) {
    return testLanes(mask, [&](uint32_t l) {
      return test(Comparable<T>::get(a, l, ftz), Comparable<T>::get(b, l, ftz));
    });
  };
  constexpr bool kFloat = std::is_floating_point_v<V>;
  auto unordered = [](V x, V y) {
    if constexpr (kFloat)
      return std::isnan(x) || std::isnan(y);
    else
      return (void)x, (void)y, false;
  };
  switch (compare) {
  case kEq:
    return lanes([](V x, V y) { return x == y; });
  case kNe:
    return lanes([&](V x, V y) { return x != y && !unordered(x, y); });
  case kLt:
    return lanes([](V x, V y) { return x < y; });
  case kLe:
    return lanes([](V x, V y) { return x <= y; });
  case kGt:
    return lanes([](V x, V y) { return x > y; });
  case kGe:
    return lanes([](V x, V y) { return x >= y; });
  case kEqu:
    return lanes([&](V x, V y) { return x == y || unordered(x, y); });
  case kNeu:
    return lanes([](V x, V y) { return x != y; });
  case kLtu:
    return lanes([&](V x, V y) { return x < y || unordered(x, y); });
  case kLeu:
    return lanes([&](V x, V y) { return x <= y || unordered(x, y); });
  case kGtu:
    return lanes([&](V x, V y) { return x > y || unordered(x, y); });
  case kGeu:
    return lanes([&](V x, V y) { return x >= y || unordered(x, y); });
  case kNum:
    return lanes([&](V x, V y) { return !unordered(x, y); });
  default:
    return lanes([&](V x, V y) { return unordered(x, y); });
  }
}

LaneMask combine(uint32_t op, LaneMask value, LaneMask c) {
  switch (op) {
  case kBoolAnd:
    return value & c;
  case kBoolOr:
    return value | c;
  case kBoolXor:
    return value ^ c;
  default:
    return value;
  }
}

/// setp: op[0] = p, op[1] = q (or kNone), op[2] = a, op[3] = b, op[4] = c (or kNone);
/// aux = comparison | ftz flag, aux2 = boolean operation.
template <class T> bool executeSetp(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const LaneMask t =
      compareLanes<T>(in.aux & 0xff, (in.aux & kFtzFlag) != 0, m, c.row(in.op[2]), c.row(in.op[3]));
  const LaneMask other = in.op[4] != kNone ? c.predicate(in.op[4]) : 0;
  writePredicate(c, in.op[0], m, combine(in.aux2, t, other));
  if (in.op[1] != kNone)
    writePredicate(c, in.op[1], m, combine(in.aux2, ~t, other));
  return true;
}

/// setp on f16x2/bf16x2: p compares the low halves, q the high halves.
template <class Tag>
bool executeSetpPair(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  alignas(64) uint64_t low[2][kWarpSize], high[2][kWarpSize];
  const uint64_t* a = c.row(in.op[2]);
  const uint64_t* b = c.row(in.op[3]);
  for (uint32_t l = 0; l < kWarpSize; ++l) {
    low[0][l] = a[l] & 0xffff;
    high[0][l] = (a[l] >> 16) & 0xffff;
    low[1][l] = b[l] & 0xffff;
    high[1][l] = (b[l] >> 16) & 0xffff;
  }
  const uint32_t compare = in.aux & 0xff;
  const LaneMask other = in.op[4] != kNone ? c.predicate(in.op[4]) : 0;
  const LaneMask lowResult = compareLanes<Tag>(compare, false, m, low[0], low[1]);
  const LaneMask highResult = compareLanes<Tag>(compare, false, m, high[0], high[1]);
  writePredicate(c, in.op[0], m, combine(in.aux2, lowResult, other));
  if (in.op[1] != kNone)
    writePredicate(c, in.op[1], m, combine(in.aux2, highResult, other));
  return true;
}

/// set: like setp, writing a value: op[0] = d; aux2 also has bit 8 for a float destination.
template <class T> bool executeSet(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  LaneMask t =
      compareLanes<T>(in.aux & 0xff, (in.aux & kFtzFlag) != 0, m, c.row(in.op[2]), c.row(in.op[3]));
  const LaneMask other = in.op[4] != kNone ? c.predicate(in.op[4]) : 0;
  t = combine(in.aux2 & 0xff, t, other);
  const bool floatResult = (in.aux2 & 0x100) != 0;
  const uint64_t trueValue = floatResult ? 0x3f800000u : 0xffffffffu;
  writeLanes(m, c.row(in.op[0]), [&](uint32_t l) { return laneActive(t, l) ? trueValue : 0; });
  return true;
}

bool executeSelp(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  const uint64_t* b = c.row(in.op[2]);
  const LaneMask p = c.predicate(in.op[3]);
  writeLanes(m, c.row(in.op[0]), [&](uint32_t l) { return laneActive(p, l) ? a[l] : b[l]; });
  return true;
}

/// slct: d = c >= 0 ? a : b, with c an s32 or (aux = 1) an f32 (aux = 2: f32 with ftz).
bool executeSlct(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  const uint64_t* b = c.row(in.op[2]);
  const uint64_t* selector = c.row(in.op[3]);
  writeLanes(m, c.row(in.op[0]), [&](uint32_t l) {
    bool first;
    if (in.aux == 0) {
      first = laneValue<int32_t>(selector, l) >= 0;
    } else {
      float value = laneValue<float>(selector, l);
      if (in.aux == 2)
        value = flushSubnormal(value);
      first = value >= 0.0f;
    }
    return first ? a[l] : b[l];
  });
  return true;
}

template <template <class> class Handler> ExecuteFn byComparedType(ir::ScalarType type) {
  using T = ir::ScalarType;
  switch (type) {
  case T::F32:
    return &Handler<float>::run;
  case T::F64:
    return &Handler<double>::run;
  case T::F16:
    return &Handler<HalfTag>::run;
  case T::BF16:
    return &Handler<Bfloat16Tag>::run;
  default:
    return byIntegerType(type, []<class U>() { return &Handler<U>::run; });
  }
}

template <class T> struct SetpHandler {
  static bool run(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
    return executeSetp<T>(c, in, m);
  }
};
template <class T> struct SetHandler {
  static bool run(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
    return executeSet<T>(c, in, m);
  }
};

/// Comparison and boolean operation from the modifiers (`setp.lt.and.s32`).
bool decodeCompareModifiers(DecodeContext& c, uint32_t* compare, uint32_t* boolOp) {
  const auto& modifiers = c.form.modifiers();
  if (modifiers.empty())
    return c.fail("no comparison");
  auto found = compareNamed(modifiers[0]);
  if (!found)
    return c.fail("unknown comparison ." + std::string(modifiers[0]));
  *compare = *found;
  *boolOp = c.has("and") ? kBoolAnd : c.has("or") ? kBoolOr : c.has("xor") ? kBoolXor : kNoBool;
  return true;
}

} // namespace

bool decodeComparison(DecodeContext& c) {
  using Op = ir::Opcode;
  const Op opcode = c.opcode();
  const auto type = c.type();
  if (!type)
    return c.fail("no type");
  using T = ir::ScalarType;

  switch (opcode) {
  case Op::Setp:
  case Op::Set: {
    uint32_t compare = 0, boolOp = 0;
    if (!decodeCompareModifiers(c, &compare, &boolOp))
      return false;
    const size_t expected = boolOp != kNoBool ? 4 : 3;
    if (!c.expectOperands(expected))
      return false;
    if (opcode == Op::Setp) {
      if (const auto* dual = c.operand(0).getIf<ir::DualOperand>()) {
        c.out.op[0] = c.operands.predicateDestination(dual->parts[0]);
        c.out.op[1] = c.operands.predicateDestination(dual->parts[1]);
      } else {
        c.out.op[0] = c.predicateDestination(0);
      }
    } else {
      c.out.op[0] = c.destination(0);
    }
    c.out.op[2] = c.source(1, *type);
    c.out.op[3] = c.source(2, *type);
    if (boolOp != kNoBool)
      c.out.op[4] = c.predicateSource(3);
    c.out.aux = compare | (c.has("ftz") ? kFtzFlag : 0u);
    c.out.aux2 = boolOp;
    if (opcode == Op::Set) {
      const auto destination = c.firstType();
      if (destination == T::F32)
        c.out.aux2 |= 0x100;
      else if (destination != T::U32 && destination != T::S32 && destination != T::B32)
        return c.unsupported("set destination type");
      c.out.execute = byComparedType<SetHandler>(*type);
    } else if (*type == T::F16x2 || *type == T::BF16x2) {
      c.out.execute = *type == T::F16x2 ? &executeSetpPair<HalfTag> : &executeSetpPair<Bfloat16Tag>;
    } else {
      c.out.execute = byComparedType<SetpHandler>(*type);
    }
    return c.ok() && (c.out.execute != nullptr || c.unsupported("type"));
  }
  case Op::Selp: {
    if (!c.expectOperands(4))
      return false;
    c.out.op[0] = c.destination(0);
    c.out.op[1] = c.source(1, *type);
    c.out.op[2] = c.source(2, *type);
    c.out.op[3] = c.predicateSource(3);
    c.out.execute = &executeSelp;
    return c.ok();
  }
  case Op::Slct: {
    if (!c.expectOperands(4))
      return false;
    const auto destination = c.firstType();
    if (!destination)
      return c.fail("no type");
    c.out.op[0] = c.destination(0);
    c.out.op[1] = c.source(1, *destination);
    c.out.op[2] = c.source(2, *destination);
    c.out.op[3] = c.source(3, *type);
    c.out.aux = *type == T::F32 ? (c.has("ftz") ? 2 : 1) : 0;
    c.out.execute = &executeSlct;
    return c.ok();
  }
  default:
    return c.unsupported();
  }
}

} // namespace ocelot::runtime::cpu
