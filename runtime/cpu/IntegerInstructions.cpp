// Integer arithmetic: add, sub, mul, mad, mul24, mad24, sad, div, rem, abs, neg, min, max, the
// carry chain (add.cc, addc, sub.cc, subc, mad.cc, madc) and the bit operations popc, clz, bfind,
// fns, brev, bfe, bfi, szext, bmsk, dp4a, dp2a. Arithmetic is done on unsigned types so that
// overflow wraps as PTX defines instead of being undefined behaviour in C++.

#include "runtime/cpu/InstructionDecoders.h"
#include "runtime/cpu/LaneValues.h"
#include "runtime/cpu/TypeDispatch.h"

#include <algorithm>
#include <bit>
#include <limits>
#include <type_traits>

namespace ocelot::runtime::cpu {
namespace {

template <class T> using Unsigned = std::make_unsigned_t<T>;

template <class T> T wrapAdd(T a, T b) {
  return static_cast<T>(static_cast<Unsigned<T>>(a) + static_cast<Unsigned<T>>(b));
}
template <class T> T wrapSub(T a, T b) {
  return static_cast<T>(static_cast<Unsigned<T>>(a) - static_cast<Unsigned<T>>(b));
}
template <class T> T wrapMul(T a, T b) {
  // Promote through unsigned int so that 16-bit operands do not become signed int.
  using U = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, Unsigned<T>>;
  return static_cast<T>(static_cast<U>(static_cast<Unsigned<T>>(a)) *
                        static_cast<U>(static_cast<Unsigned<T>>(b)));
}

int32_t saturate32(int64_t value) {
  return static_cast<int32_t>(std::clamp<int64_t>(value, INT32_MIN, INT32_MAX));
}

// --- add / sub -----------------------------------------------------------------------------

template <class T> bool executeAdd(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  const uint64_t* b = c.row(in.op[2]);
  writeLanes(m, c.row(in.op[0]),
             [&](uint32_t l) { return rowBits(wrapAdd(laneValue<T>(a, l), laneValue<T>(b, l))); });
  return true;
}

template <class T> bool executeSub(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  const uint64_t* b = c.row(in.op[2]);
  writeLanes(m, c.row(in.op[0]),
             [&](uint32_t l) { return rowBits(wrapSub(laneValue<T>(a, l), laneValue<T>(b, l))); });
  return true;
}

bool executeAddSat(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  const uint64_t* b = c.row(in.op[2]);
  const bool subtract = in.aux != 0;
  writeLanes(m, c.row(in.op[0]), [&](uint32_t l) {
    const int64_t x = laneValue<int32_t>(a, l), y = laneValue<int32_t>(b, l);
    return rowBits(saturate32(subtract ? x - y : x + y));
  });
  return true;
}

/// add.cc / addc / sub.cc / subc: aux bit 0 = subtract, bit 1 = use carry in, bit 2 = carry out.
template <class T>
bool executeCarry(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  using U = Unsigned<T>;
  const uint64_t* a = c.row(in.op[1]);
  const uint64_t* b = c.row(in.op[2]);
  uint64_t* d = c.row(in.op[0]);
  const bool subtract = (in.aux & 1) != 0, carryIn = (in.aux & 2) != 0,
             carryOut = (in.aux & 4) != 0;
  LaneMask carry = 0;
  forEachLane(m, [&](uint32_t l) {
    const U x = laneValue<U>(a, l), y = laneValue<U>(b, l);
    const U cin = carryIn && laneActive(c.carry, l) ? 1 : 0;
    U result;
    bool out;
    if (!subtract) {
      const U partial = static_cast<U>(x + y);
      result = static_cast<U>(partial + cin);
      out = partial < x || result < partial;
    } else {
      // CC.CF is a borrow for subtraction: d = a - (b + CF).
      const U partial = static_cast<U>(x - y);
      result = static_cast<U>(partial - cin);
      out = y > x || cin > partial;
    }
    d[l] = rowBits(result);
    if (out)
      carry |= LaneMask{1} << l;
  });
  if (carryOut)
    c.carry = (c.carry & ~m) | carry;
  return true;
}

// --- mul / mad -----------------------------------------------------------------------------

enum MultiplyPart : uint32_t { kLow, kHigh, kWide };

template <class T> auto highHalf(T a, T b) {
  using W = typename Wider<T>::type;
  const W product = static_cast<W>(a) * static_cast<W>(b);
  return static_cast<T>(product >> (8 * sizeof(T)));
}

/// mul.lo/hi/wide and mad.lo/hi/wide (op[3] = addend for mad, kNone for mul).
template <class T, MultiplyPart Part>
bool executeMultiply(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  const uint64_t* b = c.row(in.op[2]);
  const uint64_t* addend = in.op[3] != kNone ? c.row(in.op[3]) : nullptr;
  writeLanes(m, c.row(in.op[0]), [&](uint32_t l) -> uint64_t {
    const T x = laneValue<T>(a, l), y = laneValue<T>(b, l);
    if constexpr (Part == kLow) {
      T product = wrapMul(x, y);
      return rowBits(addend ? wrapAdd(product, laneValue<T>(addend, l)) : product);
    } else if constexpr (Part == kHigh) {
      T high = highHalf(x, y);
      return rowBits(addend ? wrapAdd(high, laneValue<T>(addend, l)) : high);
    } else {
      using W = typename Wider<T>::type;
      W product = static_cast<W>(static_cast<W>(x) * static_cast<W>(y));
      return rowBits(addend ? wrapAdd(product, laneValue<W>(addend, l)) : product);
    }
  });
  return true;
}

bool executeMadHighSat(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  const uint64_t* b = c.row(in.op[2]);
  const uint64_t* addend = c.row(in.op[3]);
  writeLanes(m, c.row(in.op[0]), [&](uint32_t l) {
    const int64_t high = highHalf(laneValue<int32_t>(a, l), laneValue<int32_t>(b, l));
    return rowBits(saturate32(high + laneValue<int32_t>(addend, l)));
  });
  return true;
}

/// mad.cc / madc (.lo / .hi): aux bit 1 = carry in, bit 2 = carry out, aux2 = part.
template <class T>
bool executeMadCarry(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  using U = Unsigned<T>;
  const uint64_t* a = c.row(in.op[1]);
  const uint64_t* b = c.row(in.op[2]);
  const uint64_t* addend = c.row(in.op[3]);
  uint64_t* d = c.row(in.op[0]);
  const bool carryIn = (in.aux & 2) != 0, carryOut = (in.aux & 4) != 0;
  LaneMask carry = 0;
  forEachLane(m, [&](uint32_t l) {
    const T x = laneValue<T>(a, l), y = laneValue<T>(b, l);
    const U product =
        in.aux2 == kHigh ? static_cast<U>(highHalf(x, y)) : static_cast<U>(wrapMul(x, y));
    const U z = laneValue<U>(addend, l);
    const U cin = carryIn && laneActive(c.carry, l) ? 1 : 0;
    const U partial = static_cast<U>(product + z);
    const U result = static_cast<U>(partial + cin);
    d[l] = rowBits(result);
    if (partial < product || result < partial)
      carry |= LaneMask{1} << l;
  });
  if (carryOut)
    c.carry = (c.carry & ~m) | carry;
  return true;
}

/// mul24/mad24 .lo/.hi: 24-bit operands (sign- or zero-extended), 48-bit product.
template <class T>
bool executeMul24(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  const uint64_t* b = c.row(in.op[2]);
  const uint64_t* addend = in.op[3] != kNone ? c.row(in.op[3]) : nullptr;
  const bool high = in.aux == kHigh;
  writeLanes(m, c.row(in.op[0]), [&](uint32_t l) {
    auto extend = [](uint32_t value) -> int64_t {
      if constexpr (std::is_signed_v<T>)
        return static_cast<int64_t>(static_cast<int32_t>(value << 8) >> 8);
      else
        return static_cast<int64_t>(value & 0xffffffu);
    };
    const int64_t product = extend(laneValue<uint32_t>(a, l)) * extend(laneValue<uint32_t>(b, l));
    uint32_t result = high ? static_cast<uint32_t>(static_cast<uint64_t>(product) >> 16)
                           : static_cast<uint32_t>(product);
    if (addend)
      result += laneValue<uint32_t>(addend, l);
    return rowBits(static_cast<T>(result));
  });
  return true;
}

template <class T> bool executeSad(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  const uint64_t* b = c.row(in.op[2]);
  const uint64_t* addend = c.row(in.op[3]);
  writeLanes(m, c.row(in.op[0]), [&](uint32_t l) {
    const T x = laneValue<T>(a, l), y = laneValue<T>(b, l);
    const T difference = x > y ? wrapSub(x, y) : wrapSub(y, x);
    return rowBits(wrapAdd(laneValue<T>(addend, l), difference));
  });
  return true;
}

// --- div / rem -----------------------------------------------------------------------------

template <class T> bool executeDiv(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  const uint64_t* b = c.row(in.op[2]);
  writeLanes(m, c.row(in.op[0]), [&](uint32_t l) {
    const T x = laneValue<T>(a, l), y = laneValue<T>(b, l);
    // Division by zero is "unspecified" in PTX; the GPU gives all ones. The one overflowing
    // signed case wraps.
    if (y == 0)
      return rowBits(static_cast<T>(~T{0}));
    if constexpr (std::is_signed_v<T>)
      if (x == std::numeric_limits<T>::min() && y == -1)
        return rowBits(x);
    return rowBits(static_cast<T>(x / y));
  });
  return true;
}

template <class T> bool executeRem(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  const uint64_t* b = c.row(in.op[2]);
  writeLanes(m, c.row(in.op[0]), [&](uint32_t l) {
    const T x = laneValue<T>(a, l), y = laneValue<T>(b, l);
    // The remainder of a division by zero is "unspecified" in PTX; the GPU gives all ones.
    if (y == 0)
      return rowBits(static_cast<T>(~T{0}));
    if constexpr (std::is_signed_v<T>)
      if (y == -1)
        return rowBits(T{0});
    return rowBits(static_cast<T>(x % y));
  });
  return true;
}

// --- abs / neg / min / max -----------------------------------------------------------------

template <class T> bool executeAbs(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  writeLanes(m, c.row(in.op[0]), [&](uint32_t l) {
    const T x = laneValue<T>(a, l);
    return rowBits(x < 0 ? wrapSub(T{0}, x) : x);
  });
  return true;
}

template <class T> bool executeNeg(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  writeLanes(m, c.row(in.op[0]),
             [&](uint32_t l) { return rowBits(wrapSub(T{0}, laneValue<T>(a, l))); });
  return true;
}

/// aux bit 0: max (else min); bit 1: .relu (clamp below at 0).
template <class T>
bool executeMinMax(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  const uint64_t* b = c.row(in.op[2]);
  const bool isMax = (in.aux & 1) != 0, relu = (in.aux & 2) != 0;
  writeLanes(m, c.row(in.op[0]), [&](uint32_t l) {
    const T x = laneValue<T>(a, l), y = laneValue<T>(b, l);
    T result = isMax ? std::max(x, y) : std::min(x, y);
    if (relu && result < T{0})
      result = T{0};
    return rowBits(result);
  });
  return true;
}

// --- bit operations ------------------------------------------------------------------------

template <class T> bool executePopc(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  writeLanes(m, c.row(in.op[0]), [&](uint32_t l) {
    return uint64_t{static_cast<uint32_t>(std::popcount(laneValue<T>(a, l)))};
  });
  return true;
}

template <class T> bool executeClz(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  writeLanes(m, c.row(in.op[0]), [&](uint32_t l) {
    return uint64_t{static_cast<uint32_t>(std::countl_zero(laneValue<T>(a, l)))};
  });
  return true;
}

/// bfind: the most significant bit that differs from the sign (signed) or is set (unsigned);
/// aux = 1 for .shiftamt (the left shift that brings it to the top).
template <class T>
bool executeBfind(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  const bool shiftAmount = in.aux != 0;
  constexpr int kBits = 8 * sizeof(T);
  writeLanes(m, c.row(in.op[0]), [&](uint32_t l) -> uint64_t {
    Unsigned<T> x = static_cast<Unsigned<T>>(laneValue<T>(a, l));
    if constexpr (std::is_signed_v<T>)
      if (laneValue<T>(a, l) < 0)
        x = static_cast<Unsigned<T>>(~x);
    if (x == 0)
      return 0xffffffffu;
    const int position = kBits - 1 - std::countl_zero(x);
    return static_cast<uint32_t>(shiftAmount ? kBits - 1 - position : position);
  });
  return true;
}

bool executeFns(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* maskRow = c.row(in.op[1]);
  const uint64_t* baseRow = c.row(in.op[2]);
  const uint64_t* offsetRow = c.row(in.op[3]);
  writeLanes(m, c.row(in.op[0]), [&](uint32_t l) -> uint64_t {
    const uint32_t bits = laneValue<uint32_t>(maskRow, l);
    // A base past bit 31 finds nothing (the GPU does not wrap it), and the one offset without a
    // magnitude, INT32_MIN, gives 0 on the GPU.
    const uint32_t base = laneValue<uint32_t>(baseRow, l);
    const int32_t offset = laneValue<int32_t>(offsetRow, l);
    if (offset == INT32_MIN)
      return 0;
    if (offset == 0)
      return base < 32 && ((bits >> base) & 1) ? base : 0xffffffffu;
    int count = (offset > 0 ? offset : -offset) - 1;
    const int step = offset > 0 ? 1 : -1;
    for (int64_t position = base; position >= 0 && position < 32; position += step) {
      if ((bits >> position) & 1) {
        if (count == 0)
          return static_cast<uint32_t>(position);
        --count;
      }
    }
    return 0xffffffffu;
  });
  return true;
}

/// The bits of x in reverse order: swaps neighbouring bits, pairs and nibbles, then the bytes. A
/// loop over the bits cost half the interpreter's time on probe code, which takes the lane's
/// position among its warp's active lanes with brev and bfind at every block.
template <class T> T reverseBits(T x) {
  static_assert(std::is_unsigned_v<T> && (sizeof(T) == 4 || sizeof(T) == 8));
  constexpr T kBits1 = static_cast<T>(0x5555555555555555ull);
  constexpr T kBits2 = static_cast<T>(0x3333333333333333ull);
  constexpr T kBits4 = static_cast<T>(0x0f0f0f0f0f0f0f0full);
  x = static_cast<T>(((x >> 1) & kBits1) | ((x & kBits1) << 1));
  x = static_cast<T>(((x >> 2) & kBits2) | ((x & kBits2) << 2));
  x = static_cast<T>(((x >> 4) & kBits4) | ((x & kBits4) << 4));
  if constexpr (sizeof(T) == 4)
    return __builtin_bswap32(x);
  else
    return __builtin_bswap64(x);
}

template <class T> bool executeBrev(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  writeLanes(m, c.row(in.op[0]),
             [&](uint32_t l) { return rowBits(reverseBits(laneValue<T>(a, l))); });
  return true;
}

/// The field position and length of bfe/bfi: the low byte for 32-bit operations as the PTX ISA
/// states; the GPU reads the 64-bit forms' operands whole (measured with the instruction sweep).
template <class T> uint64_t fieldOperand(const uint64_t* row, uint32_t lane) {
  const uint32_t value = laneValue<uint32_t>(row, lane);
  return sizeof(T) == 8 ? uint64_t{value} : uint64_t{value & 0xff};
}

template <class T> bool executeBfe(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  using U = Unsigned<T>;
  constexpr uint64_t kMsb = 8 * sizeof(T) - 1;
  const uint64_t* a = c.row(in.op[1]);
  const uint64_t* b = c.row(in.op[2]);
  const uint64_t* cc = c.row(in.op[3]);
  writeLanes(m, c.row(in.op[0]), [&](uint32_t l) {
    const U x = static_cast<U>(laneValue<T>(a, l));
    const uint64_t position = fieldOperand<T>(b, l);
    const uint64_t length = fieldOperand<T>(cc, l);
    U signBit = 0;
    if (std::is_signed_v<T> && length != 0)
      signBit = (x >> std::min(position + length - 1, kMsb)) & 1;
    U result = 0;
    for (uint64_t i = 0; i <= kMsb; ++i) {
      const U bit = (i < length && position + i <= kMsb) ? (x >> (position + i)) & 1 : signBit;
      result = static_cast<U>(result | (bit << i));
    }
    return rowBits(static_cast<T>(result));
  });
  return true;
}

template <class T> bool executeBfi(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  constexpr uint64_t kMsb = 8 * sizeof(T) - 1;
  const uint64_t* a = c.row(in.op[1]);
  const uint64_t* b = c.row(in.op[2]);
  const uint64_t* positionRow = c.row(in.op[3]);
  const uint64_t* lengthRow = c.row(in.op[4]);
  writeLanes(m, c.row(in.op[0]), [&](uint32_t l) {
    const T x = laneValue<T>(a, l);
    T result = laneValue<T>(b, l);
    const uint64_t position = fieldOperand<T>(positionRow, l);
    const uint64_t length = fieldOperand<T>(lengthRow, l);
    for (uint64_t i = 0; i < length && position + i <= kMsb; ++i) {
      const T bit = static_cast<T>(T{1} << (position + i));
      result = ((x >> i) & 1) ? static_cast<T>(result | bit) : static_cast<T>(result & ~bit);
    }
    return rowBits(result);
  });
  return true;
}

/// szext.{clamp,wrap}.{u32,s32}: aux = 1 for wrap.
template <class T>
bool executeSzext(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  const uint64_t* b = c.row(in.op[2]);
  const bool wrap = in.aux != 0;
  writeLanes(m, c.row(in.op[0]), [&](uint32_t l) {
    const uint32_t x = laneValue<uint32_t>(a, l);
    uint32_t bits = laneValue<uint32_t>(b, l);
    bits = wrap ? bits % 32 : std::min(bits, 32u);
    if (bits == 0)
      return rowBits(T{0});
    if (bits == 32)
      return rowBits(static_cast<T>(x));
    if constexpr (std::is_signed_v<T>) {
      const unsigned shift = 32 - bits;
      return rowBits(static_cast<int32_t>(x << shift) >> shift);
    } else {
      return rowBits(x & ((1u << bits) - 1));
    }
  });
  return true;
}

bool executeBmsk(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  const uint64_t* b = c.row(in.op[2]);
  const bool wrap = in.aux != 0;
  writeLanes(m, c.row(in.op[0]), [&](uint32_t l) {
    uint32_t position = laneValue<uint32_t>(a, l), width = laneValue<uint32_t>(b, l);
    if (wrap) {
      position &= 31;
      width &= 31;
    } else {
      position = std::min(position, 32u);
      width = std::min(width, 32u);
    }
    const uint64_t field = width >= 32 ? 0xffffffffull : ((uint64_t{1} << width) - 1);
    return uint64_t{static_cast<uint32_t>(position >= 32 ? 0 : (field << position))};
  });
  return true;
}

/// dp4a / dp2a: aux bit 0 = a signed, bit 1 = b signed; dp2a: aux bit 2 = two halves, bit 3 = .hi.
bool executeDotProduct(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  const uint64_t* b = c.row(in.op[2]);
  const uint64_t* addend = c.row(in.op[3]);
  const bool aSigned = (in.aux & 1) != 0, bSigned = (in.aux & 2) != 0;
  const bool twoWay = (in.aux & 4) != 0, high = (in.aux & 8) != 0;
  writeLanes(m, c.row(in.op[0]), [&](uint32_t l) {
    const uint32_t x = laneValue<uint32_t>(a, l), y = laneValue<uint32_t>(b, l);
    auto byte = [](uint32_t value, int index, bool isSigned) -> int64_t {
      const uint32_t raw = (value >> (8 * index)) & 0xff;
      return isSigned ? static_cast<int8_t>(raw) : static_cast<int64_t>(raw);
    };
    auto half = [](uint32_t value, int index, bool isSigned) -> int64_t {
      const uint32_t raw = (value >> (16 * index)) & 0xffff;
      return isSigned ? static_cast<int16_t>(raw) : static_cast<int64_t>(raw);
    };
    int64_t sum = 0;
    if (twoWay) {
      const int first = high ? 2 : 0;
      sum = half(x, 0, aSigned) * byte(y, first, bSigned) +
            half(x, 1, aSigned) * byte(y, first + 1, bSigned);
    } else {
      for (int i = 0; i < 4; ++i)
        sum += byte(x, i, aSigned) * byte(y, i, bSigned);
    }
    // The accumulator has the signedness of the result: s32 if either input is signed.
    const uint32_t total = laneValue<uint32_t>(addend, l) + static_cast<uint32_t>(sum);
    return uint64_t{total};
  });
  return true;
}

// --- decoding --------------------------------------------------------------------------------

bool binaryOperands(DecodeContext& c, ir::ScalarType sourceType, ir::ScalarType addendType,
                    bool hasAddend) {
  if (!c.expectOperands(hasAddend ? 4 : 3))
    return false;
  c.out.op[0] = c.destination(0);
  c.out.op[1] = c.source(1, sourceType);
  c.out.op[2] = c.source(2, sourceType);
  if (hasAddend)
    c.out.op[3] = c.source(3, addendType);
  return c.ok();
}

ir::ScalarType widerType(ir::ScalarType type) {
  using T = ir::ScalarType;
  switch (type) {
  case T::U16:
    return T::U32;
  case T::S16:
    return T::S32;
  case T::U32:
    return T::U64;
  case T::S32:
    return T::S64;
  default:
    return type;
  }
}

bool decodeAddSub(DecodeContext& c, ir::ScalarType type, bool subtract, bool carryIn) {
  const bool carryOut = c.has("cc");
  if (!binaryOperands(c, type, type, false))
    return false;
  if (carryIn || carryOut) {
    c.out.aux = (subtract ? 1u : 0u) | (carryIn ? 2u : 0u) | (carryOut ? 4u : 0u);
    c.out.execute = byWordType(type, []<class T>() { return &executeCarry<T>; });
  } else if (c.has("sat")) {
    if (type != ir::ScalarType::S32)
      return c.unsupported(".sat on a type other than .s32");
    c.out.aux = subtract ? 1 : 0;
    c.out.execute = &executeAddSat;
  } else if (subtract) {
    c.out.execute = byIntegerType(type, []<class T>() { return &executeSub<T>; });
  } else {
    c.out.execute = byIntegerType(type, []<class T>() { return &executeAdd<T>; });
  }
  return c.out.execute != nullptr || c.unsupported("type");
}

bool decodeMultiply(DecodeContext& c, ir::ScalarType type, bool mad) {
  const bool wide = c.has("wide"), high = c.has("hi");
  const bool carryIn = c.opcode() == ir::Opcode::Madc, carryOut = c.has("cc");
  const ir::ScalarType addendType = wide ? widerType(type) : type;
  if (!binaryOperands(c, type, addendType, mad))
    return false;
  if (carryIn || carryOut) {
    c.out.aux = (carryIn ? 2u : 0u) | (carryOut ? 4u : 0u);
    c.out.aux2 = high ? kHigh : kLow;
    c.out.execute = byWordType(type, []<class T>() { return &executeMadCarry<T>; });
  } else if (mad && high && c.has("sat")) {
    if (type != ir::ScalarType::S32)
      return c.unsupported("mad.hi.sat on a type other than .s32");
    c.out.execute = &executeMadHighSat;
  } else if (wide) {
    if (type == ir::ScalarType::U64 || type == ir::ScalarType::S64 || type == ir::ScalarType::B64)
      return c.unsupported(".wide on 64-bit operands");
    c.out.execute = byIntegerType(type, []<class T>() -> ExecuteFn {
      if constexpr (sizeof(T) < 8)
        return &executeMultiply<T, kWide>;
      else
        return nullptr;
    });
  } else if (high) {
    c.out.execute = byIntegerType(type, []<class T>() { return &executeMultiply<T, kHigh>; });
  } else {
    c.out.execute = byIntegerType(type, []<class T>() { return &executeMultiply<T, kLow>; });
  }
  return c.out.execute != nullptr || c.unsupported("type");
}

bool unaryOperands(DecodeContext& c, ir::ScalarType type) {
  if (!c.expectOperands(2))
    return false;
  c.out.op[0] = c.destination(0);
  c.out.op[1] = c.source(1, type);
  return c.ok();
}

} // namespace

bool decodeIntegerArithmetic(DecodeContext& c) {
  using Op = ir::Opcode;
  const Op opcode = c.opcode();
  auto typeOrNone = c.type();
  if (!typeOrNone)
    return c.fail("no type");
  const ir::ScalarType type = *typeOrNone;
  using T = ir::ScalarType;

  switch (opcode) {
  case Op::Add:
  case Op::Addc:
    return decodeAddSub(c, type, false, opcode == Op::Addc);
  case Op::Sub:
  case Op::Subc:
    return decodeAddSub(c, type, true, opcode == Op::Subc);
  case Op::Mul:
    return decodeMultiply(c, type, false);
  case Op::Mad:
  case Op::Madc:
    return decodeMultiply(c, type, true);
  case Op::Mul24:
  case Op::Mad24: {
    const bool mad = opcode == Op::Mad24;
    if (!binaryOperands(c, type, type, mad))
      return false;
    if (c.has("sat"))
      return c.unsupported("mad24.sat");
    c.out.aux = c.has("hi") ? kHigh : kLow;
    c.out.execute = type == T::S32   ? &executeMul24<int32_t>
                    : type == T::U32 ? &executeMul24<uint32_t>
                                     : nullptr;
    return c.out.execute != nullptr || c.unsupported("type");
  }
  case Op::Sad: {
    if (!binaryOperands(c, type, type, true))
      return false;
    c.out.execute = byIntegerType(type, []<class U>() { return &executeSad<U>; });
    return c.out.execute != nullptr || c.unsupported("type");
  }
  case Op::Div:
  case Op::Rem: {
    if (!binaryOperands(c, type, type, false))
      return false;
    c.out.execute = opcode == Op::Div
                        ? byIntegerType(type, []<class U>() { return &executeDiv<U>; })
                        : byIntegerType(type, []<class U>() { return &executeRem<U>; });
    return c.out.execute != nullptr || c.unsupported("type");
  }
  case Op::Abs:
  case Op::Neg: {
    if (!unaryOperands(c, type))
      return false;
    c.out.execute = opcode == Op::Abs
                        ? byIntegerType(type,
                                        []<class U>() -> ExecuteFn {
                                          if constexpr (std::is_signed_v<U>)
                                            return &executeAbs<U>;
                                          else
                                            return nullptr;
                                        })
                        : byIntegerType(type, []<class U>() { return &executeNeg<U>; });
    return c.out.execute != nullptr || c.unsupported("type");
  }
  case Op::Min:
  case Op::Max: {
    if (!binaryOperands(c, type, type, false))
      return false;
    c.out.aux = (opcode == Op::Max ? 1u : 0u) | (c.has("relu") ? 2u : 0u);
    c.out.execute = byIntegerType(type, []<class U>() { return &executeMinMax<U>; });
    return c.out.execute != nullptr || c.unsupported("type");
  }
  case Op::Popc:
  case Op::Clz:
  case Op::Brev: {
    if (!unaryOperands(c, type))
      return false;
    const bool is64 = type == T::B64 || type == T::U64 || type == T::S64;
    if (opcode == Op::Popc)
      c.out.execute = is64 ? &executePopc<uint64_t> : &executePopc<uint32_t>;
    else if (opcode == Op::Clz)
      c.out.execute = is64 ? &executeClz<uint64_t> : &executeClz<uint32_t>;
    else
      c.out.execute = is64 ? &executeBrev<uint64_t> : &executeBrev<uint32_t>;
    return true;
  }
  case Op::Bfind: {
    if (!unaryOperands(c, type))
      return false;
    c.out.aux = c.has("shiftamt") ? 1 : 0;
    c.out.execute = byWordType(type, []<class U>() { return &executeBfind<U>; });
    return c.out.execute != nullptr || c.unsupported("type");
  }
  case Op::Fns: {
    if (!c.expectOperands(4))
      return false;
    c.out.op[0] = c.destination(0);
    c.out.op[1] = c.source(1, T::B32);
    c.out.op[2] = c.source(2, T::U32);
    c.out.op[3] = c.source(3, T::S32);
    c.out.execute = &executeFns;
    return c.ok();
  }
  case Op::Bfe: {
    if (!c.expectOperands(4))
      return false;
    c.out.op[0] = c.destination(0);
    c.out.op[1] = c.source(1, type);
    c.out.op[2] = c.source(2, T::U32);
    c.out.op[3] = c.source(3, T::U32);
    c.out.execute = byWordType(type, []<class U>() { return &executeBfe<U>; });
    return c.ok() && (c.out.execute != nullptr || c.unsupported("type"));
  }
  case Op::Bfi: {
    if (!c.expectOperands(5))
      return false;
    c.out.op[0] = c.destination(0);
    c.out.op[1] = c.source(1, type);
    c.out.op[2] = c.source(2, type);
    c.out.op[3] = c.source(3, T::U32);
    c.out.op[4] = c.source(4, T::U32);
    const bool is64 = type == T::B64 || type == T::U64 || type == T::S64;
    c.out.execute = is64 ? &executeBfi<uint64_t> : &executeBfi<uint32_t>;
    return c.ok();
  }
  case Op::Szext: {
    if (!binaryOperands(c, type, T::U32, false))
      return false;
    c.out.aux = c.has("wrap") ? 1 : 0;
    c.out.execute = type == T::S32   ? &executeSzext<int32_t>
                    : type == T::U32 ? &executeSzext<uint32_t>
                                     : nullptr;
    return c.out.execute != nullptr || c.unsupported("type");
  }
  case Op::Bmsk: {
    if (!binaryOperands(c, T::U32, T::U32, false))
      return false;
    c.out.aux = c.has("wrap") ? 1 : 0;
    c.out.execute = &executeBmsk;
    return true;
  }
  case Op::Dp4a:
  case Op::Dp2a: {
    // dp4a.atype.btype d, a, b, c
    const auto& modifiers = c.form.modifiers();
    std::vector<ir::ScalarType> types;
    for (std::string_view modifier : modifiers)
      if (auto t = ir::scalarTypeFromName(modifier))
        types.push_back(*t);
    if (types.size() != 2 || !c.expectOperands(4))
      return c.fail("expected two types and four operands");
    const bool aSigned = types[0] == T::S32, bSigned = types[1] == T::S32;
    c.out.op[0] = c.destination(0);
    c.out.op[1] = c.source(1, T::B32);
    c.out.op[2] = c.source(2, T::B32);
    c.out.op[3] = c.source(3, (aSigned || bSigned) ? T::S32 : T::U32);
    c.out.aux = (aSigned ? 1u : 0u) | (bSigned ? 2u : 0u) | (opcode == Op::Dp2a ? 4u : 0u) |
                (c.has("hi") ? 8u : 0u);
    c.out.execute = &executeDotProduct;
    return c.ok();
  }
  default:
    return c.unsupported();
  }
}

} // namespace ocelot::runtime::cpu
