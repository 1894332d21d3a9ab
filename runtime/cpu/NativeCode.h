#pragma once

#include "runtime/cpu/Lanes.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace ocelot::runtime::cpu {

struct ExecutionContext;
struct DecodedInstruction;

/// One entry of a warp's SIMT stack: the lanes `mask` run from `pc` until they reach
/// `reconverge`, where the entry is popped (kNone: they never join again before exiting). Shared
/// by the interpreter (CtaExecutor) and the native code of the LLVM executor, which continue each
/// other's work on the same stack.
struct SimtEntry {
  uint32_t pc;
  uint32_t reconverge;
  LaneMask mask;
};

/// Entries native code may push onto a warp's stack before it hands them to the interpreter.
inline constexpr uint32_t kNativeStackCapacity = 64;

/// Why native code returned to the interpreter.
enum class NativeExit : uint32_t {
  Interpret = 0, ///< run the instruction at `pc` in the interpreter (calls, barriers, exits...)
  Pop = 1,       ///< the top entry reached its reconvergence pc: the interpreter pops it
  Yield = 2,     ///< the time slice (`budget`) is used up
  Fault = 3,     ///< an instruction handler at `pc` recorded a fault in the context
  Barrier = 4,   ///< the warp arrived at CTA barrier `barrier` (bar.sync); it resumes at `pc`
  Exit = 5,      ///< the lanes `exited` ran `exit`; the others continue at `pc`
  /// The warp arrived at a barrier or its lanes exited through `nextWarp`, which did what
  /// Barrier or Exit asks of the interpreter: it continues from the warp's stack.
  Arrived = 6,
};

struct NativeWarpState;

/// Called by native code at a `bar.sync` every live lane reached (`exited` 0) or at an `exit`
/// (`exited`: its lanes), with no entries of its own pushed: the warp's top entry (`pc` after the
/// instruction, `reconverge`, `mask`), `barrier` and `executed` are in the state, and the
/// registers its remaining lanes read after the instruction are in memory. The interpreter does
/// what NativeExit::Barrier / Exit ask (the arrival, releasing the barrier when the CTA is
/// complete; the lanes leaving) and picks the next warp of the CTA that is ready at a native
/// entry, as its own loop would: it binds that warp's fields (`rows`, `predicates`, `local`,
/// `frameBase`, `live`, `pc`, `reconverge`, `mask`), sets `executed` to 0 and returns 1, and
/// native code continues with that warp, so a CTA runs through its barrier regions (and its warps
/// one after another) in one call. 0: no warp to continue with here (or the time slice is used
/// up): native code returns NativeExit::Arrived.
using NativeBarrierFunction = uint32_t (*)(NativeWarpState* state);

/// What the native code of one kernel sees of a warp (the interpreter fills it before each call).
/// Registers stay in the interpreter's format (`rows`, `predicates`), so either side can continue
/// where the other stopped; native code keeps them in machine registers between those points. The
/// layout is part of the contract with generated code: NativePlan records it in every plan, and a
/// change invalidates cached code.
struct NativeWarpState {
  // --- in: the warp and its memory ---------------------------------------------------------------
  uint64_t* rows = nullptr;       ///< [row][lane] (ExecutionContext::rows)
  LaneMask* predicates = nullptr; ///< one lane mask per predicate
  ExecutionContext* context = nullptr;
  const DecodedInstruction* code = nullptr; ///< DecodedKernel::code, for handler calls
  std::byte* shared = nullptr;
  uint64_t sharedSize = 0;
  std::byte* local = nullptr; ///< lane l's local memory starts at local + l * localStride
  uint64_t localStride = 0;
  uint64_t localSize = 0;
  uint64_t frameBase = 0;
  uint64_t arenaBase = 0;
  uint64_t arenaSize = 0;
  uint64_t sharedWindow = 0;
  uint64_t localWindow = 0;
  uint32_t checked = 0; ///< OCELOT_MEMCHECK: every global access goes through its handler
  LaneMask live = 0;    ///< the warp's lanes that have not exited (barriers count them)
  /// See NativeBarrierFunction; null: every barrier returns NativeExit::Barrier.
  NativeBarrierFunction nextWarp = nullptr;
  void* scheduler = nullptr; ///< the interpreter's, for nextWarp
  // --- in/out: the top entry of the SIMT stack, the time slice, statistics ----------------------
  uint32_t pc = 0;
  uint32_t reconverge = 0;
  LaneMask mask = 0;
  /// out: entries native code pushed below the top entry (stack[0] is the deepest).
  uint32_t depth = 0;
  int64_t budget = 0;    ///< warp instructions left in the time slice
  uint64_t executed = 0; ///< out: thread instructions executed (guards applied)
  uint32_t barrier = 0;  ///< out (Barrier): the barrier's number
  LaneMask exited = 0;   ///< out (Exit): the lanes that exited
  SimtEntry stack[kNativeStackCapacity];
};

/// The native code of one kernel: runs the warp from its top entry (`state->pc`, which must be an
/// entry) until it reaches something it leaves to the interpreter. Returns a NativeExit.
using NativeFunction = uint32_t (*)(NativeWarpState* state);

/// A kernel's native code as the interpreter uses it.
struct NativeKernel {
  NativeFunction function = nullptr;
  /// Per pc: whether native code can start there.
  std::vector<uint8_t> entries;
  /// Only native code reads %ctaid (and reads lane 0): later CTAs of a launch set that lane only.
  bool ctaRowsInLaneZero = false;
  /// Keeps the code (and whatever made it) alive as long as the kernel may run it.
  std::shared_ptr<const void> owner;

  bool isEntry(uint32_t pc) const { return pc < entries.size() && entries[pc] != 0; }
};

} // namespace ocelot::runtime::cpu
