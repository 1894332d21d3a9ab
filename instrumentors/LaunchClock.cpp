#include "instrumentors/LaunchClock.h"

#include "instrumentors/LaunchClockPass.h"

#include <algorithm>
#include <cstring>
#include <limits>

namespace ocelot::instrumentors {

namespace {

/// Nothing per module.
class LaunchClockState final : public InstrumentorModuleState {};

} // namespace

std::unique_ptr<InstrumentorModuleState> LaunchClock::analyze(ir::Module&, passes::AnalysisManager&,
                                                              const InstrumentationTarget&) const {
  return std::make_unique<LaunchClockState>();
}

void LaunchClock::instrument(InstrumentorModuleState&, passes::PassManager& passes,
                             const InstrumentationTarget& target) const {
  passes.add<LaunchClockPass>(*target.buffer);
}

BufferRequest LaunchClock::initialize(const InstrumentorModuleState&, const LaunchInfo&) const {
  // Zero is the identity of both fields: max of complements, max.
  return {kRecords * kRecordBytes, 0};
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
