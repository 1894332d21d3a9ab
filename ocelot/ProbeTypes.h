/* The small vocabulary probes and probe tools share: what kind of instruction a probe sits at,
 * which state space it touches, how. Included by ocelot/probe.cuh (device code, nvcc and NVRTC)
 * and by ocelot/ProbeTool.h (host code), so it uses nothing but the language. The numbers are
 * part of the probe ABI: they only ever get new members at the end. */
#ifndef OCELOT_PROBE_TYPES_H
#define OCELOT_PROBE_TYPES_H

namespace ocelot {
namespace probe {

/// The opcode class of an instruction, as probes see it (`opcodeClass()`) and as placement filters
/// name it (`class=load,store`). Arithmetic is split by the type the instruction computes in.
enum OpcodeClass : unsigned int {
  kIntegerArithmetic = 0, ///< add, mul, mad, div, min, popc ... on integer types
  kFloatArithmetic = 1,   ///< the same on .f32, .f16, .bf16 and their vectors; sin, ex2, rcp ...
  kDoubleArithmetic = 2,  ///< on .f64
  kLogic = 3,             ///< and, or, xor, not, shl, shr, lop3, shf, prmt, bfe, bfi, brev ...
  kCompare = 4,           ///< setp, set, selp, slct, testp
  kMove = 5,              ///< mov, cvt, cvta, isspace and the like
  kLoad = 6,              ///< ld, ldu, ld.global.nc, ldmatrix
  kStore = 7,             ///< st, stmatrix
  kAtomic = 8,            ///< atom, red
  kBranch = 9,            ///< bra, brx.idx
  kCall = 10,             ///< call
  kReturn = 11,           ///< ret, exit, trap
  kBarrier = 12,          ///< bar, barrier, membar, fence, bar.warp.sync, mbarrier
  kWarp = 13,             ///< shfl, vote, match, redux, activemask, elect
  kTensor = 14,           ///< mma, wmma, wgmma, tcgen05
  kTexture = 15,          ///< tex, tld4, suld, sust, sured
  kOther = 16,            ///< everything else (cp.async, prefetch, nanosleep, unknown opcodes)
  kOpcodeClassCount = 17
};

/// The state space a memory instruction names (`stateSpace()`); generic accesses (no space in the
/// opcode) report kGeneric and their addresses are generic addresses.
enum StateSpace : unsigned int {
  kNoSpace = 0, ///< not a memory instruction
  kGeneric = 1,
  kGlobal = 2,
  kShared = 3, ///< addresses are offsets in the shared window (shared::cta and shared::cluster)
  kLocal = 4,  ///< addresses are offsets in the thread's local memory
  kConst = 5,
  kParam = 6,
  kOtherSpace = 7
};

/// What a memory instruction does (`accessKind()`).
enum AccessKind : unsigned int {
  kNoAccess = 0,
  kRead = 1,        ///< loads
  kWrite = 2,       ///< stores
  kAtomicAccess = 3 ///< atom, red: read-modify-write
};

/// Where a probe runs relative to its site (`when()`).
enum When : unsigned int { kBefore = 0, kAfter = 1 };

} // namespace probe
} // namespace ocelot

#endif /* OCELOT_PROBE_TYPES_H */
