#include "ir/InstructionTable.h"

#include <algorithm>
#include <array>

namespace ocelot::ir {

namespace {

using D = DefinitionPattern;

constexpr uint32_t kRead = kMemoryRead;
constexpr uint32_t kWrite = kMemoryWrite;
constexpr uint32_t kReadWrite = kMemoryRead | kMemoryWrite;

// The single source of truth about PTX opcodes (PTX ISA 9.0). A new PTX version adds rows here;
// the grammar never changes. Qualified rows come before the opcode's general row.
constexpr std::array kTable = {
    // Integer and floating-point arithmetic: the first operand is written.
    OpcodeTraits{"add", "", D::FirstOperand, 0},
    OpcodeTraits{"addc", "", D::FirstOperand, 0},
    OpcodeTraits{"sub", "", D::FirstOperand, 0},
    OpcodeTraits{"subc", "", D::FirstOperand, 0},
    OpcodeTraits{"mul", "", D::FirstOperand, 0},
    OpcodeTraits{"mul24", "", D::FirstOperand, 0},
    OpcodeTraits{"mad", "", D::FirstOperand, 0},
    OpcodeTraits{"madc", "", D::FirstOperand, 0},
    OpcodeTraits{"mad24", "", D::FirstOperand, 0},
    OpcodeTraits{"sad", "", D::FirstOperand, 0},
    OpcodeTraits{"div", "", D::FirstOperand, 0},
    OpcodeTraits{"rem", "", D::FirstOperand, 0},
    OpcodeTraits{"abs", "", D::FirstOperand, 0},
    OpcodeTraits{"neg", "", D::FirstOperand, 0},
    OpcodeTraits{"min", "", D::FirstOperand, 0},
    OpcodeTraits{"max", "", D::FirstOperand, 0},
    OpcodeTraits{"popc", "", D::FirstOperand, 0},
    OpcodeTraits{"clz", "", D::FirstOperand, 0},
    OpcodeTraits{"bfind", "", D::FirstOperand, 0},
    OpcodeTraits{"fns", "", D::FirstOperand, 0},
    OpcodeTraits{"brev", "", D::FirstOperand, 0},
    OpcodeTraits{"bfe", "", D::FirstOperand, 0},
    OpcodeTraits{"bfi", "", D::FirstOperand, 0},
    OpcodeTraits{"szext", "", D::FirstOperand, 0},
    OpcodeTraits{"bmsk", "", D::FirstOperand, 0},
    OpcodeTraits{"dp4a", "", D::FirstOperand, 0},
    OpcodeTraits{"dp2a", "", D::FirstOperand, 0},
    OpcodeTraits{"testp", "", D::FirstOperand, 0},
    OpcodeTraits{"copysign", "", D::FirstOperand, 0},
    OpcodeTraits{"fma", "", D::FirstOperand, 0},
    OpcodeTraits{"rcp", "", D::FirstOperand, 0},
    OpcodeTraits{"sqrt", "", D::FirstOperand, 0},
    OpcodeTraits{"rsqrt", "", D::FirstOperand, 0},
    OpcodeTraits{"sin", "", D::FirstOperand, 0},
    OpcodeTraits{"cos", "", D::FirstOperand, 0},
    OpcodeTraits{"lg2", "", D::FirstOperand, 0},
    OpcodeTraits{"ex2", "", D::FirstOperand, 0},
    OpcodeTraits{"tanh", "", D::FirstOperand, 0},
    // Comparison, selection, logic, shifts.
    OpcodeTraits{"set", "", D::FirstOperand, 0},
    OpcodeTraits{"setp", "", D::FirstOperand, 0},
    OpcodeTraits{"selp", "", D::FirstOperand, 0},
    OpcodeTraits{"slct", "", D::FirstOperand, 0},
    OpcodeTraits{"and", "", D::FirstOperand, 0},
    OpcodeTraits{"or", "", D::FirstOperand, 0},
    OpcodeTraits{"xor", "", D::FirstOperand, 0},
    OpcodeTraits{"not", "", D::FirstOperand, 0},
    OpcodeTraits{"cnot", "", D::FirstOperand, 0},
    OpcodeTraits{"lop3", "", D::FirstOperand, 0},
    OpcodeTraits{"shf", "", D::FirstOperand, 0},
    OpcodeTraits{"shl", "", D::FirstOperand, 0},
    OpcodeTraits{"shr", "", D::FirstOperand, 0},
    // Data movement and conversion.
    OpcodeTraits{"mov", "", D::FirstOperand, 0},
    OpcodeTraits{"prmt", "", D::FirstOperand, 0},
    OpcodeTraits{"cvt", "", D::FirstOperand, 0},
    OpcodeTraits{"cvta", "", D::FirstOperand, 0},
    OpcodeTraits{"isspacep", "", D::FirstOperand, 0},
    OpcodeTraits{"mapa", "", D::FirstOperand, 0},
    OpcodeTraits{"getctarank", "", D::FirstOperand, 0},
    OpcodeTraits{"createpolicy", "", D::FirstOperand, 0},
    OpcodeTraits{"shfl", "", D::FirstOperand, kWarpCollective},
    OpcodeTraits{"ld", "", D::FirstOperand, kRead},
    OpcodeTraits{"ldu", "", D::FirstOperand, kRead},
    OpcodeTraits{"st", "async", D::None, kWrite | kAsynchronous},
    OpcodeTraits{"st", "", D::None, kWrite},
    OpcodeTraits{"prefetch", "", D::None, 0},
    OpcodeTraits{"prefetchu", "", D::None, 0},
    OpcodeTraits{"applypriority", "", D::None, kSideEffects},
    OpcodeTraits{"discard", "", D::None, kWrite},
    OpcodeTraits{"multimem", "ld_reduce", D::FirstOperand, kRead},
    OpcodeTraits{"multimem", "", D::None, kReadWrite | kAtomic},
    OpcodeTraits{"cp", "", D::None, kReadWrite | kAsynchronous},
    OpcodeTraits{"tensormap", "", D::None, kReadWrite | kSideEffects},
    OpcodeTraits{"ldmatrix", "", D::FirstOperand, kRead | kWarpCollective},
    OpcodeTraits{"stmatrix", "", D::None, kWrite | kWarpCollective},
    OpcodeTraits{"movmatrix", "", D::FirstOperand, kWarpCollective},
    OpcodeTraits{"alloca", "", D::FirstOperand, kSideEffects},
    OpcodeTraits{"stacksave", "", D::FirstOperand, kSideEffects},
    OpcodeTraits{"stackrestore", "", D::None, kSideEffects},
    // Textures and surfaces.
    OpcodeTraits{"tex", "", D::FirstOperand, kRead | kTexture},
    OpcodeTraits{"tld4", "", D::FirstOperand, kRead | kTexture},
    OpcodeTraits{"txq", "", D::FirstOperand, kTexture},
    OpcodeTraits{"istypep", "", D::FirstOperand, 0},
    OpcodeTraits{"suld", "", D::FirstOperand, kRead | kTexture},
    OpcodeTraits{"sust", "", D::None, kWrite | kTexture},
    OpcodeTraits{"sured", "", D::None, kReadWrite | kAtomic | kTexture},
    OpcodeTraits{"suq", "", D::FirstOperand, kTexture},
    // Control flow.
    OpcodeTraits{"bra", "", D::None, kBranch},
    OpcodeTraits{"brx", "", D::None, kBranch},
    OpcodeTraits{"call", "", D::Call, kCall},
    OpcodeTraits{"ret", "", D::None, kReturn},
    OpcodeTraits{"exit", "", D::None, kExit},
    OpcodeTraits{"trap", "", D::None, kTrap | kSideEffects},
    OpcodeTraits{"brkpt", "", D::None, kSideEffects},
    // Synchronisation, atomics, warp-level operations.
    OpcodeTraits{"bar", "warp", D::None, kWarpCollective | kSideEffects},
    OpcodeTraits{"bar", "red", D::FirstOperand, kCtaBarrier | kSideEffects},
    OpcodeTraits{"bar", "", D::None, kCtaBarrier | kSideEffects},
    OpcodeTraits{"barrier", "cluster", D::None, kClusterBarrier | kSideEffects},
    OpcodeTraits{"barrier", "red", D::FirstOperand, kCtaBarrier | kSideEffects},
    OpcodeTraits{"barrier", "", D::None, kCtaBarrier | kSideEffects},
    OpcodeTraits{"membar", "", D::None, kFence | kSideEffects},
    OpcodeTraits{"fence", "", D::None, kFence | kSideEffects},
    OpcodeTraits{"atom", "", D::FirstOperand, kReadWrite | kAtomic},
    OpcodeTraits{"red", "", D::None, kReadWrite | kAtomic},
    OpcodeTraits{"vote", "", D::FirstOperand, kWarpCollective},
    OpcodeTraits{"match", "", D::FirstOperand, kWarpCollective},
    OpcodeTraits{"activemask", "", D::FirstOperand, kWarpCollective},
    OpcodeTraits{"redux", "", D::FirstOperand, kWarpCollective},
    OpcodeTraits{"elect", "", D::FirstOperand, kWarpCollective},
    OpcodeTraits{"mbarrier", "init", D::None, kWrite},
    OpcodeTraits{"mbarrier", "inval", D::None, kWrite},
    OpcodeTraits{"mbarrier", "expect_tx", D::None, kReadWrite | kAtomic},
    OpcodeTraits{"mbarrier", "complete_tx", D::None, kReadWrite | kAtomic},
    OpcodeTraits{"mbarrier", "", D::FirstOperand, kReadWrite | kAtomic | kSideEffects},
    OpcodeTraits{"griddepcontrol", "", D::None, kSideEffects},
    OpcodeTraits{"nanosleep", "", D::None, kSideEffects},
    OpcodeTraits{"pmevent", "", D::None, kSideEffects},
    OpcodeTraits{"setmaxnreg", "", D::None, kSideEffects | kWarpCollective},
    OpcodeTraits{"clusterlaunchcontrol", "query_cancel", D::FirstOperand, 0},
    OpcodeTraits{"clusterlaunchcontrol", "", D::None, kWrite | kAsynchronous | kSideEffects},
    // Matrix and tensor-core operations.
    OpcodeTraits{"wmma", "store", D::None, kWrite | kWarpCollective},
    OpcodeTraits{"wmma", "", D::FirstOperand, kRead | kWarpCollective},
    OpcodeTraits{"mma", "", D::FirstOperand, kWarpCollective},
    OpcodeTraits{"wgmma", "mma_async", D::FirstOperandReadWrite,
                 kRead | kWarpCollective | kAsynchronous},
    OpcodeTraits{"wgmma", "", D::None, kWarpCollective | kSideEffects},
    OpcodeTraits{"tcgen05", "ld", D::FirstOperand, kRead | kWarpCollective},
    OpcodeTraits{"tcgen05", "", D::None,
                 kReadWrite | kWarpCollective | kAsynchronous | kSideEffects},
    // Video instructions.
    OpcodeTraits{"vadd", "", D::FirstOperand, 0},
    OpcodeTraits{"vsub", "", D::FirstOperand, 0},
    OpcodeTraits{"vabsdiff", "", D::FirstOperand, 0},
    OpcodeTraits{"vmin", "", D::FirstOperand, 0},
    OpcodeTraits{"vmax", "", D::FirstOperand, 0},
    OpcodeTraits{"vshl", "", D::FirstOperand, 0},
    OpcodeTraits{"vshr", "", D::FirstOperand, 0},
    OpcodeTraits{"vmad", "", D::FirstOperand, 0},
    OpcodeTraits{"vset", "", D::FirstOperand, 0},
    OpcodeTraits{"vadd2", "", D::FirstOperand, 0},
    OpcodeTraits{"vsub2", "", D::FirstOperand, 0},
    OpcodeTraits{"vavrg2", "", D::FirstOperand, 0},
    OpcodeTraits{"vabsdiff2", "", D::FirstOperand, 0},
    OpcodeTraits{"vmin2", "", D::FirstOperand, 0},
    OpcodeTraits{"vmax2", "", D::FirstOperand, 0},
    OpcodeTraits{"vset2", "", D::FirstOperand, 0},
    OpcodeTraits{"vadd4", "", D::FirstOperand, 0},
    OpcodeTraits{"vsub4", "", D::FirstOperand, 0},
    OpcodeTraits{"vavrg4", "", D::FirstOperand, 0},
    OpcodeTraits{"vabsdiff4", "", D::FirstOperand, 0},
    OpcodeTraits{"vmin4", "", D::FirstOperand, 0},
    OpcodeTraits{"vmax4", "", D::FirstOperand, 0},
    OpcodeTraits{"vset4", "", D::FirstOperand, 0},
};

constexpr OpcodeTraits kUnknownTraits{
    "", "", D::Unknown, kUnknown | kSideEffects | kMemoryRead | kMemoryWrite | kAtomic | kFence};

} // namespace

const OpcodeTraits& lookupOpcodeTraits(std::string_view opcode,
                                       std::span<const std::string_view> modifiers) {
  for (const auto& entry : kTable) {
    if (entry.opcode != opcode)
      continue;
    if (entry.qualifier.empty() ||
        std::find(modifiers.begin(), modifiers.end(), entry.qualifier) != modifiers.end())
      return entry;
  }
  return kUnknownTraits;
}

bool isKnownOpcode(std::string_view opcode) {
  return std::any_of(kTable.begin(), kTable.end(),
                     [&](const OpcodeTraits& entry) { return entry.opcode == opcode; });
}

} // namespace ocelot::ir
