#pragma once

#include "runtime/cpu/Lanes.h"

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ocelot::ir {
class Function;
class Instruction;
} // namespace ocelot::ir

namespace ocelot::runtime::cpu {

class CpuModule;
struct ExecutionContext;
struct NativeKernel;
struct DecodedInstruction;

/// Executes one straight-line instruction for the lanes in `mask` (the active lanes whose guard
/// holds; never empty). Returns false after recording a fault in the context. One function per
/// (operation, type) chosen when the kernel is decoded, so the hot loop never looks at modifiers.
using ExecuteFn = bool (*)(ExecutionContext& context, const DecodedInstruction& instruction,
                           LaneMask mask);

/// How an instruction affects control flow. Everything but None is handled by the interpreter
/// itself, because it changes the warp's SIMT stack, call stack or scheduling state.
enum class Control : uint8_t {
  None,          ///< execute() and continue with the next instruction
  FallThrough,   ///< decoder-made: the end of a block that falls into the next one
  Branch,        ///< bra: `target`; a guard may split the warp, which joins again at `reconverge`
  IndexedBranch, ///< brx.idx: op[0] is the index, `aux` the branch table
  Call,          ///< call: `aux` is the call site
  Return,        ///< ret
  Exit,          ///< exit (and ret from the kernel itself)
  Trap,          ///< trap, brkpt
  Barrier,       ///< bar/barrier .sync/.arrive/.red: `aux` holds BarrierFlags
  Sleep,         ///< nanosleep: a point where the warp lets others run
};

/// Marker for "no register/predicate/pc" in the fields below.
inline constexpr uint32_t kNone = UINT32_MAX;

/// bar / barrier variants in DecodedInstruction::aux.
enum BarrierFlags : uint32_t {
  kBarrierWait = 1u << 0,    ///< .sync / .red: wait for the barrier (else .arrive)
  kBarrierReduce = 1u << 1,  ///< .red: op[2] = destination, op[3] = predicate
  kBarrierRedPopc = 1u << 2, ///< .red.popc.u32
  kBarrierRedAnd = 1u << 3,  ///< .red.and.pred
  kBarrierRedOr = 1u << 4,   ///< .red.or.pred
  kBarrierAligned = 1u << 5, ///< .aligned: all lanes of the warp must execute it together
};

/// One decoded instruction. Operands are register-file rows (one row = one register for the 32
/// lanes of a warp, see WarpRegisters) or predicate indices; immediates, symbol addresses and
/// special registers that do not change during a launch were turned into constant rows by the
/// decoder, so handlers never branch on operand kinds.
struct DecodedInstruction {
  ExecuteFn execute = nullptr;
  std::array<uint32_t, 10> op{kNone, kNone, kNone, kNone, kNone, kNone, kNone, kNone, kNone, kNone};
  int64_t imm = 0;             ///< address offset, or a handler-specific constant
  uint32_t aux = 0;            ///< handler-specific: comparison, rounding, table index, flags...
  uint32_t aux2 = 0;           ///< handler-specific
  uint32_t guard = kNone;      ///< predicate index of `@%p`, or kNone
  uint32_t target = kNone;     ///< branch target pc
  uint32_t reconverge = kNone; ///< where a divergent branch joins again (kNone: at exit)
  uint32_t block = kNone;      ///< the program block this instruction starts, or kNone
  Control control = Control::None;
  bool guardNegated = false;
  bool frameRelative = false; ///< `imm` is relative to the warp's local frame (local/param vars)
  bool synthetic = false;     ///< made by the decoder (not a PTX instruction: not traced)
  bool memoryAccess = false;  ///< reads or writes memory (for the trace's memory hook)
};

/// Where a decoded instruction came from, for error messages and the trace.
struct InstructionSource {
  /// The PTX instruction (decoder-made instructions: the one they serve), or null for
  /// instructions of the decoder's own (end of function, empty block).
  const ir::Instruction* instruction = nullptr;
  uint32_t ptxLine = 0;
  uint32_t sourceFile = 0; ///< `.file` index from `.loc`, 0: none
  uint32_t sourceLine = 0;
  uint32_t function = 0; ///< index into DecodedKernel::functions
  std::string_view text; ///< the instruction spelling ("ld.global.u32")
};

/// The registers a PTX instruction's operands read and write, as rows and predicates (what its
/// handler touches besides constant rows; decoder-made instructions have none recorded).
struct RegisterAccesses {
  std::vector<uint32_t> reads, writes, predicateReads, predicateWrites;
};

/// Functions Ocelot provides itself (declared `.extern .func` in the PTX).
enum class Builtin : uint8_t {
  None,
  Vprintf,
  Malloc,
  Free,
  AssertFail,
  GraphSetConditional,
  // The device runtime of dynamic parallelism (cudadevrt, the __cudaCDP2* functions).
  DeviceGetParameterBufferV2, ///< (function, grid, block, shared) -> parameter buffer
  DeviceGetParameterBuffer,   ///< (alignment, size) -> parameter buffer
  DeviceLaunchV2,             ///< (parameter buffer, stream) -> cudaError_t
  DeviceLaunch,               ///< (function, buffer, grid, block, shared, stream) -> cudaError_t
  DeviceStreamCreate,         ///< (cudaStream_t*, flags) -> cudaError_t
  DeviceGetLastError,         ///< () -> cudaError_t, clearing it
  DevicePeekAtLastError,      ///< () -> cudaError_t
  DeviceGetDevice,            ///< (int*) -> cudaError_t
  DeviceSuccess,              ///< stream/event bookkeeping with nothing to do here: cudaSuccess
};

/// A function of the program (the kernel is function 0). Registers of different functions live in
/// different rows, so calls need no register saving unless a function is re-entered (recursion):
/// then its rows are spilled for the duration of the inner call.
struct DecodedFunction {
  std::string name;
  const ir::Function* ir = nullptr; ///< the function decoded (null for builtins)
  uint32_t entryPc = 0;
  uint32_t frameSize = 0;              ///< bytes of local memory per thread for one activation
  uint32_t rowBegin = 0, rowEnd = 0;   ///< its register rows
  uint32_t predBegin = 0, predEnd = 0; ///< its predicates
  /// Local-frame offsets of the formal parameters (`.param`) and return values, in order.
  std::vector<uint32_t> parameterOffsets, returnOffsets;
  std::vector<uint32_t> parameterSizes, returnSizes;
  /// For `.reg` formals: the row (kNone for `.param` formals).
  std::vector<uint32_t> parameterRows, returnRows;
  /// Bodiless functions the device provides (vprintf, malloc...), reachable indirectly.
  Builtin builtin = Builtin::None;
  /// Functions reached only through indirect calls may fail to decode without failing the
  /// kernel: a call to one of them faults with this message instead.
  std::string error;
};

/// One argument or return value moved by a call: from a caller location to a callee formal.
struct CallValue {
  uint32_t row = kNone;     ///< a register (or constant row) of the caller, or kNone
  uint32_t frameOffset = 0; ///< else: a `.param` variable in the caller's frame
  uint32_t size = 0;
};

struct CallSite {
  uint32_t callee = kNone;    ///< direct: function index
  uint32_t targetRow = kNone; ///< indirect: the row holding the function address
  Builtin builtin = Builtin::None;
  std::vector<CallValue> arguments;
  std::vector<CallValue> results;
};

struct BranchTable {
  std::vector<uint32_t> targets; ///< pcs
};

/// The fragments of a tensor-core instruction (wmma, mma, ldmatrix, stmatrix): more registers
/// than DecodedInstruction holds. Rows of d, a, b and c in fragment order (unused ones empty).
struct MatrixOperands {
  std::vector<uint32_t> fragments[4];
  uint64_t form = 0;                ///< the instruction's packed form (MatrixInstructions.cpp)
  uint32_t slots[4] = {0, 0, 0, 0}; ///< elements per lane of each fragment
};

/// An IR basic block as the program sees it, for the trace and block-level statistics.
struct ProgramBlock {
  uint32_t function = 0;
  uint32_t irBlock = 0; ///< index in the IR function's blocks()
  uint32_t firstPc = 0;
  uint32_t instructionCount = 0; ///< PTX instructions (not decoder-made ones)
};

/// Values the decoder put into rows that every warp of a launch sees the same way.
struct ConstantRow {
  enum class Kind : uint8_t {
    Value,         ///< `value` as is
    ParameterBase, ///< the launch's parameter buffer address + `value`
  };
  uint32_t row = 0;
  Kind kind = Kind::Value;
  uint64_t value = 0;
};

/// Special registers materialized as rows when a warp starts (or a CTA, for %ctaid and %smid).
enum class SpecialRegister : uint8_t {
  TidX,
  TidY,
  TidZ,
  NtidX,
  NtidY,
  NtidZ,
  CtaidX,
  CtaidY,
  CtaidZ,
  NctaidX,
  NctaidY,
  NctaidZ,
  LaneId,
  WarpId,
  NWarpId,
  SmId,
  NSmId,
  GridId,
  LaneMaskEq,
  LaneMaskLt,
  LaneMaskLe,
  LaneMaskGt,
  LaneMaskGe,
  DynamicSmemSize,
  TotalSmemSize,
  ClusterCtaRank,
  ClusterNCtaRank,
  IsExplicitCluster,
  ClusterCtaidX,
  ClusterCtaidY,
  ClusterCtaidZ,
  ClusterNctaidX,
  ClusterNctaidY,
  ClusterNctaidZ,
  ClusterIdX,
  ClusterIdY,
  ClusterIdZ,
  NClusterIdX,
  NClusterIdY,
  NClusterIdZ,
  GridWorkspaceHigh, ///< %envreg1: cooperative launches' grid-sync workspace, high half
  GridWorkspaceLow,  ///< %envreg2: its low half
  Zero,              ///< %envregN, %reserved_smem_offset_*, %pm*: defined but 0 on this device
};

struct SpecialRow {
  uint32_t row = 0;
  SpecialRegister kind = SpecialRegister::Zero;
};

/// A kernel decoded for the interpreter: the kernel and every function it may call, as one array
/// of instructions, with the layouts of its registers and memory.
struct DecodedKernel {
  std::string name;
  CpuModule* module = nullptr; ///< where it came from (device-side launches decode its kernels)
  std::vector<DecodedInstruction> code;
  std::vector<InstructionSource> sources; ///< per pc
  std::vector<RegisterAccesses> accesses; ///< per pc (empty for decoder-made instructions)
  std::vector<DecodedFunction> functions; ///< [0] is the kernel
  std::vector<CallSite> callSites;
  std::vector<BranchTable> branchTables;
  std::vector<MatrixOperands> matrixOperands; ///< by DecodedInstruction::aux2 of their handlers
  std::vector<ProgramBlock> blocks;
  std::vector<std::string> sourceFiles; ///< `.file` names by index ("" where none)
  /// Function address (CpuModule::functionAddress, relative to the kernel's own module) -> index
  /// into `functions`, for indirect calls through function addresses.
  std::unordered_map<uint64_t, uint32_t> functionAtAddress;

  // Register file.
  uint32_t rowCount = 0;
  /// Per row: the declared width in bytes of the register it holds (8 for every other row).
  std::vector<uint8_t> rowBytes;
  uint32_t predicateCount = 0;
  uint32_t truePredicate = 0, falsePredicate = 0; ///< constant predicates
  std::vector<ConstantRow> constants;
  std::vector<SpecialRow> specials;

  // Memory.
  uint32_t staticSharedSize = 0;
  uint32_t dynamicSharedAlign = 16;
  uint32_t kernelFrameSize = 0;
  /// Local bytes per thread the deepest non-recursive call chain needs.
  uint32_t staticStackSize = 0;
  bool recursive = false;
  std::vector<uint32_t> parameterOffsets, parameterSizes;
  uint32_t parameterBufferSize = 0;

  /// `.maxntid`/`.reqntid` product, 0 when absent.
  uint32_t maxThreadsPerBlock = 0;
  /// `.reqnctapercluster x, y, z` (zeros when absent); `.explicitcluster` sets clusterRequired.
  uint32_t requiredCluster[3] = {0, 0, 0};
  bool clusterRequired = false;
  bool usesClock = false;

  /// The LLVM executor's native code (runtime/cpu/llvm), made at the kernel's first launch with
  /// that executor; `nativeTried` says it was attempted (null code: the kernel is interpreted).
  mutable std::mutex nativeMutex;
  mutable std::shared_ptr<const NativeKernel> native;
  mutable bool nativeTried = false;

  uint32_t dynamicSharedOffset() const {
    return (staticSharedSize + dynamicSharedAlign - 1) / dynamicSharedAlign * dynamicSharedAlign;
  }
};

} // namespace ocelot::runtime::cpu
