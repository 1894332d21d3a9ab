// Logic and shifts: and, or, xor, not, cnot (on bits and on predicates), lop3, shf, shl, shr.

#include "runtime/cpu/InstructionDecoders.h"
#include "runtime/cpu/LaneValues.h"
#include "runtime/cpu/TypeDispatch.h"

#include <type_traits>

namespace ocelot::runtime::cpu {
namespace {

enum LogicOp : uint32_t { kAnd, kOr, kXor };

bool executeLogic(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  const uint64_t* b = c.row(in.op[2]);
  uint64_t* d = c.row(in.op[0]);
  // Full 64-bit rows: a narrower type reads back its low bits, which are right either way.
  switch (in.aux) {
  case kAnd:
    writeLanes(m, d, [&](uint32_t l) { return a[l] & b[l]; });
    break;
  case kOr:
    writeLanes(m, d, [&](uint32_t l) { return a[l] | b[l]; });
    break;
  default:
    writeLanes(m, d, [&](uint32_t l) { return a[l] ^ b[l]; });
    break;
  }
  return true;
}

bool executeNot(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  writeLanes(m, c.row(in.op[0]), [&](uint32_t l) { return ~a[l]; });
  return true;
}

template <class T> bool executeCnot(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  writeLanes(m, c.row(in.op[0]), [&](uint32_t l) { return uint64_t{laneValue<T>(a, l) == 0}; });
  return true;
}

bool executePredicateLogic(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const LaneMask a = c.predicate(in.op[1]);
  const LaneMask b = in.op[2] != kNone ? c.predicate(in.op[2]) : 0;
  LaneMask result = 0;
  switch (in.aux) {
  case kAnd:
    result = a & b;
    break;
  case kOr:
    result = a | b;
    break;
  case kXor:
    result = a ^ b;
    break;
  default: // not
    result = ~a;
    break;
  }
  writePredicate(c, in.op[0], m, result);
  return true;
}

bool executeLop3(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  const uint64_t* b = c.row(in.op[2]);
  const uint64_t* cc = c.row(in.op[3]);
  const uint32_t lut = in.aux;
  writeLanes(m, c.row(in.op[0]), [&](uint32_t l) {
    const uint32_t x = static_cast<uint32_t>(a[l]), y = static_cast<uint32_t>(b[l]),
                   z = static_cast<uint32_t>(cc[l]);
    uint32_t result = 0;
    // Bit i of the table is the result for inputs (a, b, c) = bits (2, 1, 0) of i.
    for (uint32_t i = 0; i < 8; ++i)
      if ((lut >> i) & 1)
        result |= ((i & 4) ? x : ~x) & ((i & 2) ? y : ~y) & ((i & 1) ? z : ~z);
    return uint64_t{result};
  });
  return true;
}

/// shf.{l,r}.{wrap,clamp}.b32: aux bit 0 = right, bit 1 = wrap.
bool executeFunnelShift(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  const uint64_t* b = c.row(in.op[2]);
  const uint64_t* amount = c.row(in.op[3]);
  const bool right = (in.aux & 1) != 0, wrap = (in.aux & 2) != 0;
  writeLanes(m, c.row(in.op[0]), [&](uint32_t l) {
    const uint64_t joined =
        (uint64_t{static_cast<uint32_t>(b[l])} << 32) | static_cast<uint32_t>(a[l]);
    uint32_t n = static_cast<uint32_t>(amount[l]);
    n = wrap ? n & 31 : std::min(n, 32u);
    return right ? uint64_t{static_cast<uint32_t>(joined >> n)}
                 : uint64_t{static_cast<uint32_t>((joined << n) >> 32)};
  });
  return true;
}

template <class T> bool executeShl(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  const uint64_t* b = c.row(in.op[2]);
  constexpr uint32_t kBits = 8 * sizeof(T);
  writeLanes(m, c.row(in.op[0]), [&](uint32_t l) {
    const uint32_t n = static_cast<uint32_t>(b[l]);
    return rowBits(n >= kBits ? T{0} : static_cast<T>(laneValue<T>(a, l) << n));
  });
  return true;
}

template <class T> bool executeShr(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  const uint64_t* b = c.row(in.op[2]);
  constexpr uint32_t kBits = 8 * sizeof(T);
  writeLanes(m, c.row(in.op[0]), [&](uint32_t l) {
    const uint32_t n = std::min(static_cast<uint32_t>(b[l]), kBits - 1);
    const T x = laneValue<T>(a, l);
    if constexpr (std::is_signed_v<T>)
      return rowBits(static_cast<T>(x >> n)); // arithmetic; clamping to width-1 keeps the sign fill
    else
      return rowBits(static_cast<uint32_t>(b[l]) >= kBits ? T{0} : static_cast<T>(x >> n));
  });
  return true;
}

} // namespace

bool decodeLogic(DecodeContext& c) {
  using Op = ir::Opcode;
  const Op opcode = c.opcode();
  const auto type = c.type();
  if (!type)
    return c.fail("no type");
  using T = ir::ScalarType;
  const LogicOp op = opcode == Op::And ? kAnd : opcode == Op::Or ? kOr : kXor;

  if (*type == T::Pred) {
    if (opcode == Op::Not) {
      if (!c.expectOperands(2))
        return false;
      c.out.op[0] = c.predicateDestination(0);
      c.out.op[1] = c.predicateSource(1);
      c.out.aux = 3;
    } else if (opcode == Op::And || opcode == Op::Or || opcode == Op::Xor) {
      if (!c.expectOperands(3))
        return false;
      c.out.op[0] = c.predicateDestination(0);
      c.out.op[1] = c.predicateSource(1);
      c.out.op[2] = c.predicateSource(2);
      c.out.aux = op;
    } else {
      return c.unsupported("predicate form");
    }
    c.out.execute = &executePredicateLogic;
    return c.ok();
  }

  switch (opcode) {
  case Op::And:
  case Op::Or:
  case Op::Xor: {
    if (!c.expectOperands(3))
      return false;
    c.out.op[0] = c.destination(0);
    c.out.op[1] = c.source(1, *type);
    c.out.op[2] = c.source(2, *type);
    c.out.aux = op;
    c.out.execute = &executeLogic;
    return c.ok();
  }
  case Op::Not:
  case Op::Cnot: {
    if (!c.expectOperands(2))
      return false;
    c.out.op[0] = c.destination(0);
    c.out.op[1] = c.source(1, *type);
    c.out.execute = opcode == Op::Not
                        ? &executeNot
                        : byIntegerType(*type, []<class U>() { return &executeCnot<U>; });
    return c.ok() && (c.out.execute != nullptr || c.unsupported("type"));
  }
  case Op::Lop3: {
    if (c.operandCount() != 5)
      return c.unsupported("lop3 with a predicate result");
    const auto* lut = c.operand(4).getIf<ir::ImmediateOperand>();
    if (lut == nullptr)
      return c.fail("lop3 needs an immediate truth table");
    c.out.op[0] = c.destination(0);
    c.out.op[1] = c.source(1, T::B32);
    c.out.op[2] = c.source(2, T::B32);
    c.out.op[3] = c.source(3, T::B32);
    c.out.aux = static_cast<uint32_t>(lut->integerValue() & 0xff);
    c.out.execute = &executeLop3;
    return c.ok();
  }
  case Op::Shf: {
    if (!c.expectOperands(4))
      return false;
    c.out.op[0] = c.destination(0);
    c.out.op[1] = c.source(1, T::B32);
    c.out.op[2] = c.source(2, T::B32);
    c.out.op[3] = c.source(3, T::U32);
    c.out.aux = (c.has("r") ? 1u : 0u) | (c.has("wrap") ? 2u : 0u);
    c.out.execute = &executeFunnelShift;
    return c.ok();
  }
  case Op::Shl:
  case Op::Shr: {
    if (!c.expectOperands(3))
      return false;
    c.out.op[0] = c.destination(0);
    c.out.op[1] = c.source(1, *type);
    c.out.op[2] = c.source(2, T::U32);
    if (opcode == Op::Shl)
      c.out.execute =
          byIntegerType(*type, []<class U>() { return &executeShl<std::make_unsigned_t<U>>; });
    else
      c.out.execute = byIntegerType(*type, []<class U>() { return &executeShr<U>; });
    return c.ok() && (c.out.execute != nullptr || c.unsupported("type"));
  }
  default:
    return c.unsupported();
  }
}

} // namespace ocelot::runtime::cpu
