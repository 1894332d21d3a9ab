#include "runtime/cpu/llvm/InstructionPlanner.h"

#include "ir/InstructionForm.h"
#include "runtime/cpu/HalfPrecision.h"
#include "runtime/cpu/OperandDecoder.h"
#include "runtime/cpu/llvm/ConstantRegisters.h"

#include <optional>
#include <string_view>
#include <utility>

namespace ocelot::runtime::cpu::native {
namespace {

using ir::ScalarType;
using O = ir::Opcode;

std::optional<ValueType> valueType(ScalarType type) {
  switch (type) {
  case ScalarType::B8:
    return ValueType{8, Kind::Bits};
  case ScalarType::B16:
    return ValueType{16, Kind::Bits};
  case ScalarType::B32:
    return ValueType{32, Kind::Bits};
  case ScalarType::B64:
    return ValueType{64, Kind::Bits};
  case ScalarType::U8:
    return ValueType{8, Kind::Unsigned};
  case ScalarType::U16:
    return ValueType{16, Kind::Unsigned};
  case ScalarType::U32:
    return ValueType{32, Kind::Unsigned};
  case ScalarType::U64:
    return ValueType{64, Kind::Unsigned};
  case ScalarType::S8:
    return ValueType{8, Kind::Signed};
  case ScalarType::S16:
    return ValueType{16, Kind::Signed};
  case ScalarType::S32:
    return ValueType{32, Kind::Signed};
  case ScalarType::S64:
    return ValueType{64, Kind::Signed};
  case ScalarType::F32:
    return ValueType{32, Kind::Float};
  case ScalarType::F64:
    return ValueType{64, Kind::Float};
  default:
    return std::nullopt;
  }
}

/// The plan's space for a decoded instruction's (ld, st, atom, red).
Space spaceOf(MemorySpace space) {
  switch (space) {
  case MemorySpace::Global:
    return Space::Global;
  case MemorySpace::Shared:
    return Space::Shared;
  case MemorySpace::Local:
    return Space::Local;
  default:
    return Space::Generic;
  }
}

std::optional<uint32_t> compareNamed(std::string_view name) {
  static constexpr std::pair<std::string_view, Compare> kNames[] = {
      {"eq", kEq},   {"ne", kNe},   {"lt", kLt},   {"le", kLe},   {"gt", kGt},   {"ge", kGe},
      {"lo", kLt},   {"ls", kLe},   {"hi", kGt},   {"hs", kGe},   {"equ", kEqu}, {"neu", kNeu},
      {"ltu", kLtu}, {"leu", kLeu}, {"gtu", kGtu}, {"geu", kGeu}, {"num", kNum}, {"nan", kNan}};
  for (const auto& [spelling, compare] : kNames)
    if (spelling == name)
      return compare;
  return std::nullopt;
}

/// Plans one instruction the interpreter runs through a handler (control None).
class InstructionPlanner {
public:
  InstructionPlanner(const DecodedKernel& kernel, const RunTimeRanges& ranges, const Plan& plan,
                     const DecodedInstruction& in, const ir::Instruction& instruction,
                     const ConstantRegisters* constants, Instruction& out)
      : kernel_(kernel), ranges_(ranges), plan_(plan), in_(in), instruction_(instruction),
        form_(instruction.form()), constants_(constants), out_(out) {}

  /// True when `out` now describes a native operation.
  bool plan() {
    if (!choose())
      return false;
    return readsFit_;
  }

private:
  bool has(std::string_view modifier) const { return form_.hasModifier(modifier); }
  uint32_t op(size_t index) const { return in_.op[index]; }

  /// A source row read at `bits`: registers must be at least that wide (a narrower register's
  /// upper bits are whatever its writer extended, which native code does not keep).
  uint32_t source(size_t index, uint32_t bits) {
    const uint32_t row = op(index);
    if (row == kNone || row >= plan_.rows.size()) {
      readsFit_ = false;
      return kNoRow;
    }
    const Row& info = plan_.rows[row];
    if (info.kind == RowKind::Register && info.bytes * 8u < bits)
      readsFit_ = false;
    return row;
  }
  uint32_t destination(size_t index) {
    const uint32_t row = op(index);
    if (row == kNone || row >= plan_.rows.size() || plan_.rows[row].kind != RowKind::Register)
      readsFit_ = false;
    return row;
  }
  uint32_t predicate(size_t index) {
    const uint32_t p = op(index);
    if (p == kNone || p >= plan_.predicateCount)
      readsFit_ = false;
    return p;
  }
  uint32_t rounding() const {
    for (std::string_view modifier : form_.modifiers()) {
      if (modifier == "rn" || modifier == "rni")
        return kNearestEven;
      if (modifier == "rz" || modifier == "rzi")
        return kTowardZero;
      if (modifier == "rm" || modifier == "rmi")
        return kDown;
      if (modifier == "rp" || modifier == "rpi")
        return kUp;
      if (modifier == "rna")
        return 7; // not planned natively
    }
    return kNearestEven;
  }
  /// The combination an atom, red or redux names (AtomicKind), if it is one native code has.
  std::optional<uint32_t> combination() const {
    static constexpr std::pair<std::string_view, uint32_t> kNames[] = {
        {"add", kAtomicAdd},       {"and", kAtomicAnd}, {"or", kAtomicOr}, {"xor", kAtomicXor},
        {"exch", kAtomicExchange}, {"min", kAtomicMin}, {"max", kAtomicMax}};
    for (const auto& [name, kind] : kNames)
      if (has(name))
        return kind;
    return std::nullopt;
  }
  bool hasRounding() const {
    return has("rn") || has("rz") || has("rm") || has("rp") || has("rna") || has("rni") ||
           has("rzi") || has("rmi") || has("rpi");
  }

  bool choose();
  bool integerArithmetic(ir::Opcode opcode, ValueType type);
  bool floatArithmetic(ir::Opcode opcode, ValueType type);
  bool logic(ir::Opcode opcode, ScalarType scalar);
  bool comparison(ir::Opcode opcode, ScalarType scalar);
  bool move(ir::Opcode opcode, ScalarType scalar);
  bool conversion();
  bool memory(ir::Opcode opcode);
  bool atomic(ir::Opcode opcode);
  bool warp(ir::Opcode opcode);
  bool shuffle();
  bool groupOperation(ir::Opcode opcode);
  /// Whether the instruction's last operand is a member mask naming the whole warp (or there is
  /// none: the old non-.sync forms).
  bool fullMemberMask(size_t operandsWithoutMask) const;

  const DecodedKernel& kernel_;
  const RunTimeRanges& ranges_;
  const Plan& plan_;
  const DecodedInstruction& in_;
  const ir::Instruction& instruction_;
  const ir::InstructionForm& form_;
  const ConstantRegisters* constants_;
  Instruction& out_;
  bool readsFit_ = true;
};

bool InstructionPlanner::choose() {
  const O opcode = form_.opcode();
  switch (opcode) {
  case O::Membar:
  case O::Fence:
    out_.op = Op::Fence;
    return true;
  case O::Ld:
  case O::Ldu:
  case O::St:
    return memory(opcode);
  case O::Atom:
  case O::Red:
    return atomic(opcode);
  case O::Cvt:
    return conversion();
  case O::Shfl:
  case O::Vote:
  case O::Match:
  case O::Redux:
    return warp(opcode);
  default:
    break;
  }
  const auto scalar = form_.lastType();
  if (!scalar)
    return false;
  switch (opcode) {
  case O::And:
  case O::Or:
  case O::Xor:
  case O::Not:
  case O::Shl:
  case O::Shr:
    return logic(opcode, *scalar);
  case O::Setp:
  case O::Selp:
    return comparison(opcode, *scalar);
  case O::Mov:
  case O::Cvta:
    return move(opcode, *scalar);
  default:
    break;
  }
  const auto type = valueType(*scalar);
  if (!type)
    return false;
  if (type->kind == Kind::Float)
    return floatArithmetic(opcode, *type);
  if (type->bits < 16)
    return false;
  return integerArithmetic(opcode, *type);
}

bool InstructionPlanner::integerArithmetic(ir::Opcode opcode, ValueType type) {
  if (has("cc") || has("sat"))
    return false;
  out_.type = type;
  auto binary = [&](Op op) {
    out_.op = op;
    out_.d[0] = destination(0);
    out_.s[0] = source(1, type.bits);
    out_.s[1] = source(2, type.bits);
    return in_.op[3] == kNone;
  };
  auto unary = [&](Op op) {
    out_.op = op;
    out_.d[0] = destination(0);
    out_.s[0] = source(1, type.bits);
    return in_.op[2] == kNone;
  };
  if (opcode == O::Add)
    return binary(Op::IntAdd);
  if (opcode == O::Sub)
    return binary(Op::IntSub);
  if (opcode == O::Mul || opcode == O::Mad) {
    const bool mad = opcode == O::Mad;
    const bool wide = has("wide"), high = has("hi");
    if (wide && type.bits == 64)
      return false;
    out_.op = wide ? Op::IntMulWide : high ? Op::IntMulHi : Op::IntMulLo;
    out_.d[0] = destination(0);
    out_.s[0] = source(1, type.bits);
    out_.s[1] = source(2, type.bits);
    if (mad)
      out_.s[2] = source(3, wide ? type.bits * 2 : type.bits);
    return mad ? in_.op[3] != kNone : in_.op[3] == kNone;
  }
  if (opcode == O::Min || opcode == O::Max) {
    if (has("relu"))
      return false;
    return binary(opcode == O::Min ? Op::IntMin : Op::IntMax);
  }
  if (opcode == O::Div)
    return binary(Op::IntDiv);
  if (opcode == O::Rem)
    return binary(Op::IntRem);
  if (opcode == O::Abs)
    return type.kind == Kind::Signed && unary(Op::IntAbs);
  if (opcode == O::Neg)
    return unary(Op::IntNeg);
  if (opcode == O::Brev) {
    if (type.bits != 32 && type.bits != 64)
      return false;
    out_.type = ValueType{type.bits, Kind::Bits};
    return unary(Op::Brev);
  }
  if (opcode == O::Bfind) {
    if (type.bits != 32 && type.bits != 64)
      return false;
    // The source's kind says whether the sign is looked past; the result is a u32.
    out_.type = ValueType{type.bits, type.kind == Kind::Signed ? Kind::Signed : Kind::Unsigned};
    out_.flags = has("shiftamt") ? kBfindShiftAmount : 0u;
    return unary(Op::Bfind);
  }
  if (opcode == O::Activemask) {
    // The lanes executing it: the mask native code runs the instruction under.
    out_.type = ValueType{32, Kind::Bits};
    out_.op = Op::ActiveMask;
    out_.d[0] = destination(0);
    return in_.op[1] == kNone;
  }
  if (opcode == O::Popc || opcode == O::Clz) {
    if (type.bits != 32 && type.bits != 64)
      return false;
    // The interpreter counts in 32 or 64 bits by the type's width, whatever its kind.
    out_.type = ValueType{type.bits, Kind::Bits};
    out_.op = opcode == O::Popc ? Op::Popc : Op::Clz;
    out_.d[0] = destination(0);
    out_.s[0] = source(1, type.bits);
    return true;
  }
  return false;
}

bool InstructionPlanner::floatArithmetic(ir::Opcode opcode, ValueType type) {
  const bool ftz = has("ftz"), sat = has("sat");
  out_.type = type;
  out_.flags = (ftz ? kFtz : 0u) | (sat ? kSat : 0u);
  // Only round-to-nearest operations, and only those whose result is exact IEEE arithmetic: the
  // approximate forms (div.approx/full, rsqrt, sin, ex2...) stay with their handlers, so that the
  // interpreter's definition of them is the only one.
  const bool nearest = static_cast<RoundingMode>(in_.imm) == RoundingMode::NearestEven;
  auto binary = [&](Op op) {
    out_.op = op;
    out_.d[0] = destination(0);
    out_.s[0] = source(1, type.bits);
    out_.s[1] = source(2, type.bits);
    return nearest && in_.op[3] == kNone;
  };
  auto unary = [&](Op op) {
    out_.op = op;
    out_.d[0] = destination(0);
    out_.s[0] = source(1, type.bits);
    return in_.op[2] == kNone;
  };
  if (opcode == O::Add)
    return binary(Op::FloatAdd);
  if (opcode == O::Sub)
    return binary(Op::FloatSub);
  if (opcode == O::Mul)
    return binary(Op::FloatMul);
  if (opcode == O::Div)
    return has("rn") && binary(Op::FloatDiv);
  if (opcode == O::Min || opcode == O::Max) {
    if (in_.aux2 != 0 || sat)
      return false;
    return binary(opcode == O::Min ? Op::FloatMin : Op::FloatMax);
  }
  if (opcode == O::Fma || opcode == O::Mad) {
    if (!has("rn"))
      return false;
    out_.op = Op::FloatFma;
    out_.d[0] = destination(0);
    out_.s[0] = source(1, type.bits);
    out_.s[1] = source(2, type.bits);
    out_.s[2] = source(3, type.bits);
    return nearest;
  }
  if (opcode == O::Sqrt)
    return has("rn") && nearest && unary(Op::FloatSqrt);
  if (opcode == O::Rcp)
    return has("rn") && nearest && unary(Op::FloatRcp);
  if (opcode == O::Abs)
    return !sat && unary(Op::FloatAbs);
  if (opcode == O::Neg)
    return !sat && unary(Op::FloatNeg);
  return false;
}

bool InstructionPlanner::logic(ir::Opcode opcode, ScalarType scalar) {
  if (scalar == ScalarType::Pred) {
    out_.d[0] = predicate(0);
    out_.s[0] = predicate(1);
    if (opcode == O::Not) {
      out_.op = Op::PredNot;
      return true;
    }
    if (opcode == O::Shl || opcode == O::Shr)
      return false;
    out_.s[1] = predicate(2);
    out_.op = opcode == O::And ? Op::PredAnd : opcode == O::Or ? Op::PredOr : Op::PredXor;
    return true;
  }
  const auto type = valueType(scalar);
  if (!type || type->kind == Kind::Float)
    return false;
  out_.type = *type;
  out_.d[0] = destination(0);
  out_.s[0] = source(1, type->bits);
  if (opcode == O::Not) {
    out_.op = Op::Not;
    return in_.op[2] == kNone;
  }
  if (opcode == O::Shl || opcode == O::Shr) {
    if (type->bits < 16)
      return false;
    out_.op = opcode == O::Shl ? Op::Shl : Op::Shr;
    out_.s[1] = source(2, 32);
    return true;
  }
  out_.op = opcode == O::And ? Op::And : opcode == O::Or ? Op::Or : Op::Xor;
  out_.s[1] = source(2, type->bits);
  return true;
}

bool InstructionPlanner::comparison(ir::Opcode opcode, ScalarType scalar) {
  const auto type = valueType(scalar);
  if (!type || type->bits < 16)
    return false;
  out_.type = *type;
  if (opcode == O::Selp) {
    out_.op = Op::Selp;
    out_.d[0] = destination(0);
    out_.s[0] = source(1, type->bits);
    out_.s[1] = source(2, type->bits);
    out_.s[2] = predicate(3);
    return true;
  }
  const auto& modifiers = form_.modifiers();
  if (modifiers.empty())
    return false;
  const auto compare = compareNamed(modifiers[0]);
  if (!compare)
    return false;
  const uint32_t combine = has("and")   ? kCombineAnd
                           : has("or")  ? kCombineOr
                           : has("xor") ? kCombineXor
                                        : kCombineNone;
  out_.op = Op::Setp;
  out_.flags = setpFlags(*compare, combine, has("ftz") && type->kind == Kind::Float);
  out_.d[0] = predicate(0);
  if (in_.op[1] != kNone)
    out_.d[1] = predicate(1);
  out_.s[0] = source(2, type->bits);
  out_.s[1] = source(3, type->bits);
  if (combine != kCombineNone)
    out_.s[2] = predicate(4);
  return true;
}

bool InstructionPlanner::move(ir::Opcode opcode, ScalarType scalar) {
  if (opcode == O::Mov) {
    if (scalar == ScalarType::Pred) {
      out_.op = Op::PredCopy;
      out_.d[0] = predicate(0);
      out_.s[0] = predicate(1);
      return true;
    }
    if (in_.op[2] != kNone) {
      // Vector packing (d = {a, b...}) and unpacking ({a, b...} = d): op[0] the whole value,
      // op[1...] the elements, aux of them, aux2 bits each.
      const uint32_t count = in_.aux, width = in_.aux2;
      if (count < 2 || count > 8 || (width != 8 && width != 16 && width != 32) ||
          count * width > 64)
        return false;
      const bool pack = instruction_.operands()[1].is<ir::VectorOperand>();
      out_.op = pack ? Op::Pack : Op::Unpack;
      out_.type = ValueType{static_cast<uint8_t>(width), Kind::Bits};
      out_.type2 = ValueType{static_cast<uint8_t>(count * width), Kind::Bits};
      out_.vector = static_cast<uint8_t>(count);
      if (pack) {
        out_.d[0] = destination(0);
        for (uint32_t i = 0; i < count; ++i)
          out_.s[i] = source(1 + i, width);
      } else {
        out_.s[0] = source(0, count * width);
        for (uint32_t i = 0; i < count; ++i)
          out_.d[i] = destination(1 + i);
      }
      return true;
    }
    const unsigned bits = ir::scalarTypeBits(scalar);
    if (bits != 16 && bits != 32 && bits != 64)
      return false;
    out_.op = Op::Copy;
    out_.type = ValueType{static_cast<uint8_t>(bits), Kind::Bits};
    out_.d[0] = destination(0);
    out_.s[0] = source(1, bits);
    return true;
  }
  // cvta{.to}.space.u32/u64 d, a: imm is the space's window.
  const auto type = valueType(scalar);
  if (!type || (type->bits != 32 && type->bits != 64))
    return false;
  out_.op = Op::Cvta;
  out_.type = *type;
  out_.flags = (in_.aux != 0 ? kCvtaToSpace : 0u) | (in_.aux2 != 0 ? kNarrow : 0u);
  out_.d[0] = destination(0);
  out_.s[0] = source(1, type->bits);
  out_.immRuntime = ranges_.contains(static_cast<uint64_t>(in_.imm));
  return true;
}

bool InstructionPlanner::conversion() {
  const auto destinationScalar = form_.firstType();
  const auto sourceScalar = form_.lastType();
  if (!destinationScalar || !sourceScalar)
    return false;
  const auto destination = valueType(*destinationScalar);
  const auto source = valueType(*sourceScalar);
  if (!destination || !source || in_.op[2] != kNone)
    return false;
  if (has("relu") || has("satfinite"))
    return false;
  const bool sat = has("sat"), ftz = has("ftz");
  const uint32_t mode = rounding();
  if (mode > kUp)
    return false;
  const bool integerRounding = has("rni") || has("rzi") || has("rmi") || has("rpi");
  out_.op = Op::Convert;
  out_.type = *source;
  out_.type2 = *destination;
  out_.flags = (sat ? kSat : 0u) | (ftz ? kFtz : 0u) | (integerRounding ? kIntRounding : 0u) |
               roundingFlags(mode);
  out_.d[0] = this->destination(0);
  out_.s[0] = this->source(1, source->bits);
  const bool fromFloat = source->kind == Kind::Float, toFloat = destination->kind == Kind::Float;
  if (!fromFloat && !toFloat)
    return !sat; // saturating integer conversions keep their handler
  if (fromFloat && !toFloat)
    return true; // always rounds (the mode) and saturates
  if (!fromFloat && toFloat)
    return !sat && mode == kNearestEven;
  // Float to float: widening is exact; narrowing and integral rounding only to nearest even
  // (integral rounding honours every mode).
  if (integerRounding)
    return true;
  if (destination->bits < source->bits)
    return mode == kNearestEven;
  return !hasRounding() || mode == kNearestEven;
}

bool InstructionPlanner::memory(ir::Opcode opcode) {
  const auto scalar = form_.lastType();
  if (!scalar)
    return false;
  const auto type = valueType(*scalar);
  if (!type)
    return false;
  const uint32_t width = form_.vectorWidth();
  if (width != 1 && width != 2 && width != 4 && width != 8)
    return false;
  const bool store = opcode == O::St;
  out_.op = store ? Op::Store : Op::Load;
  out_.type = *type;
  out_.vector = static_cast<uint8_t>(width);
  out_.space = spaceOf(static_cast<MemorySpace>(in_.aux));
  if (has("volatile") || has("relaxed") || has("acquire") || has("release") || has("mmio"))
    out_.flags |= kVolatile;
  if (in_.frameRelative)
    out_.flags |= kFrameRelative;
  // The address register is read at its own width and zero-extended (32-bit registers hold
  // shared-memory offsets).
  out_.s[0] = op(8);
  if (out_.s[0] == kNone || out_.s[0] >= plan_.rows.size())
    return false;
  for (uint32_t i = 0; i < width; ++i) {
    if (store)
      out_.s[1 + i] = source(i, type->bits);
    else
      out_.d[i] = destination(i);
  }
  out_.immRuntime = ranges_.contains(static_cast<uint64_t>(in_.imm));
  return true;
}

bool InstructionPlanner::atomic(ir::Opcode opcode) {
  // Integer read-modify-writes of 32 and 64 bits that are one host atomic each (lanes in
  // ascending order, as the handler); cas, inc/dec, floating point and 16-bit forms keep the
  // handler. The address is decoded as for ld/st (in_.aux the space, op 8 the register).
  const auto scalar = form_.lastType();
  if (!scalar || form_.vectorWidth() > 1)
    return false;
  const auto type = valueType(*scalar);
  if (!type || type->kind == Kind::Float || (type->bits != 32 && type->bits != 64))
    return false;
  const auto kind = combination();
  // min and max need a signedness: .b32/.b64 ones are not PTX.
  if (!kind || ((*kind == kAtomicMin || *kind == kAtomicMax) && type->kind == Kind::Bits))
    return false;
  out_.op = Op::Atomic;
  out_.type = *type;
  out_.flags = atomicFlags(*kind);
  out_.space = spaceOf(static_cast<MemorySpace>(in_.aux));
  if (in_.frameRelative)
    out_.flags |= kFrameRelative;
  out_.s[0] = op(8);
  if (out_.s[0] == kNone || out_.s[0] >= plan_.rows.size())
    return false;
  out_.s[1] = source(1, type->bits);
  out_.d[0] = destination(0); // red: the decoder's sink row
  out_.immRuntime = ranges_.contains(static_cast<uint64_t>(in_.imm));
  return opcode == O::Atom || opcode == O::Red;
}

bool InstructionPlanner::fullMemberMask(size_t operandsWithoutMask) const {
  const auto& operands = instruction_.operands();
  if (operands.size() == operandsWithoutMask)
    return !has("sync");
  if (operands.size() != operandsWithoutMask + 1 || constants_ == nullptr)
    return false;
  const auto mask = constants_->value(operands.back());
  return mask && static_cast<uint32_t>(*mask) == 0xffffffffu;
}

bool InstructionPlanner::shuffle() {
  // shfl.sync.mode.b32 d{|p}, a, b, c, membermask. The interpreter reads the source lane whatever
  // the member mask names, so any mask is planned. A constant lane pattern (b, c) becomes a
  // constant permutation of the warp; otherwise b and c are read per lane (kLaneRows).
  if (!(has("up") || has("down") || has("bfly") || has("idx")) ||
      instruction_.operands().size() < 4)
    return false;
  const uint32_t mode = has("up")     ? kShuffleUp
                        : has("down") ? kShuffleDown
                        : has("bfly") ? kShuffleButterfly
                                      : kShuffleIndex;
  out_.op = Op::Shuffle;
  out_.flags = modeFlags(mode);
  out_.type = ValueType{32, Kind::Bits};
  out_.d[0] = destination(0);
  if (in_.op[4] != kNone)
    out_.d[1] = predicate(4);
  out_.s[0] = source(1, 32);
  const auto b = constants_ != nullptr ? constants_->value(instruction_.operands()[2])
                                       : std::optional<int64_t>();
  const auto c = constants_ != nullptr ? constants_->value(instruction_.operands()[3])
                                       : std::optional<int64_t>();
  if (b && c) {
    // The lane pattern: b in the immediate's low half, c in its high half.
    out_.imm = static_cast<int64_t>((static_cast<uint64_t>(static_cast<uint32_t>(*c)) << 32) |
                                    static_cast<uint32_t>(*b));
    return true;
  }
  out_.flags |= kLaneRows;
  out_.s[1] = source(2, 32);
  out_.s[2] = source(3, 32);
  return true;
}

bool InstructionPlanner::groupOperation(ir::Opcode opcode) {
  // match.{any,all}.sync.b32/b64 d{|p}, a, membermask; redux.sync.op.type d, a, membermask. Each
  // lane combines the lanes its member mask names among the executing ones (the interpreter's
  // memberGroups); a member mask of the whole warp needs no row.
  const auto scalar = form_.lastType();
  const auto type = scalar ? valueType(*scalar) : std::nullopt;
  if (!type || type->kind == Kind::Float || in_.op[1] == kNone)
    return false;
  const bool memberRow = !fullMemberMask(2);
  if (memberRow && in_.op[5] == kNone)
    return false;
  out_.flags = memberRow ? kMemberMaskRow : 0u;
  out_.d[0] = destination(0);
  if (memberRow)
    out_.s[1] = source(5, 32);
  if (opcode == O::Match) {
    if (type->bits != 32 && type->bits != 64)
      return false;
    out_.op = Op::Match;
    out_.type = ValueType{type->bits, Kind::Bits};
    out_.s[0] = source(1, type->bits);
    if (has("all")) {
      out_.flags |= kMatchAll;
      if (in_.op[2] != kNone)
        out_.d[1] = predicate(2);
    }
    return true;
  }
  const auto kind = combination();
  if (type->bits != 32 || !kind || *kind == kAtomicExchange)
    return false;
  out_.op = Op::Redux;
  // The interpreter's signed reduction is s32's; u32 and b32 are unsigned.
  out_.type = ValueType{32, type->kind == Kind::Signed ? Kind::Signed : Kind::Unsigned};
  out_.flags |= atomicFlags(*kind);
  out_.s[0] = source(1, 32);
  return true;
}

bool InstructionPlanner::warp(ir::Opcode opcode) {
  if (opcode == O::Shfl)
    return shuffle();
  if (opcode == O::Match || opcode == O::Redux)
    return groupOperation(opcode);
  // vote{.sync}.mode.pred d, {!}a{, membermask}; vote{.sync}.ballot.b32 d, {!}a{, membermask}
  // A member mask that is not the whole warp is read from its row: probe code passes
  // __activemask()'s value.
  const bool memberRow = !fullMemberMask(2);
  if (memberRow && in_.op[5] == kNone)
    return false;
  const uint32_t mode = has("ballot") ? kVoteBallot
                        : has("all")  ? kVoteAll
                        : has("any")  ? kVoteAny
                                      : kVoteUniform;
  out_.op = Op::Vote;
  out_.flags = modeFlags(mode) | (in_.aux != 0 ? kNegate : 0u) | (memberRow ? kMemberMaskRow : 0u);
  out_.type = ValueType{32, Kind::Bits};
  out_.d[0] = mode == kVoteBallot ? destination(0) : predicate(0);
  out_.s[0] = predicate(1);
  if (memberRow)
    out_.s[1] = source(5, 32);
  return true;
}

} // namespace

bool planNativeOperation(const DecodedKernel& kernel, const RunTimeRanges& ranges, const Plan& plan,
                         const DecodedInstruction& in, const ir::Instruction& instruction,
                         const ConstantRegisters* constants, Instruction& out) {
  InstructionPlanner planner(kernel, ranges, plan, in, instruction, constants, out);
  return planner.plan();
}

} // namespace ocelot::runtime::cpu::native
