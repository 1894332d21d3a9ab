#include "instrumentors/LaunchClock.h"

#include "instrumentors/KernelBoundaries.h"
#include "instrumentors/LaunchClockPass.h"
#include "ir/Module.h"

#include <algorithm>
#include <cstring>
#include <limits>

namespace ocelot::instrumentors {

namespace {

/// Whether the module's kernels signal their end (see signalsCompletion).
class LaunchClockState final : public InstrumentorModuleState {
public:
  bool signals = false;
  std::string why;
};

} // namespace

std::unique_ptr<InstrumentorModuleState>
LaunchClock::analyze(ir::Module& module, passes::AnalysisManager& analyses,
                     const InstrumentationTarget& target) const {
  return analyze(module, analyses, target, nullptr);
}

void LaunchClock::instrument(InstrumentorModuleState& state, passes::PassManager& passes,
                             const InstrumentationTarget& target) const {
  instrument(state, passes, target, nullptr);
}

std::unique_ptr<InstrumentorModuleState>
LaunchClock::analyze(ir::Module& module, passes::AnalysisManager&,
                     const InstrumentationTarget& target, const BufferAccess* completion) const {
  auto state = std::make_unique<LaunchClockState>();
  if (completion == nullptr) {
    state->why = "the module has no completion slot";
    return state;
  }
  // A thread that leaves in code the pass does not instrument is never counted: the count would
  // never reach the grid's size. Kernels the plan leaves out run uninstrumented (an event then).
  for (const ir::Function* f : module.functions())
    if (!f->isEntry() && f->hasBody() && !target.buffer->reaches(*f) && hasExitInstruction(*f)) {
      state->why = "device function " + std::string(f->name()) +
                   " has an exit that instrumentation cannot reach";
      return state;
    }
  state->signals = true;
  return state;
}

void LaunchClock::instrument(InstrumentorModuleState& state, passes::PassManager& passes,
                             const InstrumentationTarget& target,
                             const BufferAccess* completion) const {
  const bool signals = static_cast<const LaunchClockState&>(state).signals;
  passes.add<LaunchClockPass>(*target.buffer, signals ? completion : nullptr);
}

BufferRequest LaunchClock::initialize(const InstrumentorModuleState&, const LaunchInfo&) const {
  // Zero is the identity of both record fields (max of complements, max) and the exit count's
  // start.
  return {kBufferBytes, 0};
}

bool LaunchClock::signalsCompletion(const InstrumentorModuleState& state, std::string* why) {
  const auto* clock = dynamic_cast<const LaunchClockState*>(&state);
  if (clock == nullptr) {
    if (why != nullptr)
      *why = "not the launch clock's state";
    return false;
  }
  if (why != nullptr)
    *why = clock->why;
  return clock->signals;
}

std::shared_ptr<const InstrumentorResult> LaunchClock::finalize(const InstrumentorModuleState&,
                                                                const LaunchInfo&,
                                                                const DeviceFacts&,
                                                                std::span<const std::byte>) const {
  return nullptr;
}

std::optional<uint64_t> LaunchClock::gpuNanoseconds(std::span<const std::byte> buffer) {
  if (buffer.size() < kRecords * kRecordBytes)
    return std::nullopt;
  uint64_t start = std::numeric_limits<uint64_t>::max(), end = 0;
  for (uint32_t r = 0; r < kRecords; ++r) {
    uint64_t notStart = 0, last = 0;
    std::memcpy(&notStart, buffer.data() + r * kRecordBytes, sizeof notStart);
    std::memcpy(&last, buffer.data() + r * kRecordBytes + 8, sizeof last);
    if (notStart != 0)
      start = std::min(start, ~notStart);
    end = std::max(end, last);
  }
  if (start == std::numeric_limits<uint64_t>::max() || end == 0 || end < start)
    return std::nullopt;
  return end - start;
}

} // namespace ocelot::instrumentors
