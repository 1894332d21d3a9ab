#pragma once

#include "ir/Module.h"
#include "ocelot/Instrumentor.h"
#include "passes/AnalysisManager.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace ocelot::instrumentors {

/// A function the framework does not instrument, and why.
struct Exclusion {
  std::string function;
  std::string reason;
};

/// How the per-launch buffers reach instrumentation code (docs/instrumentation.md):
///  * every kernel gets one more parameter, last, `.param .align 8 .b8 __ocelot_instrumentation
///    [8 * slots]`, which the runtime fills with one device pointer per instrumentor (slot);
///  * every device function all of whose callers are instrumented kernels or instrumented device
///    functions gets one `.param .b64` per slot, last, and each direct call to it passes the
///    caller's slot values: device functions whose address is taken (indirect calls), that have
///    aliases, or that are visible to other units of a device-linked program keep their
///    signature and are not instrumented;
///  * kernels whose address is taken (device-side launches build their own parameter buffers) or
///    whose parameters would outgrow the parameter space are not instrumented.
/// The application's own parameters, their layout and the kernel's other properties do not
/// change. Every instrumented function also gets a first block no branch targets (see
/// ensureUnlabeledEntry), so that instrumentors can put code there that runs once per call.
class BufferPlan {
public:
  /// Decides the plan for `slots` instrumentors; changes nothing yet. `linked`: the module is a
  /// unit of a device-linked (-rdc) program.
  BufferPlan(ir::Module& module, passes::AnalysisManager& analyses, uint32_t slots, bool linked);

  uint32_t slots() const { return slots_; }
  /// Whether code in `function` can reach the buffers (after apply()).
  bool reaches(const ir::Function& function) const { return reached_.contains(&function); }
  /// Kernels that keep their signature and are not instrumented, and device functions that are
  /// called from instrumented code but cannot be instrumented.
  const std::vector<Exclusion>& exclusions() const { return exclusions_; }
  /// The name of the kernels' new parameter.
  std::string_view kernelParameter() const { return kernelParameter_; }

  /// Adds the parameters, passes the slots at call sites and creates the entry blocks.
  void apply(ir::Module& module, passes::AnalysisManager& analyses);

  /// Emits code that loads slot `slot`'s device pointer (a fresh .b64 register) in a function
  /// the plan reaches.
  ir::RegisterRef loadSlot(ir::IRBuilder& builder, uint32_t slot) const;

  /// The BufferAccess that instrumentor number `slot` hands to its passes. Valid while the plan
  /// lives.
  std::unique_ptr<BufferAccess> access(uint32_t slot) const;

  /// Bytes of the parameter space the kernel's own parameters use (their alignment included).
  static uint64_t parameterBytes(const ir::Function& kernel);
  /// The most parameter bytes a kernel may have: 4352, or 32764 from PTX ISA 8.1 on.
  static uint64_t parameterLimit(const ir::Module& module);

private:
  std::string slotParameter(uint32_t slot) const;

  uint32_t slots_;
  std::unordered_set<const ir::Function*> reached_;
  std::vector<Exclusion> exclusions_;
  std::string kernelParameter_;
  bool applied_ = false;
};

} // namespace ocelot::instrumentors
