#pragma once

// What the LLVM executor compiles: a kernel's decoded program (DecodedKernel) restated as plain
// data that says, per instruction, how native code performs it. The plan is made inside
// libcudart (NativePlanner.cpp, which knows the IR and the interpreter) and handed to the LLVM
// component (libocelot_cpu_llvm.so), which turns it into machine code. Generated code is a
// function of the plan alone, so the plan's bytes (serialize()) are the key of the code cache:
// values that change from run to run (addresses of variables, windows) are never in a plan, only
// where to read them at run time.

#include <cstdint>
#include <string>
#include <vector>

namespace ocelot::runtime::cpu::native {

/// Bumped whenever generated code or the plan changes meaning (invalidates cached code).
inline constexpr uint32_t kPlanVersion = 9;

inline constexpr uint32_t kNoRow = UINT32_MAX;

/// How native code performs an instruction.
enum class Op : uint8_t {
  Interpret, ///< return to the interpreter, which runs it (control transfers, calls, barriers...)
  Handler,   ///< call the interpreter's handler (code[pc].execute) on the warp's rows
  Nop,
  Fence,      ///< membar / fence: a full fence (other workers run other CTAs)
  Branch,     ///< bra: uniform or divergent, with the interpreter's reconvergence
  Copy,       ///< d = a (bits)
  IntAdd,     ///< d = a + b
  IntSub,     ///< d = a - b
  IntMulLo,   ///< d = a * b (low half); s2: addend for mad
  IntMulHi,   ///< d = high half of a * b; s2: addend
  IntMulWide, ///< d = a * b at twice the width; s2: addend (wide)
  IntMin,
  IntMax,
  IntAbs,
  IntNeg,
  IntDiv,
  IntRem,
  And,
  Or,
  Xor,
  Not,
  Shl,
  Shr,
  Popc,
  Clz,
  Brev,       ///< d = a's bits reversed
  Bfind,      ///< d (u32) = the top bit that is set or differs from the sign; kBfindShiftAmount
  ActiveMask, ///< d (b32) = the lanes executing the instruction
  PredAnd,    ///< predicates: d = a & b
  PredOr,
  PredXor,
  PredNot,  ///< d = !a
  PredCopy, ///< d = a
  Setp,     ///< p (d0), q (d1) = a cmp b, combined with predicate s2 by flags
  Selp,     ///< d = p(s2) ? a : b
  FloatAdd,
  FloatSub,
  FloatMul,
  FloatFma, ///< d = a * b + c, one rounding
  FloatDiv,
  FloatSqrt,
  FloatRcp,
  FloatAbs,
  FloatNeg,
  FloatMin,
  FloatMax,
  Convert,      ///< cvt between integer and f32/f64 types (see ConvertFlags)
  Cvta,         ///< d = a + imm (or a - imm with kCvtaToSpace), truncated with kNarrow
  FrameAddress, ///< d = frame base + imm
  Load,         ///< d0..d(n-1) = [s0 + imm]
  Store,        ///< [s0 + imm] = s1..s(n)
  Shuffle,      ///< shfl.sync: d0, d1 from s0; b and c constant (imm: b | c << 32) or rows s1, s2
  Vote,         ///< vote(.sync): d0 = (all|any|uni|ballot) of pred s0 over each lane's group
  Match,        ///< match.{any,all}.sync: d0 (and predicate d1) of s0 over each lane's group
  Redux,        ///< redux.sync: d0 = s0 combined over each lane's group (AtomicKind in flags)
  Barrier,      ///< bar.sync / barrier.sync of barrier `imm` by every live lane, no count
  Exit,         ///< exit (and the kernel's ret): the lanes leave
  Pack,         ///< mov d0, {s0..s(n-1)}: `vector` elements of type.bits each
  Unpack,       ///< mov {d0..d(n-1)}, s0
  Atomic,       ///< atom/red: d0 = old [s0 + imm], [s0 + imm] = old op s1 (see AtomicKind)
};

/// Atomic: the read-modify-write, in bits 16..19 of flags.
enum AtomicKind : uint32_t {
  kAtomicAdd,
  kAtomicAnd,
  kAtomicOr,
  kAtomicXor,
  kAtomicExchange,
  kAtomicMin,
  kAtomicMax
};
inline uint32_t atomicFlags(uint32_t kind) {
  return kind << 16;
}
inline uint32_t atomicKind(uint32_t flags) {
  return (flags >> 16) & 15;
}

/// Shuffle: mode in bits 8..9, with kLaneRows b and c in rows s1 and s2. Vote: mode in bits 8..9,
/// negated source with kNegate. Vote, Match and Redux: with kMemberMaskRow a member mask in row
/// s1 (each lane combines the executing lanes its mask names, itself included); Match: kMatchAll.
enum ShuffleMode : uint32_t { kShuffleUp, kShuffleDown, kShuffleButterfly, kShuffleIndex };
enum VoteMode : uint32_t { kVoteAll, kVoteAny, kVoteUniform, kVoteBallot };
inline constexpr uint32_t kNegate = 1u << 7;
inline constexpr uint32_t kMemberMaskRow = 1u << 10;
inline constexpr uint32_t kLaneRows = 1u << 11;
inline constexpr uint32_t kMatchAll = 1u << 13;
inline uint32_t modeFlags(uint32_t mode) {
  return mode << 8;
}
inline uint32_t mode(uint32_t flags) {
  return (flags >> 8) & 3;
}

/// Scalar type of an operation: bit width and interpretation.
enum class Kind : uint8_t { Bits, Unsigned, Signed, Float };

struct ValueType {
  uint8_t bits = 0; ///< 8, 16, 32, 64
  Kind kind = Kind::Bits;
};

/// Flags of Op (meaning depends on the op).
enum Flags : uint32_t {
  kFtz = 1u << 0,
  kSat = 1u << 1,
  kVolatile = 1u << 2,         ///< Load/Store: not to be merged with other accesses
  kCvtaToSpace = 1u << 3,      ///< Cvta: generic -> space
  kNarrow = 1u << 4,           ///< Cvta: 32-bit result
  kIntRounding = 1u << 5,      ///< Convert: round a float to an integral value (.rni ...)
  kFrameRelative = 1u << 6,    ///< Load/Store: the address adds the frame base
  kBfindShiftAmount = 1u << 8, ///< Bfind: .shiftamt (the left shift that brings the bit to the top)
  kAligned = 1u << 12          ///< Barrier: .aligned (every live lane must arrive together)
};

/// Setp: comparison in bits 8..15, boolean combination in bits 16..17.
enum Compare : uint32_t {
  kEq,
  kNe,
  kLt,
  kLe,
  kGt,
  kGe,
  kEqu,
  kNeu,
  kLtu,
  kLeu,
  kGtu,
  kGeu,
  kNum,
  kNan
};
enum Combine : uint32_t { kCombineNone, kCombineAnd, kCombineOr, kCombineXor };
inline uint32_t setpFlags(uint32_t compare, uint32_t combine, bool ftz) {
  return (compare << 8) | (combine << 16) | (ftz ? kFtz : 0u);
}
inline uint32_t setpCompare(uint32_t flags) {
  return (flags >> 8) & 0xff;
}
inline uint32_t setpCombine(uint32_t flags) {
  return (flags >> 16) & 3;
}

/// Convert and float ops: rounding in bits 8..10.
enum Rounding : uint32_t { kNearestEven, kTowardZero, kDown, kUp };
inline uint32_t roundingFlags(uint32_t rounding) {
  return rounding << 8;
}
inline uint32_t rounding(uint32_t flags) {
  return (flags >> 8) & 7;
}

/// Load/Store: state space.
enum class Space : uint8_t { Global, Shared, Local, Generic };

/// Same values as runtime/cpu Control (DecodedKernel.h); kept separate so that the component
/// does not depend on the interpreter's headers.
enum class ControlKind : uint8_t {
  None,
  FallThrough,
  Branch,
  IndexedBranch,
  Call,
  Return,
  Exit,
  Trap,
  Barrier,
  Sleep
};

struct Instruction {
  Op op = Op::Interpret;
  ControlKind control = ControlKind::None;
  ValueType type;  ///< the operation's type (source type of Convert)
  ValueType type2; ///< Convert: destination type; Load/Store: register type
  Space space = Space::Global;
  uint8_t vector = 1;  ///< Load/Store: elements
  bool leader = false; ///< a native block starts here (and native code may be entered here)
  bool guardNegated = false;
  bool immRuntime = false; ///< imm is read from code[pc].imm at run time (an address)
  uint32_t flags = 0;
  uint32_t guard = kNoRow; ///< predicate
  uint32_t target = kNoRow;
  uint32_t reconverge = kNoRow;
  uint32_t d[8] = {kNoRow, kNoRow, kNoRow, kNoRow, kNoRow, kNoRow, kNoRow, kNoRow};
  uint32_t s[8] = {kNoRow, kNoRow, kNoRow, kNoRow, kNoRow, kNoRow, kNoRow, kNoRow};
  /// Handler: the decoded instruction's operands (rows or predicates; which is which only the
  /// handler knows), kept in memory around the call.
  uint32_t operands[10] = {kNoRow, kNoRow, kNoRow, kNoRow, kNoRow,
                           kNoRow, kNoRow, kNoRow, kNoRow, kNoRow};
  int64_t imm = 0;
  /// Interpret and Handler: rows and predicates the interpreter reads there (they must be in
  /// memory) and, for handlers whose operands the decoder recorded (`knownDefs`), those it writes;
  /// where the interpreter may continue (besides pc + 1 for calls, barriers and sleeps).
  std::vector<uint32_t> rowUses, predicateUses, rowDefs, predicateDefs, targets;
  bool knownDefs = false;
  bool usesEverything = false; ///< Interpret: reads rows the plan cannot list
};

/// What a register-file row holds.
enum class RowKind : uint8_t {
  Register, ///< a register (or decoder scratch): written by the program
  Constant, ///< `value`, the same in every lane and every run
  Uniform,  ///< the same in every lane, set when the warp starts (an address: read lane 0)
  Lanes,    ///< set per lane when the warp starts (special registers): read as a vector
};

struct Row {
  RowKind kind = RowKind::Register;
  uint8_t bytes = 8; ///< registers: the declared width (values are kept at this width)
  uint64_t value = 0;
};

/// Facts about the interpreter's data structures that generated code depends on.
struct Layout {
  uint32_t instructionSize = 0; ///< sizeof(DecodedInstruction)
  uint32_t executeOffset = 0;   ///< offsetof(DecodedInstruction, execute)
  uint32_t immOffset = 0;       ///< offsetof(DecodedInstruction, imm)
  uint32_t stateSize = 0;       ///< sizeof(NativeWarpState)
  uint32_t stackCapacity = 0;   ///< kNativeStackCapacity
  uint64_t windowSize = 0;      ///< DeviceMemory::kWindowSize
};

struct Plan {
  std::string name; ///< the kernel's (for the symbol and messages)
  Layout layout;
  std::vector<Instruction> code; ///< one per pc of the DecodedKernel
  std::vector<Row> rows;
  uint32_t predicateCount = 0;
  uint32_t truePredicate = 1, falsePredicate = 0;
};

/// Whether generated code has `imm` compiled in (native address arithmetic).
inline bool usesImmediate(const Instruction& in) {
  return !in.immRuntime &&
         (in.op == Op::Load || in.op == Op::Store || in.op == Op::Atomic || in.op == Op::Cvta ||
          in.op == Op::FrameAddress || in.op == Op::Shuffle || in.op == Op::Barrier);
}

/// The plan as bytes: equal bytes make equal code (the cache key hashes them).
std::string serialize(const Plan& plan);

} // namespace ocelot::runtime::cpu::native
