#pragma once

#include "ir/Opcode.h"
#include "ir/Types.h"

#include <cstdint>
#include <span>
#include <string_view>

namespace ocelot::ir {

// What Ocelot knows about each PTX opcode: the rows of ir/Opcodes.def, the one description every
// layer reads (analyses, verifier, instrumentors, the CPU executor's decoder).

/// What analyses need to know about an instruction beyond its operands. One bit each.
enum InstructionFlag : uint32_t {
  kBranch = 1u << 0,         ///< bra, brx.idx: may continue at a label
  kCall = 1u << 1,           ///< call
  kReturn = 1u << 2,         ///< ret
  kExit = 1u << 3,           ///< exit: the thread ends
  kTrap = 1u << 4,           ///< trap: the kernel aborts
  kCtaBarrier = 1u << 5,     ///< bar.sync, barrier.sync: threads of a CTA wait for each other
  kClusterBarrier = 1u << 6, ///< barrier.cluster.*
  kWarpCollective = 1u << 7, ///< shfl.sync, vote, mma ...: the (masked) warp acts together
  kMemoryRead = 1u << 8,     ///< reads memory (of the state space in its modifiers)
  kMemoryWrite = 1u << 9,    ///< writes memory
  kAtomic = 1u << 10,        ///< atom, red: read-modify-write visible to other threads
  kFence = 1u << 11,         ///< membar, fence: orders memory accesses
  kSideEffects = 1u << 12,   ///< must stay where it is (nanosleep, pmevent, setmaxnreg ...)
  kAsynchronous = 1u << 13,  ///< completes after the instruction issues (cp.async, wgmma)
  kTexture = 1u << 14,       ///< texture or surface access through a handle
  kUnknown = 1u << 15,       ///< not in the table: every conservative assumption applies
  kTerminator = 1u << 16, ///< derived: control leaves the straight line (branch, ret, exit, trap)
};

/// Which operands an instruction writes. Registers in every other operand are read.
enum class DefinitionPattern : uint8_t {
  FirstOperand,          ///< `add d, a, b`: the first operand (all its registers) is written
  None,                  ///< `st`, `bar`, `bra`: nothing is written to registers
  FirstOperandReadWrite, ///< `wgmma.mma_async {d...}`: accumulators are read and written
  Call,                  ///< `call (ret), f, (args)`: writes return params, reads argument params
  Unknown,               ///< an opcode the table does not know: any register may be written
};

/// What an executor does with an instruction: the CPU back end has one decoder per family and
/// dispatches on it; inside a family it switches on the Opcode.
enum class SemanticFamily : uint8_t {
  None,            ///< no executor runs it (multimem, alloca, ...; unknown opcodes)
  Arithmetic,      ///< add, mul, min ...: integer, floating-point or half by the instruction's type
  FloatOrHalf,     ///< fma, sqrt, ex2 ...: floating-point, or half for 16-bit types
  Float,           ///< copysign, testp: floating-point only
  Integer,         ///< addc, popc, bfe ...: integer only
  Logic,           ///< and, not, lop3, shifts
  Comparison,      ///< setp, set, selp, slct
  Move,            ///< mov, prmt, cvta, isspacep
  Conversion,      ///< cvt
  Memory,          ///< ld, ldu, st and the fences
  Atomic,          ///< atom, red
  Warp,            ///< shfl, vote, match, redux, activemask, elect
  Texture,         ///< tex, txq, suld, sust, suq
  AsyncCopy,       ///< cp.async (non-bulk)
  Hint,            ///< prefetch, createpolicy, griddepcontrol ...: no effect on results
  Barrier,         ///< bar, barrier
  ThreadControl,   ///< bra, brx, call, ret, exit, trap, brkpt, nanosleep
  TensorCore,      ///< warp-synchronous matrix operations: mma, wmma, ldmatrix, stmatrix, movmatrix
  AsyncTensorCore, ///< warpgroup and tensor-memory matrix operations: wgmma, tcgen05
  MBarrier,        ///< mbarrier.*
  BulkCopy,        ///< cp.async.bulk{.tensor}: TMA
  Cluster,         ///< mapa, getctarank, barrier.cluster, st.async: thread-block clusters
  Video,           ///< vadd, vabsdiff4, vset2 ...: the scalar and SIMD video instructions
};

/// A short name for messages and tests ("Arithmetic").
std::string_view semanticFamilyName(SemanticFamily family);

/// What the verifier checks about an instruction's operands.
enum class OperandShape : uint8_t {
  Unchecked,   ///< nothing
  Counted,     ///< only the operand count
  Uniform,     ///< the count, and every register operand carries the instruction's type (`add`)
  Selection,   ///< as Uniform, but the last operand is a .pred selector (`selp d, a, b, p`)
  Comparison,  ///< .pred destination(s), two sources of the type, optional .pred (`setp`)
  Conversion,  ///< `cvt d, a`: each register at least as wide as its type
  Label,       ///< exactly one label (`bra`)
  BranchTable, ///< an index and a visible .branchtargets table (`brx.idx`)
  Call,        ///< `call [(results),] target [, (arguments)] [, prototype]`
};

struct OperandRule {
  static constexpr uint8_t kAnyCount = 255;

  OperandShape shape = OperandShape::Unchecked;
  uint8_t minOperands = 0;
  uint8_t maxOperands = kAnyCount;

  /// Whether the verifier checks the operand count (between minOperands and maxOperands).
  bool countChecked() const {
    return shape == OperandShape::Counted || shape == OperandShape::Uniform ||
           shape == OperandShape::Selection || shape == OperandShape::Comparison;
  }
};

/// The spellings of the Operands column of ir/Opcodes.def.
namespace operand_rules {
constexpr OperandRule unchecked() {
  return {};
}
constexpr OperandRule counted(uint8_t count) {
  return {OperandShape::Counted, count, count};
}
constexpr OperandRule uniform(uint8_t count) {
  return {OperandShape::Uniform, count, count};
}
constexpr OperandRule uniform() {
  return {OperandShape::Uniform, 0, OperandRule::kAnyCount};
}
constexpr OperandRule selection(uint8_t count) {
  return {OperandShape::Selection, count, count};
}
constexpr OperandRule comparison(uint8_t min, uint8_t max) {
  return {OperandShape::Comparison, min, max};
}
constexpr OperandRule conversion() {
  return {OperandShape::Conversion, 0, OperandRule::kAnyCount};
}
constexpr OperandRule label() {
  return {OperandShape::Label, 1, 1};
}
constexpr OperandRule branchTable() {
  return {OperandShape::BranchTable, 2, 2};
}
constexpr OperandRule callOperands() {
  return {OperandShape::Call, 1, OperandRule::kAnyCount};
}
} // namespace operand_rules

/// One row of the instruction table.
struct OpcodeTraits {
  Opcode opcode = Opcode::Unknown;
  std::string_view name; ///< the opcode's spelling ("bar"); "" for unknown opcodes
  /// Empty for the opcode's general entry; otherwise a modifier that selects this entry
  /// (`bar.warp.sync` -> "warp", `wmma.store` -> "store").
  std::string_view qualifier;
  SemanticFamily family = SemanticFamily::None;
  DefinitionPattern definitions = DefinitionPattern::Unknown;
  uint32_t flags = 0;
  OperandRule operands;
  /// The state space touched when no modifier names one: Tex for textures and surfaces, Generic
  /// for other memory accesses, None for instructions that touch no memory (and unknown ones).
  StateSpace space = StateSpace::None;

  bool has(InstructionFlag flag) const { return (flags & flag) != 0; }
  bool known() const { return !has(kUnknown); }
};

/// The traits of `opcode` with `modifiers` (without leading dots): the first of its variants whose
/// qualifier is among the modifiers, else its general entry. Unknown opcodes get conservative
/// traits (any register and any memory may be read or written).
const OpcodeTraits& lookupOpcodeTraits(Opcode opcode, std::span<const std::string_view> modifiers);
const OpcodeTraits& lookupOpcodeTraits(std::string_view opcode,
                                       std::span<const std::string_view> modifiers);

/// True when `opcode` has an entry of its own (for statistics and tests).
bool isKnownOpcode(std::string_view opcode);

/// Every row, in the order of ir/Opcodes.def (each opcode's general entry, then its variants).
std::span<const OpcodeTraits> instructionTable();

} // namespace ocelot::ir
