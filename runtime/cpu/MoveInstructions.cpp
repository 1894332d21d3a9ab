// Data movement: mov (registers, literals, special registers, symbol addresses, packing and
// unpacking of vectors), prmt, cvta, isspacep, and the decoder's own support instructions.

#include "runtime/cpu/InstructionDecoders.h"
#include "runtime/cpu/LaneValues.h"
#include "runtime/cpu/SupportHandlers.h"

#include <chrono>

namespace ocelot::runtime::cpu {

bool executeFrameAddress(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t value = c.frameBase + static_cast<uint64_t>(in.imm);
  writeLanes(m, c.row(in.op[0]), [&](uint32_t) { return value; });
  return true;
}

bool executeReadTimer(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  // The device clock runs at 1 GHz: %clock64 counts nanoseconds of a monotonic clock, so CTA
  // timings taken with it are real durations. %globaltimer is wall-clock time in nanoseconds.
  uint64_t value = 0;
  const auto kind = static_cast<TimerKind>(in.aux);
  if (kind == TimerKind::GlobalTimer || kind == TimerKind::GlobalTimerLo ||
      kind == TimerKind::GlobalTimerHi) {
    value = static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                      std::chrono::system_clock::now().time_since_epoch())
                                      .count());
  } else {
    value = static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                      std::chrono::steady_clock::now().time_since_epoch())
                                      .count());
  }
  switch (kind) {
  case TimerKind::Clock:
  case TimerKind::GlobalTimerLo:
    value &= 0xffffffffu;
    break;
  case TimerKind::ClockHi:
  case TimerKind::GlobalTimerHi:
    value >>= 32;
    break;
  default:
    break;
  }
  writeLanes(m, c.row(in.op[0]), [&](uint32_t) { return value; });
  return true;
}

bool executeNotPredicate(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  writePredicate(c, in.op[0], m, ~c.predicate(in.op[1]));
  return true;
}

bool executeNop(ExecutionContext&, const DecodedInstruction&, LaneMask) {
  return true;
}

namespace {

bool executeCopy(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  writeLanes(m, c.row(in.op[0]), [&](uint32_t l) { return a[l]; });
  return true;
}

bool executeCopyPredicate(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  writePredicate(c, in.op[0], m, c.predicate(in.op[1]));
  return true;
}

/// d = {op[1], op[2], ...}: aux elements of aux2 bits each, element 0 in the low bits.
bool executePack(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint32_t count = in.aux, width = in.aux2;
  const uint64_t mask = width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
  writeLanes(m, c.row(in.op[0]), [&](uint32_t l) {
    uint64_t value = 0;
    for (uint32_t i = 0; i < count; ++i)
      value |= (c.row(in.op[1 + i])[l] & mask) << (i * width);
    return value;
  });
  return true;
}

/// {op[1], op[2], ...} = op[0] split into aux elements of aux2 bits each.
bool executeUnpack(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint32_t count = in.aux, width = in.aux2;
  const uint64_t mask = width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
  alignas(64) uint64_t source[kWarpSize];
  std::memcpy(source, c.row(in.op[0]), sizeof source); // a destination may be the source
  for (uint32_t i = 0; i < count; ++i)
    writeLanes(m, c.row(in.op[1 + i]),
               [&](uint32_t l) { return (source[l] >> (i * width)) & mask; });
  return true;
}

enum PermuteMode : uint32_t { kGeneric, kF4e, kB4e, kRc8, kEcl, kEcr, kRc16 };

bool executePrmt(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  const uint64_t* b = c.row(in.op[2]);
  const uint64_t* selector = c.row(in.op[3]);
  // Byte choices of the fixed modes for selector values 0..3, result byte 0 first.
  static constexpr uint8_t kModes[7][4][4] = {
      {},
      {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}}, // f4e
      {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}}, // b4e
      {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}}, // rc8
      {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}}, // ecl
      {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}}, // ecr
      {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}}, // rc16
  };
  const uint32_t mode = in.aux;
  writeLanes(m, c.row(in.op[0]), [&](uint32_t l) {
    const uint64_t bytes =
        (uint64_t{static_cast<uint32_t>(b[l])} << 32) | static_cast<uint32_t>(a[l]);
    const uint32_t select = static_cast<uint32_t>(selector[l]);
    uint32_t result = 0;
    for (uint32_t i = 0; i < 4; ++i) {
      uint32_t byte;
      if (mode == kGeneric) {
        const uint32_t nibble = (select >> (4 * i)) & 0xf;
        byte = static_cast<uint32_t>(bytes >> (8 * (nibble & 7))) & 0xff;
        if (nibble & 8) // replicate the byte's sign bit
          byte = (byte & 0x80) ? 0xff : 0;
      } else {
        byte = static_cast<uint32_t>(bytes >> (8 * kModes[mode][select & 3][i])) & 0xff;
      }
      result |= byte << (8 * i);
    }
    return uint64_t{result};
  });
  return true;
}

/// cvta: d = a + imm (to generic) or a - imm (to the space), imm being the space's window (0 for
/// global, const and param, whose addresses are already generic). aux2 = 1 for 32-bit results.
bool executeCvta(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  const uint64_t window = static_cast<uint64_t>(in.imm);
  const bool toSpace = in.aux != 0, narrow = in.aux2 != 0;
  writeLanes(m, c.row(in.op[0]), [&](uint32_t l) {
    uint64_t value = toSpace ? a[l] - window : a[l] + window;
    return narrow ? value & 0xffffffffu : value;
  });
  return true;
}

enum SpaceTest : uint32_t { kIsGlobal, kIsShared, kIsLocal, kIsConst, kIsParam };

bool executeIsspacep(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  const uint64_t sharedWindow = c.memory.sharedWindow, localWindow = c.memory.localWindow;
  constexpr uint64_t kWindow = uint64_t{1} << 32;
  const LaneMask result = testLanes(m, [&](uint32_t l) {
    const bool shared = a[l] - sharedWindow < kWindow, local = a[l] - localWindow < kWindow;
    switch (in.aux) {
    case kIsGlobal:
      return !shared && !local;
    case kIsShared:
      return shared;
    case kIsLocal:
      return local;
    default:
      return false;
    }
  });
  writePredicate(c, in.op[0], m, result);
  return true;
}

bool decodeMov(DecodeContext& c, ir::ScalarType type) {
  if (!c.expectOperands(2))
    return false;
  if (type == ir::ScalarType::Pred) {
    c.out.op[0] = c.predicateDestination(0);
    c.out.op[1] = c.predicateSource(1);
    c.out.execute = &executeCopyPredicate;
    return c.ok();
  }
  const uint32_t totalBits = ir::scalarTypeBits(type);
  if (const auto* vector = c.operand(1).getIf<ir::VectorOperand>()) {
    const auto count = static_cast<uint32_t>(vector->elements.size());
    if (count < 2 || count > 8 || totalBits % count != 0)
      return c.fail("cannot pack this vector");
    const ir::ScalarType element = totalBits / count == 8    ? ir::ScalarType::B8
                                   : totalBits / count == 16 ? ir::ScalarType::B16
                                   : totalBits / count == 32 ? ir::ScalarType::B32
                                                             : ir::ScalarType::B64;
    c.out.op[0] = c.destination(0);
    for (uint32_t i = 0; i < count; ++i)
      c.out.op[1 + i] = c.operands.source(vector->elements[i], element);
    c.out.aux = count;
    c.out.aux2 = totalBits / count;
    c.out.execute = &executePack;
    return c.ok();
  }
  if (const auto* vector = c.operand(0).getIf<ir::VectorOperand>()) {
    const auto count = static_cast<uint32_t>(vector->elements.size());
    if (count < 2 || count > 8 || totalBits % count != 0)
      return c.fail("cannot unpack into this vector");
    c.out.op[0] = c.source(1, type);
    for (uint32_t i = 0; i < count; ++i)
      c.out.op[1 + i] = c.operands.destination(vector->elements[i]);
    c.out.aux = count;
    c.out.aux2 = totalBits / count;
    c.out.execute = &executeUnpack;
    return c.ok();
  }
  c.out.op[0] = c.destination(0);
  c.out.op[1] = c.source(1, type);
  c.out.execute = &executeCopy;
  return c.ok();
}

} // namespace

bool decodeMove(DecodeContext& c) {
  using Op = ir::Opcode;
  const Op opcode = c.opcode();
  // isspacep has no type; everything else does.
  const auto type = opcode == Op::Isspacep ? std::optional(ir::ScalarType::U64) : c.type();
  if (!type)
    return c.fail("no type");
  if (opcode == Op::Mov)
    return decodeMov(c, *type);
  if (opcode == Op::Prmt) {
    if (!c.expectOperands(4))
      return false;
    c.out.op[0] = c.destination(0);
    c.out.op[1] = c.source(1, ir::ScalarType::B32);
    c.out.op[2] = c.source(2, ir::ScalarType::B32);
    c.out.op[3] = c.source(3, ir::ScalarType::B32);
    c.out.aux = c.has("f4e")    ? kF4e
                : c.has("b4e")  ? kB4e
                : c.has("rc8")  ? kRc8
                : c.has("ecl")  ? kEcl
                : c.has("ecr")  ? kEcr
                : c.has("rc16") ? kRc16
                                : kGeneric;
    c.out.execute = &executePrmt;
    return c.ok();
  }
  const ir::StateSpace space = c.form.stateSpace();
  uint64_t window = 0;
  uint32_t test = kIsGlobal;
  switch (space) {
  case ir::StateSpace::Shared:
    window = c.operands.kernel().sharedWindow;
    test = kIsShared;
    break;
  case ir::StateSpace::Local:
    window = c.operands.kernel().localWindow;
    test = kIsLocal;
    break;
  case ir::StateSpace::Const:
    test = kIsConst;
    break;
  case ir::StateSpace::Param:
    test = kIsParam;
    break;
  case ir::StateSpace::Global:
    break;
  default:
    return c.fail("no state space");
  }
  if (!c.expectOperands(2))
    return false;
  if (opcode == Op::Cvta) {
    c.out.op[0] = c.destination(0);
    c.out.op[1] = c.source(1, *type);
    c.out.imm = static_cast<int64_t>(window);
    c.out.aux = c.has("to") ? 1 : 0;
    c.out.aux2 = ir::scalarTypeBits(*type) == 32 ? 1 : 0;
    c.out.execute = &executeCvta;
    return c.ok();
  }
  if (opcode == Op::Isspacep) {
    c.out.op[0] = c.predicateDestination(0);
    c.out.op[1] = c.source(1, ir::ScalarType::U64);
    c.out.aux = test;
    c.out.execute = &executeIsspacep;
    return c.ok();
  }
  return c.unsupported();
}

} // namespace ocelot::runtime::cpu
