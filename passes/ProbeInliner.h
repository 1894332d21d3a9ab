#pragma once

#include "ir/IRBuilder.h"
#include "ir/Module.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace ocelot::passes {

/// Why a probe function cannot be inlined: one line that names the reason ("waits at a CTA
/// barrier (bar.sync)"). The caller prefixes the probe's name.
class InlineError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// A call of an intrinsic (a function the probe module declares and does not define, that the
/// caller's `isIntrinsic` accepts) in a probe, as the inliner hands it to its hooks at one site.
struct IntrinsicCall {
  std::string_view name;
  /// The values the probe passes, in the target function's terms (immediates, or the target
  /// registers the probe's registers became).
  std::vector<ir::Operand> arguments;
  /// Where the probe reads the result (a fresh register of the target), if it reads it.
  std::optional<ir::RegisterRef> result;
};

/// What the inliner asks of its caller while it instantiates a probe at one site.
class InlineHooks {
public:
  virtual ~InlineHooks() = default;
  /// Once per instance, at its start (a point that dominates all of the probe's code).
  virtual void beginInstance(ir::IRBuilder& /*builder*/) {}
  /// Emits the code of `call` at the builder's point: it must write `call.result`, if any.
  /// Throws InlineError for intrinsics it does not know.
  virtual void expandIntrinsic(ir::IRBuilder& builder, const IntrinsicCall& call) = 0;
  /// The value of `call` at this site when it is a constant (the bits of the result), else
  /// nullopt. Asked before anything is emitted, with the probe's own operands as arguments (the
  /// immediates are the same); the inliner folds the branches that constants decide and leaves
  /// out the code nothing reads.
  virtual std::optional<uint64_t> constant(const IntrinsicCall& /*call*/) { return std::nullopt; }
  /// When the value of `call` is the address of the caller's buffer plus a constant: that
  /// constant (asked like constant()). The inliner follows such addresses through the probe's
  /// arithmetic and tells guardWrite which bytes a write can touch.
  virtual std::optional<uint64_t> bufferOffset(const IntrinsicCall& /*call*/) {
    return std::nullopt;
  }
  /// Before each write of the probe to memory (`address`: a 64-bit register holding the address
  /// written, generic or global; `bytes`: the offsets from the buffer's address the write can
  /// touch, [first, end), when the inliner could bound them): the predicate under which the
  /// write may happen, or nullopt to let it happen unchecked.
  virtual std::optional<ir::RegisterRef>
  guardWrite(ir::IRBuilder& /*builder*/, ir::RegisterRef /*address*/,
             std::optional<std::pair<uint64_t, uint64_t>> /*bytes*/) {
    return std::nullopt;
  }
};

/// A probe function (a `.func` without parameters or return value, of a module compiled from
/// CUDA C with `nvcc -rdc=true -ptx`) checked and prepared for inlining, once; ProbeInliner
/// instantiates it at any number of sites of any module.
///
/// What a probe may not do, each an InlineError from prepare(): take parameters or return a
/// value; call anything but intrinsics (functions nvcc did not inline, printf, malloc, indirect
/// calls; calls that lead back to the probe are reported as recursion); wait at CTA or cluster
/// barriers; end the thread (exit, trap); use local memory (a stack frame) or the module's
/// variables; write memory other than through generic or global addresses (shared, local,
/// parameter space); use instructions Ocelot does not know or that change the warp's resources
/// (setmaxnreg, alloca ...).
class InlineTemplate {
public:
  static InlineTemplate prepare(const ir::Function& probe,
                                const std::function<bool(std::string_view)>& isIntrinsic);

  std::string_view name() const { return function_->name(); }
  const ir::Function& function() const { return *function_; }
  /// No instruction besides `ret`: inlining adds nothing.
  bool empty() const { return instructions_ == 0; }
  /// One block, no branches: inlined without splitting the target's block.
  bool straightLine() const { return blocks_.size() <= 1 && !branches_; }
  /// The intrinsics the probe calls (each name once).
  const std::vector<std::string_view>& intrinsics() const { return intrinsicNames_; }
  bool calls(std::string_view intrinsic) const;
  /// Whether the probe writes memory (and so needs its writes checked).
  bool writesMemory() const { return writes_; }
  /// The most 32-bit register units the probe keeps live at once (liveness on its PTX).
  uint32_t registerPressure() const { return pressure_; }
  uint32_t instructions() const { return instructions_; }

  /// One statement of the prepared body.
  struct Item {
    enum class Kind : uint8_t { Instruction, Label, Intrinsic, Return };
    Kind kind = Kind::Instruction;
    const ir::Instruction* instruction = nullptr; ///< Instruction, Return (its guard)
    ir::LabelId label = 0;                        ///< Label
    std::string_view intrinsic;                   ///< Intrinsic
    std::vector<ir::Operand> arguments;           ///< Intrinsic, in the probe's terms
    std::optional<ir::RegisterRef> result;        ///< Intrinsic
    bool write = false;                           ///< Instruction: a checked memory write
  };
  const std::vector<std::vector<Item>>& blocks() const { return blocks_; }

private:
  const ir::Function* function_ = nullptr;
  std::vector<std::vector<Item>> blocks_;
  std::vector<std::string_view> intrinsicNames_;
  bool branches_ = false;
  bool writes_ = false;
  uint32_t pressure_ = 0;
  uint32_t instructions_ = 0;
};

/// Inlines prepared probes into one function of the target module. The inlined code:
///  * uses fresh registers only (one set per probe and function: instances never run at once, so
///    they share them), declared at the function's start; the application's registers,
///    predicates, labels, parameters, shared memory and calls are untouched;
///  * gets fresh labels; the probe's `{ }` scopes (call sequences, inline asm) are flattened, since
///    every name in them is fresh; inserted statements belong to the scope of the insertion point;
///  * replaces each intrinsic call sequence (`.param` declarations, `st.param`, `call`, `ld.param`)
///    with what the hooks emit for it;
///  * runs, with `runIf`, only for the lanes whose predicate holds (a branch around the probe), so
///    a probe before a guarded instruction sees exactly the lanes that execute it and the warp's
///    active mask as the instruction has it.
/// Each instance is specialized first: intrinsics the hooks call constant at the site are
/// propagated through moves, conversions, integer arithmetic, comparisons and selects; branches
/// they decide are folded, blocks no longer reached dropped, and code whose results nothing reads
/// left out; addresses the hooks say are in the caller's buffer are followed through the
/// arithmetic as ranges, so that writes provably inside it need no check (ptxas would fold them
/// too, but it would first have to read them: this keeps the PTX small and its JIT fast). A probe
/// that still has branches splits the target block: the statements from the insertion point on move
/// to a new block that starts with a fresh label; the probe's `ret` branches there.
class ProbeInliner {
public:
  ProbeInliner(ir::Function& target, ir::IRChangeListener* listener);

  ir::Function& function() const { return *function_; }

  /// Inlines `probe` before statement `index` of `block`. Returns the block that holds the
  /// statements that were at `index` and after (a new one when the probe splits `block`).
  ir::BasicBlock& inlineAt(const InlineTemplate& probe, ir::BasicBlock& block, size_t index,
                           std::optional<ir::Guard> runIf, InlineHooks& hooks);

  /// Fresh registers the inlined probes use (32-bit units; predicates not counted).
  uint32_t registerUnits() const { return registerUnits_; }
  /// Probe instances inlined.
  uint32_t instances() const { return instances_; }
  /// A fresh label at the start of `block` (before its statements). For callers that branch.
  ir::LabelId labelBlock(ir::BasicBlock& block, ir::ScopeId scope);
  ir::IRBuilder& builder() { return builder_; }

private:
  struct Instance;
  ir::RegisterRef mapRegister(const InlineTemplate& probe, ir::RegisterRef reg);
  ir::Operand mapOperand(const InlineTemplate& probe, const ir::Operand& operand,
                         const std::map<ir::LabelId, ir::LabelId>& labels);
  ir::LabelId freshLabel(ir::ScopeId scope);
  void emitItem(const InlineTemplate& probe, const InlineTemplate::Item& item,
                const std::map<ir::LabelId, ir::LabelId>& labels, ir::LabelId continuation,
                bool last, bool unconditional,
                std::optional<std::pair<uint64_t, uint64_t>> writeBytes, InlineHooks& hooks);
  void emitWrite(const InlineTemplate& probe, const ir::Instruction& write,
                 const std::map<ir::LabelId, ir::LabelId>& labels,
                 std::optional<std::pair<uint64_t, uint64_t>> bytes, InlineHooks& hooks);

  ir::Function* function_;
  ir::IRChangeListener* listener_;
  ir::IRBuilder builder_;
  std::map<std::pair<const ir::Function*, ir::RegisterRef>, ir::RegisterRef> registers_;
  std::unordered_set<std::string_view> labelNames_;
  uint32_t nextLabel_ = 0;
  uint32_t registerUnits_ = 0;
  uint32_t instances_ = 0;
};

} // namespace ocelot::passes
