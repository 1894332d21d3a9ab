#pragma once

// The interface every instrumentor implements: built-in ones (instrumentors/) and those loaded
// from plugins (ocelot/Plugin.h) alike. It follows the lifecycle of the GPU Ocelot paper
// (seeds/004, section 3.2): analyze a module before any device resources exist, instrument it
// with passes, initialize a buffer before each launch, finalize the results after it.

#include "ir/IRBuilder.h"
#include "ir/Module.h"
#include "ocelot/InstrumentorResult.h"
#include "ocelot/LaunchInfo.h"
#include "passes/AnalysisManager.h"
#include "passes/PassManager.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace ocelot {

/// How instrumentation code reaches its instrumentor's buffer of the current launch. Each launch
/// gets its own buffers (concurrent launches of one kernel never share counters): the framework
/// appends a hidden parameter to every kernel that holds one device pointer per instrumentor and
/// threads those pointers through calls of the module's device functions (docs/instrumentation.md).
class BufferAccess {
public:
  virtual ~BufferAccess() = default;
  /// Whether code in `function` can reach the buffer: every kernel, and every device function
  /// except those whose address is taken (indirect calls keep their signature).
  virtual bool reaches(const ir::Function& function) const = 0;
  /// Emits at the builder's insertion point an instruction that puts the device address of this
  /// launch's buffer into a fresh 64-bit register, and returns the register. Only in functions
  /// `reaches` accepts.
  virtual ir::RegisterRef bufferAddress(ir::IRBuilder& builder) const = 0;

protected:
  BufferAccess() = default;
  BufferAccess(const BufferAccess&) = default;
  BufferAccess& operator=(const BufferAccess&) = default;
};

/// What an instrumentor learns about the module it instruments.
struct InstrumentationTarget {
  /// The variant chosen with PTXInstrumentor::variant (the same for every launch that uses the
  /// instrumented module).
  uint32_t variant = 0;
  /// The GPU architecture the code is compiled for (90 for sm_90): the features instrumentation
  /// code may use (redux.sync needs 80).
  unsigned architecture = 0;
  /// The module is one unit of a device-linked (-rdc) program: functions it declares but does not
  /// define live in other units.
  bool linked = false;
  const BufferAccess* buffer = nullptr;
};

/// Facts about one kernel of a module, known before it is instrumented, from which an
/// instrumentor chooses the variant a launch needs.
struct KernelFacts {
  uint32_t basicBlocks = 0;          ///< blocks of the kernel
  uint32_t deviceFunctionBlocks = 0; ///< blocks of all device functions defined in the module
  uint32_t instructions = 0;
};

/// An instrumentor's choice for one launch.
struct VariantChoice {
  uint32_t variant = 0;
  /// Why it is not the configured one (logged once per kernel and recorded in the profile).
  std::string note;
};

/// What an instrumentor needs on the device for one launch: a buffer of `bytes`, filled with
/// `fill` before the kernel runs, copied back after it.
struct BufferRequest {
  uint64_t bytes = 0;
  uint8_t fill = 0;
};

/// The per-module state an instrumentor keeps between instrument() and finalize(): block tables,
/// counter layouts. Created by analyze(); filled by the instrumentor's passes; read-only after the
/// module is instrumented (then shared by all launches of the module, from any thread).
class InstrumentorModuleState {
public:
  virtual ~InstrumentorModuleState() = default;

protected:
  InstrumentorModuleState() = default;
  InstrumentorModuleState(const InstrumentorModuleState&) = default;
  InstrumentorModuleState& operator=(const InstrumentorModuleState&) = default;
};

/// An instrumentor. Instances are immutable once constructed (all methods are const and keep
/// their per-module state in the InstrumentorModuleState they create), so one instance serves any
/// number of modules, launches and threads at once.
class PTXInstrumentor {
public:
  virtual ~PTXInstrumentor() = default;

  /// Short name: "bbcount". Results, profiles and OCELOT_INSTRUMENTORS use it.
  virtual std::string_view name() const = 0;
  /// The options in canonical form ("mode=per-warp"); empty without options.
  virtual std::string options() const { return {}; }

  /// The variant of instrumented code `launch` of a kernel with `facts` needs (0 by default).
  /// Launches that need different variants run differently instrumented modules.
  virtual VariantChoice variant(const LaunchInfo& launch, const KernelFacts& facts) const;

  /// 1. Before any device resources exist: inspects the module (it must not change it) and
  /// returns the state this instrumentor keeps for it. Throwing makes the module run
  /// uninstrumented, with the message in the log and in every profile of its launches.
  virtual std::unique_ptr<InstrumentorModuleState>
  analyze(ir::Module& module, passes::AnalysisManager& analyses,
          const InstrumentationTarget& target) const = 0;

  /// 2. Adds the passes that instrument the module. The pass manager runs the passes of every
  /// active instrumentor together, coalescing basic-block passes (Figure 3 of the paper).
  virtual void instrument(InstrumentorModuleState& state, passes::PassManager& passes,
                          const InstrumentationTarget& target) const = 0;

  /// 3. Before each launch: the buffer the launch needs.
  virtual BufferRequest initialize(const InstrumentorModuleState& state,
                                   const LaunchInfo& launch) const = 0;

  /// 4. After the launch finished: the result, from the buffer's contents.
  virtual std::shared_ptr<const InstrumentorResult>
  finalize(const InstrumentorModuleState& state, const LaunchInfo& launch,
           const DeviceFacts& device, std::span<const std::byte> buffer) const = 0;

protected:
  PTXInstrumentor() = default;
  PTXInstrumentor(const PTXInstrumentor&) = default;
  PTXInstrumentor& operator=(const PTXInstrumentor&) = default;
};

} // namespace ocelot
