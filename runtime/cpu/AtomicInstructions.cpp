// atom and red in every state space. Global memory is shared by the CTAs that run concurrently on
// several host threads, so every read-modify-write is a real host atomic (std::atomic_ref); lanes
// of a warp apply theirs in lane order, which keeps deterministic mode deterministic.

#include "runtime/cpu/HalfPrecision.h"
#include "runtime/cpu/InstructionDecoders.h"
#include "runtime/cpu/LaneValues.h"
#include "runtime/cpu/MemoryAccess.h"

#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>

namespace ocelot::runtime::cpu {

bool decodeAddressOperand(DecodeContext& c, size_t index, ir::StateSpace space);

namespace {

constexpr size_t kAddressOperand = 8;

enum class AtomicOp : uint32_t { And, Or, Xor, Cas, Exch, Add, Inc, Dec, Min, Max };
enum class Element : uint32_t { Integer, Half, Bfloat16, Half2, Bfloat162, Float, Double };

/// new value from old and operand (b, c) for the CAS-loop operations.
template <class T, AtomicOp Op, Element E> T combine(T old, T b, T c) {
  if constexpr (Op == AtomicOp::And)
    return old & b;
  else if constexpr (Op == AtomicOp::Or)
    return old | b;
  else if constexpr (Op == AtomicOp::Xor)
    return old ^ b;
  else if constexpr (Op == AtomicOp::Exch)
    return b;
  else if constexpr (Op == AtomicOp::Cas)
    return old == b ? c : old;
  else if constexpr (Op == AtomicOp::Inc)
    return old >= b ? T{0} : static_cast<T>(old + 1);
  else if constexpr (Op == AtomicOp::Dec)
    return (old == 0 || old > b) ? b : static_cast<T>(old - 1);
  else if constexpr (E == Element::Float) {
    const float x = std::bit_cast<float>(static_cast<uint32_t>(old)),
                y = std::bit_cast<float>(static_cast<uint32_t>(b));
    float r = Op == AtomicOp::Add ? x + y : Op == AtomicOp::Min ? std::fmin(x, y) : std::fmax(x, y);
    return static_cast<T>(std::bit_cast<uint32_t>(r));
  } else if constexpr (E == Element::Double) {
    const double x = std::bit_cast<double>(static_cast<uint64_t>(old)),
                 y = std::bit_cast<double>(static_cast<uint64_t>(b));
    double r = Op == AtomicOp::Add   ? x + y
               : Op == AtomicOp::Min ? std::fmin(x, y)
                                     : std::fmax(x, y);
    return static_cast<T>(std::bit_cast<uint64_t>(r));
  } else if constexpr (E == Element::Half || E == Element::Bfloat16 || E == Element::Half2 ||
                       E == Element::Bfloat162) {
    constexpr bool bf = E == Element::Bfloat16 || E == Element::Bfloat162;
    constexpr uint32_t count = (E == Element::Half2 || E == Element::Bfloat162) ? 2 : 1;
    uint64_t result = 0;
    for (uint32_t i = 0; i < count; ++i) {
      const auto hx = static_cast<uint16_t>(static_cast<uint64_t>(old) >> (16 * i));
      const auto hy = static_cast<uint16_t>(static_cast<uint64_t>(b) >> (16 * i));
      const float x = bf ? bfloat16ToFloat(hx) : halfToFloat(hx);
      const float y = bf ? bfloat16ToFloat(hy) : halfToFloat(hy);
      const float r = Op == AtomicOp::Add   ? x + y
                      : Op == AtomicOp::Min ? std::fmin(x, y)
                                            : std::fmax(x, y);
      const uint16_t bits = bf ? floatToBfloat16(r, RoundingMode::NearestEven)
                               : floatToHalf(r, RoundingMode::NearestEven);
      result |= uint64_t{bits} << (16 * i);
    }
    return static_cast<T>(result);
  } else if constexpr (Op == AtomicOp::Add)
    return static_cast<T>(old + b);
  else if constexpr (Op == AtomicOp::Min)
    return b < old ? b : old;
  else
    return b > old ? b : old;
}

template <class T, AtomicOp Op, Element E>
bool executeAtomic(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const auto space = static_cast<MemorySpace>(in.aux);
  const uint64_t* b = c.row(in.op[1]);
  const uint64_t* cv = in.op[2] != kNone ? c.row(in.op[2]) : b;
  uint64_t* d = c.row(in.op[0]);
  bool ok = true;
  forEachLane(m, [&](uint32_t lane) {
    if (!ok)
      return;
    const uint64_t address = laneAddress(c, in, in.op[kAddressOperand], lane);
    std::byte* host = resolveAddress(c, space, address, sizeof(T), lane);
    if (host == nullptr) {
      ok = false;
      return;
    }
    using U = std::make_unsigned_t<T>;
    std::atomic_ref<U> cell(*reinterpret_cast<U*>(host));
    const U operand = static_cast<U>(b[lane]);
    U old;
    if constexpr (E == Element::Integer && Op == AtomicOp::Add) {
      old = cell.fetch_add(operand);
    } else if constexpr (Op == AtomicOp::Exch) {
      old = cell.exchange(operand);
    } else if constexpr (Op == AtomicOp::And) {
      old = cell.fetch_and(operand);
    } else if constexpr (Op == AtomicOp::Or) {
      old = cell.fetch_or(operand);
    } else if constexpr (Op == AtomicOp::Xor) {
      old = cell.fetch_xor(operand);
    } else {
      old = cell.load();
      for (;;) {
        U desired;
        if constexpr (E == Element::Integer && (Op == AtomicOp::Min || Op == AtomicOp::Max))
          desired =
              static_cast<U>(combine<T, Op, E>(static_cast<T>(old), static_cast<T>(operand), T{}));
        else
          desired = combine<U, Op, E>(old, operand, static_cast<U>(cv[lane]));
        if (desired == old && Op == AtomicOp::Cas)
          break;
        if (cell.compare_exchange_weak(old, desired))
          break;
      }
    }
    d[lane] = rowBits(static_cast<T>(old));
  });
  return ok;
}

template <class T, Element E> ExecuteFn byOp(AtomicOp op) {
  switch (op) {
  case AtomicOp::And:
    return &executeAtomic<T, AtomicOp::And, E>;
  case AtomicOp::Or:
    return &executeAtomic<T, AtomicOp::Or, E>;
  case AtomicOp::Xor:
    return &executeAtomic<T, AtomicOp::Xor, E>;
  case AtomicOp::Cas:
    return &executeAtomic<T, AtomicOp::Cas, E>;
  case AtomicOp::Exch:
    return &executeAtomic<T, AtomicOp::Exch, E>;
  case AtomicOp::Add:
    return &executeAtomic<T, AtomicOp::Add, E>;
  case AtomicOp::Inc:
    return &executeAtomic<T, AtomicOp::Inc, E>;
  case AtomicOp::Dec:
    return &executeAtomic<T, AtomicOp::Dec, E>;
  case AtomicOp::Min:
    return &executeAtomic<T, AtomicOp::Min, E>;
  case AtomicOp::Max:
    return &executeAtomic<T, AtomicOp::Max, E>;
  }
  return nullptr;
}

ExecuteFn selectAtomic(ir::ScalarType type, AtomicOp op) {
  using S = ir::ScalarType;
  const bool bitwise = op == AtomicOp::And || op == AtomicOp::Or || op == AtomicOp::Xor ||
                       op == AtomicOp::Exch || op == AtomicOp::Cas;
  switch (type) {
  case S::B16:
  case S::U16:
    return bitwise ? byOp<uint16_t, Element::Integer>(op) : nullptr;
  case S::B32:
  case S::U32:
    return byOp<uint32_t, Element::Integer>(op);
  case S::S32:
    return byOp<int32_t, Element::Integer>(op);
  case S::B64:
  case S::U64:
    return byOp<uint64_t, Element::Integer>(op);
  case S::S64:
    return byOp<int64_t, Element::Integer>(op);
  case S::F32:
    return bitwise ? byOp<uint32_t, Element::Integer>(op) : byOp<uint32_t, Element::Float>(op);
  case S::F64:
    return bitwise ? byOp<uint64_t, Element::Integer>(op) : byOp<uint64_t, Element::Double>(op);
  case S::F16:
    return bitwise ? byOp<uint16_t, Element::Integer>(op) : byOp<uint16_t, Element::Half>(op);
  case S::BF16:
    return bitwise ? byOp<uint16_t, Element::Integer>(op) : byOp<uint16_t, Element::Bfloat16>(op);
  case S::F16x2:
    return byOp<uint32_t, Element::Half2>(op);
  case S::BF16x2:
    return byOp<uint32_t, Element::Bfloat162>(op);
  default:
    return nullptr;
  }
}

} // namespace

bool decodeAtomic(DecodeContext& c) {
  const bool reduction = c.opcode() == ir::Opcode::Red;
  const auto type = c.type();
  if (!type)
    return c.fail("no type");
  if (c.form.vectorWidth() > 1)
    return c.unsupported("vector atomics");
  AtomicOp op;
  if (c.has("and"))
    op = AtomicOp::And;
  else if (c.has("or"))
    op = AtomicOp::Or;
  else if (c.has("xor"))
    op = AtomicOp::Xor;
  else if (c.has("cas"))
    op = AtomicOp::Cas;
  else if (c.has("exch"))
    op = AtomicOp::Exch;
  else if (c.has("add"))
    op = AtomicOp::Add;
  else if (c.has("inc"))
    op = AtomicOp::Inc;
  else if (c.has("dec"))
    op = AtomicOp::Dec;
  else if (c.has("min"))
    op = AtomicOp::Min;
  else if (c.has("max"))
    op = AtomicOp::Max;
  else
    return c.unsupported("atomic operation");
  const size_t values = reduction ? 0 : 1;
  const size_t expected = values + 2 + (op == AtomicOp::Cas ? 1 : 0);
  if (!c.expectOperands(expected))
    return false;
  ExecuteFn execute = selectAtomic(*type, op);
  if (execute == nullptr)
    return c.unsupported("atomic type");
  if (!decodeAddressOperand(c, values, c.form.stateSpace()))
    return false;
  c.out.op[0] = reduction ? c.operands.builder().sinkRow() : c.destination(0);
  c.out.op[1] = c.source(values + 1, *type);
  if (op == AtomicOp::Cas)
    c.out.op[2] = c.source(values + 2, *type);
  c.out.execute = execute;
  c.out.memoryAccess = true;
  return c.ok();
}

} // namespace ocelot::runtime::cpu
