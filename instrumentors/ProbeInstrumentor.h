#pragma once

#include "instrumentors/ProbeProgram.h"
#include "ocelot/Instrumentor.h"
#include "ocelot/ProbeTool.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>

namespace ocelot::instrumentors {

/// A probe tool as an instrumentor: analyze places the probes (placeProbes), instrument adds the
/// pass that inlines them, initialize sizes the launch's buffer from the region layout, finalize
/// decodes it into ProbeData and hands that to the tool's result function.
///
/// Variants: bit p set leaves probe p out (its `sample-launches` skips this launch);
/// kDisabledVariant runs the original kernels: a launch found a probe writing outside its
/// regions, and the tool stays off for the rest of the process (every later module's analyze
/// throws, with the reason).
class ProbeInstrumentor final : public PTXInstrumentor {
public:
  static constexpr uint32_t kDisabledVariant = 1u << 31;

  /// Shared by every instance a definition's factory makes: the definition and its program,
  /// parsed once; the disabled flag.
  struct Shared {
    ProbeToolDefinition definition;
    std::mutex mutex;
    std::shared_ptr<const ProbeProgram> program; ///< parsed at the first instance
    std::atomic<bool> disabled{false};
    std::string disabledReason;
  };

  /// Throws std::invalid_argument for unknown options and for probes that cannot be used (every
  /// problem, each naming its probe).
  ProbeInstrumentor(std::shared_ptr<Shared> shared, const InstrumentorOptions& options);

  std::string_view name() const override { return shared_->definition.name; }
  std::string options() const override { return options_.toString(); }
  VariantChoice variant(const LaunchInfo& launch, const KernelFacts& facts) const override;
  std::unique_ptr<InstrumentorModuleState>
  analyze(ir::Module& module, passes::AnalysisManager& analyses,
          const InstrumentationTarget& target) const override;
  void instrument(InstrumentorModuleState& state, passes::PassManager& passes,
                  const InstrumentationTarget& target) const override;
  BufferRequest initialize(const InstrumentorModuleState& state,
                           const LaunchInfo& launch) const override;
  std::shared_ptr<const InstrumentorResult>
  finalize(const InstrumentorModuleState& state, const LaunchInfo& launch,
           const DeviceFacts& device, std::span<const std::byte> buffer) const override;

  const ProbeProgram& program() const { return *program_; }

private:
  std::shared_ptr<Shared> shared_;
  std::shared_ptr<const ProbeProgram> program_;
  InstrumentorOptions options_;
  /// Register units that counter updates in loops may accumulate in, per function (option
  /// loop-registers; 0: every update stays atomic).
  uint32_t loopRegisters_ = 32;
};

/// The plugin factory of a definition registered through registerProbeTool.
void* createProbeInstrumentor(const char* options, char* error, size_t errorSize, void* shared);

/// The host structure's register_probe_tool (ocelot/Plugin.h): registers the probe tool of
/// `definition` (a ProbeToolDefinition*, moved from) into `registry` (an InstrumentorRegistry).
int registerProbeToolThroughHost(void* registry, void* definition);

} // namespace ocelot::instrumentors
