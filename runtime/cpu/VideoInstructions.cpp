// Video instructions: the scalar vadd, vsub, vabsdiff, vmin, vmax, vshl, vshr, vmad and vset with
// their byte/half-word selectors (.b0-.b3, .h0, .h1), saturation, secondary operation (.add, .min,
// .max) and destination merge, and the SIMD vadd2/4, vsub2/4, vavrg2/4, vabsdiff2/4, vmin2/4,
// vmax2/4 and vset2/4 with saturation and the accumulating .add. Semantics as the PTX ISA states
// them, confirmed bit for bit against a GPU by the instruction sweep (tests/cpu/sweep):
// - scalar: operands are selected and sign- or zero-extended by their types, the operation runs
//   on 64 bits, .sat clamps to the destination type (or the merged part), otherwise the result
//   wraps to 32 bits of the destination's signedness before the secondary operation with c;
// - SIMD: each byte (half-word) pair is operated on and clamped with .sat; .add adds every
//   element's result to c, otherwise the elements are packed;
// - vmad: (a * b + c) >> scale in 128 bits, c extended by the product's signedness.
// The SIMD forms' non-default selectors and masks (.b3210-style) and vmad's negated operands are
// not supported.

#include "runtime/cpu/InstructionDecoders.h"
#include "runtime/cpu/LaneValues.h"

#include <algorithm>

namespace ocelot::runtime::cpu {
namespace {

__extension__ using Int128 = __int128; // vmad's 64 x 64-bit products plus c

enum class VideoOp : uint32_t {
  Add,
  Sub,
  AbsDiff,
  Min,
  Max,
  Average, // SIMD only
  Shl,
  Shr,
  Mad,
  SetEq,
  SetNe,
  SetLt,
  SetLe,
  SetGt,
  SetGe,
};

enum class Secondary : uint32_t { None, Add, Min, Max };

/// A part selector: the whole word, a byte or a half-word.
enum class Part : uint32_t { Word, B0, B1, B2, B3, H0, H1 };

/// Everything but the operation itself, packed into DecodedInstruction::aux2.
struct VideoForm {
  bool destinationSigned = false, aSigned = false, bSigned = false;
  bool saturate = false, wrapShift = false, productOne = false;
  Secondary secondary = Secondary::None;
  Part aPart = Part::Word, bPart = Part::Word, dPart = Part::Word;
  uint32_t scale = 0; ///< vmad .shr7/.shr15
  uint32_t lanes = 1; ///< 1 (scalar), 2 or 4 (SIMD)

  uint32_t pack() const {
    return (destinationSigned ? 1u : 0u) | (aSigned ? 2u : 0u) | (bSigned ? 4u : 0u) |
           (saturate ? 8u : 0u) | (wrapShift ? 16u : 0u) | (productOne ? 32u : 0u) |
           (static_cast<uint32_t>(secondary) << 6) | (static_cast<uint32_t>(aPart) << 8) |
           (static_cast<uint32_t>(bPart) << 11) | (static_cast<uint32_t>(dPart) << 14) |
           (scale << 17) | (lanes << 22);
  }
  static VideoForm unpack(uint32_t bits) {
    VideoForm f;
    f.destinationSigned = bits & 1u;
    f.aSigned = bits & 2u;
    f.bSigned = bits & 4u;
    f.saturate = bits & 8u;
    f.wrapShift = bits & 16u;
    f.productOne = bits & 32u;
    f.secondary = static_cast<Secondary>((bits >> 6) & 3u);
    f.aPart = static_cast<Part>((bits >> 8) & 7u);
    f.bPart = static_cast<Part>((bits >> 11) & 7u);
    f.dPart = static_cast<Part>((bits >> 14) & 7u);
    f.scale = (bits >> 17) & 31u;
    f.lanes = (bits >> 22) & 7u;
    return f;
  }
};

/// The selected part of `value`, sign- or zero-extended.
int64_t selectPart(uint32_t value, Part part, bool isSigned) {
  switch (part) {
  case Part::Word:
    return isSigned ? int64_t{static_cast<int32_t>(value)} : int64_t{value};
  case Part::H0:
  case Part::H1: {
    const uint32_t half = (value >> (part == Part::H1 ? 16 : 0)) & 0xffff;
    return isSigned ? int64_t{static_cast<int16_t>(half)} : int64_t{half};
  }
  default: {
    const uint32_t shift = 8 * (static_cast<uint32_t>(part) - static_cast<uint32_t>(Part::B0));
    const uint32_t byte = (value >> shift) & 0xff;
    return isSigned ? int64_t{static_cast<int8_t>(byte)} : int64_t{byte};
  }
  }
}

/// Bits of a part (32 for the whole word) and its position.
uint32_t partBits(Part part) {
  return part == Part::Word ? 32 : (part == Part::H0 || part == Part::H1) ? 16 : 8;
}
uint32_t partShift(Part part) {
  if (part == Part::H1)
    return 16;
  if (part >= Part::B0 && part <= Part::B3)
    return 8 * (static_cast<uint32_t>(part) - static_cast<uint32_t>(Part::B0));
  return 0;
}

int64_t clampTo(int64_t value, uint32_t bits, bool isSigned) {
  const int64_t low = isSigned ? -(int64_t{1} << (bits - 1)) : 0;
  const int64_t high = isSigned ? (int64_t{1} << (bits - 1)) - 1 : (int64_t{1} << bits) - 1;
  return std::clamp(value, low, high);
}

int64_t elementOp(VideoOp op, int64_t x, int64_t y) {
  switch (op) {
  case VideoOp::Add:
    return x + y;
  case VideoOp::Sub:
    return x - y;
  case VideoOp::AbsDiff:
    return x > y ? x - y : y - x;
  case VideoOp::Min:
    return std::min(x, y);
  case VideoOp::Max:
    return std::max(x, y);
  case VideoOp::Average: {
    const int64_t sum = x + y; // rounds half away from zero
    return sum >= 0 ? (sum + 1) >> 1 : sum >> 1;
  }
  case VideoOp::SetEq:
    return x == y;
  case VideoOp::SetNe:
    return x != y;
  case VideoOp::SetLt:
    return x < y;
  case VideoOp::SetLe:
    return x <= y;
  case VideoOp::SetGt:
    return x > y;
  case VideoOp::SetGe:
    return x >= y;
  default:
    return 0;
  }
}

uint32_t scalarVideo(VideoOp op, const VideoForm& f, uint32_t a, uint32_t b, uint32_t c) {
  const int64_t x = selectPart(a, f.aPart, f.aSigned);
  const int64_t y = selectPart(b, f.bPart, f.bSigned);
  if (op == VideoOp::Mad) {
    const bool productSigned = f.aSigned || f.bSigned;
    const Int128 addend = productSigned ? Int128{static_cast<int32_t>(c)} : Int128{c};
    Int128 value = Int128{x} * Int128{y} + addend + (f.productOne ? 1 : 0);
    value >>= f.scale;
    if (f.saturate) {
      const Int128 low = f.destinationSigned ? INT32_MIN : 0;
      const Int128 high = f.destinationSigned ? Int128{INT32_MAX} : Int128{UINT32_MAX};
      value = value < low ? low : (value > high ? high : value);
    }
    return static_cast<uint32_t>(static_cast<uint64_t>(value));
  }
  int64_t t;
  if (op == VideoOp::Shl || op == VideoOp::Shr) {
    uint64_t amount = static_cast<uint64_t>(y);
    amount = f.wrapShift ? amount & 31 : std::min<uint64_t>(amount, 32);
    t = op == VideoOp::Shl ? static_cast<int64_t>(static_cast<uint64_t>(x) << amount) : x >> amount;
  } else {
    t = elementOp(op, x, y);
  }
  const uint32_t bits = partBits(f.dPart);
  // Measured on an H200 (the sweep's vadd_merge_sat, vset_merge_h1): with a destination selector
  // the result first wraps to 32 bits of the destination's signedness and is clamped after that
  // (a negative sum of a .u32 destination saturates to 0xff), and vset merges 0 into the part.
  if (f.dPart != Part::Word) {
    t = f.destinationSigned ? int64_t{static_cast<int32_t>(t)} : int64_t{static_cast<uint32_t>(t)};
    if (op >= VideoOp::SetEq)
      t = 0;
  }
  if (f.saturate)
    t = clampTo(t, bits, f.destinationSigned);
  // Without saturation the value wraps to 32 bits of the destination's signedness first.
  t = f.destinationSigned ? int64_t{static_cast<int32_t>(t)} : int64_t{static_cast<uint32_t>(t)};
  const int64_t addend =
      f.destinationSigned ? int64_t{static_cast<int32_t>(c)} : int64_t{static_cast<uint32_t>(c)};
  switch (f.secondary) {
  case Secondary::Add:
    t += addend;
    break;
  case Secondary::Min:
    t = std::min(t, addend);
    break;
  case Secondary::Max:
    t = std::max(t, addend);
    break;
  default:
    break;
  }
  if (f.dPart == Part::Word)
    return static_cast<uint32_t>(t);
  // Merge: the selected part of c is replaced.
  const uint32_t shift = partShift(f.dPart);
  const uint32_t mask = (bits == 16 ? 0xffffu : 0xffu) << shift;
  return (c & ~mask) | ((static_cast<uint32_t>(t) << shift) & mask);
}

uint32_t simdVideo(VideoOp op, const VideoForm& f, uint32_t a, uint32_t b, uint32_t c) {
  const uint32_t bits = 32 / f.lanes;
  const uint32_t elementMask = bits == 8 ? 0xffu : 0xffffu;
  int64_t sum = 0;
  uint32_t packed = 0;
  for (uint32_t i = 0; i < f.lanes; ++i) {
    auto element = [&](uint32_t word, bool isSigned) -> int64_t {
      const uint32_t raw = (word >> (i * bits)) & elementMask;
      if (!isSigned)
        return raw;
      return bits == 8 ? int64_t{static_cast<int8_t>(raw)} : int64_t{static_cast<int16_t>(raw)};
    };
    int64_t t = elementOp(op, element(a, f.aSigned), element(b, f.bSigned));
    if (f.saturate)
      t = clampTo(t, bits, f.destinationSigned);
    sum += t;
    packed |= (static_cast<uint32_t>(t) & elementMask) << (i * bits);
  }
  return f.secondary == Secondary::Add ? c + static_cast<uint32_t>(sum) : packed;
}

template <bool Simd>
bool executeVideo(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint64_t* a = c.row(in.op[1]);
  const uint64_t* b = c.row(in.op[2]);
  const uint64_t* cc = c.row(in.op[3]);
  const auto op = static_cast<VideoOp>(in.aux);
  const VideoForm form = VideoForm::unpack(in.aux2);
  writeLanes(m, c.row(in.op[0]), [&](uint32_t l) -> uint64_t {
    const auto x = static_cast<uint32_t>(a[l]), y = static_cast<uint32_t>(b[l]),
               z = static_cast<uint32_t>(cc[l]);
    return Simd ? simdVideo(op, form, x, y, z) : scalarVideo(op, form, x, y, z);
  });
  return true;
}

std::optional<Part> partOf(const ir::Operand& operand) {
  const auto* reg = operand.getIf<ir::RegisterOperand>();
  if (reg == nullptr)
    return Part::Word;
  switch (reg->component) {
  case ir::VectorComponent::None:
    return Part::Word;
  case ir::VectorComponent::B0:
    return Part::B0;
  case ir::VectorComponent::B1:
    return Part::B1;
  case ir::VectorComponent::B2:
    return Part::B2;
  case ir::VectorComponent::B3:
    return Part::B3;
  case ir::VectorComponent::H0:
    return Part::H0;
  case ir::VectorComponent::H1:
    return Part::H1;
  default:
    return std::nullopt;
  }
}

struct VideoOpcode {
  ir::Opcode opcode;
  VideoOp op;
  uint32_t lanes;
};

constexpr VideoOpcode kVideoOpcodes[] = {
    {ir::Opcode::Vadd, VideoOp::Add, 1},          {ir::Opcode::Vsub, VideoOp::Sub, 1},
    {ir::Opcode::Vabsdiff, VideoOp::AbsDiff, 1},  {ir::Opcode::Vmin, VideoOp::Min, 1},
    {ir::Opcode::Vmax, VideoOp::Max, 1},          {ir::Opcode::Vshl, VideoOp::Shl, 1},
    {ir::Opcode::Vshr, VideoOp::Shr, 1},          {ir::Opcode::Vmad, VideoOp::Mad, 1},
    {ir::Opcode::Vset, VideoOp::SetEq, 1},        {ir::Opcode::Vadd2, VideoOp::Add, 2},
    {ir::Opcode::Vsub2, VideoOp::Sub, 2},         {ir::Opcode::Vavrg2, VideoOp::Average, 2},
    {ir::Opcode::Vabsdiff2, VideoOp::AbsDiff, 2}, {ir::Opcode::Vmin2, VideoOp::Min, 2},
    {ir::Opcode::Vmax2, VideoOp::Max, 2},         {ir::Opcode::Vset2, VideoOp::SetEq, 2},
    {ir::Opcode::Vadd4, VideoOp::Add, 4},         {ir::Opcode::Vsub4, VideoOp::Sub, 4},
    {ir::Opcode::Vavrg4, VideoOp::Average, 4},    {ir::Opcode::Vabsdiff4, VideoOp::AbsDiff, 4},
    {ir::Opcode::Vmin4, VideoOp::Min, 4},         {ir::Opcode::Vmax4, VideoOp::Max, 4},
    {ir::Opcode::Vset4, VideoOp::SetEq, 4},
};

} // namespace

bool decodeVideo(DecodeContext& c) {
  const ir::Opcode opcode = c.opcode();
  const VideoOpcode* entry = nullptr;
  for (const VideoOpcode& candidate : kVideoOpcodes)
    if (candidate.opcode == opcode)
      entry = &candidate;
  if (entry == nullptr)
    return c.unsupported();
  VideoOp op = entry->op;
  VideoForm form;
  form.lanes = entry->lanes;
  // Types in order: dtype.atype.btype (vset: atype.btype, whose results are unsigned).
  std::vector<ir::ScalarType> types;
  for (std::string_view modifier : c.form.modifiers())
    if (auto type = ir::scalarTypeFromName(modifier))
      types.push_back(*type);
  const bool isSet = op == VideoOp::SetEq;
  if (types.size() != (isSet ? 2u : 3u))
    return c.fail("video instructions need " + std::string(isSet ? "two" : "three") + " types");
  for (ir::ScalarType type : types)
    if (type != ir::ScalarType::S32 && type != ir::ScalarType::U32)
      return c.unsupported("video operand type");
  const size_t first = isSet ? 0 : 1;
  form.destinationSigned = !isSet && types[0] == ir::ScalarType::S32;
  form.aSigned = types[first] == ir::ScalarType::S32;
  form.bSigned = types[first + 1] == ir::ScalarType::S32;
  form.saturate = c.has("sat");
  form.wrapShift = c.has("wrap");
  form.productOne = c.has("po");
  form.scale = c.has("shr7") ? 7 : c.has("shr15") ? 15 : 0;
  if (isSet) {
    static constexpr std::pair<std::string_view, VideoOp> kComparisons[] = {
        {"eq", VideoOp::SetEq}, {"ne", VideoOp::SetNe}, {"lt", VideoOp::SetLt},
        {"le", VideoOp::SetLe}, {"gt", VideoOp::SetGt}, {"ge", VideoOp::SetGe}};
    bool found = false;
    for (const auto& [name, comparison] : kComparisons)
      if (c.has(name)) {
        op = comparison;
        found = true;
      }
    if (!found)
      return c.fail("vset needs a comparison");
  }
  if (c.has("add"))
    form.secondary = Secondary::Add;
  else if (c.has("min"))
    form.secondary = Secondary::Min;
  else if (c.has("max"))
    form.secondary = Secondary::Max;
  if (form.lanes > 1 && (form.secondary == Secondary::Min || form.secondary == Secondary::Max))
    return c.fail("SIMD video instructions have only the .add secondary operation");
  if (c.operandCount() != 3 && c.operandCount() != 4)
    return c.fail("video instructions take d, a, b and an optional c");
  const auto dPart = partOf(c.operand(0)), aPart = partOf(c.operand(1)),
             bPart = partOf(c.operand(2));
  if (!dPart || !aPart || !bPart)
    return c.unsupported("video selector");
  if (form.lanes > 1 && (*dPart != Part::Word || *aPart != Part::Word || *bPart != Part::Word))
    return c.unsupported("SIMD video selectors and masks");
  form.dPart = *dPart;
  form.aPart = *aPart;
  form.bPart = *bPart;
  if (c.operandCount() == 3 &&
      (form.secondary != Secondary::None || form.dPart != Part::Word || form.lanes > 1))
    return c.fail("this video instruction form needs a c operand");
  c.out.op[0] = c.destination(0);
  c.out.op[1] = c.source(1, types[first]);
  c.out.op[2] = c.source(2, types[first + 1]);
  c.out.op[3] =
      c.operandCount() == 4 ? c.source(3, ir::ScalarType::B32) : c.operands.builder().zeroRow();
  c.out.aux = static_cast<uint32_t>(op);
  c.out.aux2 = form.pack();
  c.out.execute = form.lanes > 1 ? &executeVideo<true> : &executeVideo<false>;
  return c.ok();
}

} // namespace ocelot::runtime::cpu
