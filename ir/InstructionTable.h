#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace ocelot::ir {

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
};

/// Which operands an instruction writes. Registers in every other operand are read.
enum class DefinitionPattern : uint8_t {
  FirstOperand,          ///< `add d, a, b`: the first operand (all its registers) is written
  None,                  ///< `st`, `bar`, `bra`: nothing is written to registers
  FirstOperandReadWrite, ///< `wgmma.mma_async {d...}`: accumulators are read and written
  Call,                  ///< `call (ret), f, (args)`: writes return params, reads argument params
  Unknown,               ///< an opcode the table does not know: any register may be written
};

struct OpcodeTraits {
  std::string_view opcode;
  /// Empty for the opcode's general entry; otherwise a modifier that selects this entry
  /// (`bar.warp.sync` -> "warp", `wmma.store` -> "store").
  std::string_view qualifier;
  DefinitionPattern definitions;
  uint32_t flags;

  bool has(InstructionFlag flag) const { return (flags & flag) != 0; }
  bool known() const { return !has(kUnknown); }
};

/// The traits of `opcode` with `modifiers` (without leading dots). Entries with a qualifier win
/// when that qualifier is among the modifiers. Unknown opcodes get conservative traits.
const OpcodeTraits& lookupOpcodeTraits(std::string_view opcode,
                                       std::span<const std::string_view> modifiers);

/// True when `opcode` has an entry of its own (for statistics and tests).
bool isKnownOpcode(std::string_view opcode);

} // namespace ocelot::ir
