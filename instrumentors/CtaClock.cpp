#include "instrumentors/CtaClock.h"

#include "instrumentors/CtaClockPass.h"
#include "ocelot/CtaClockTimes.h"

#include <cstring>
#include <stdexcept>

namespace ocelot::instrumentors {

namespace {

/// CtaClock keeps nothing per module: records are indexed by CTA alone.
class CtaClockState final : public InstrumentorModuleState {};

template <class T> T readField(std::span<const std::byte> buffer, uint64_t offset) {
  T value{};
  std::memcpy(&value, buffer.data() + offset, sizeof value);
  return value;
}

} // namespace

CtaClock::CtaClock(const InstrumentorOptions& options) {
  options.checkKnown("ctaclock", {});
}

std::unique_ptr<InstrumentorModuleState> CtaClock::analyze(ir::Module&, passes::AnalysisManager&,
                                                           const InstrumentationTarget&) const {
  return std::make_unique<CtaClockState>();
}

void CtaClock::instrument(InstrumentorModuleState&, passes::PassManager& passes,
                          const InstrumentationTarget& target) const {
  passes.add<CtaClockPass>(*target.buffer);
}

BufferRequest CtaClock::initialize(const InstrumentorModuleState&, const LaunchInfo& launch) const {
  // Zero is the identity of every field: max over complements, max, add.
  return {launch.ctas() * kRecordBytes, 0};
}

std::shared_ptr<const InstrumentorResult>
CtaClock::finalize(const InstrumentorModuleState&, const LaunchInfo& launch,
                   const DeviceFacts& device, std::span<const std::byte> buffer) const {
  uint64_t count = launch.ctas();
  if (buffer.size() < count * kRecordBytes)
    throw std::runtime_error("ctaclock: the record buffer is smaller than the grid");
  std::vector<CtaClockTimes::Cta> ctas(count);
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t at = i * kRecordBytes;
    CtaClockTimes::Cta& cta = ctas[i];
    cta.index = i;
    cta.warpsStarted = readField<uint32_t>(buffer, at + 36);
    cta.threadsExited = readField<uint32_t>(buffer, at + 40);
    if (cta.warpsStarted == 0)
      continue;
    cta.startCycle = ~readField<uint64_t>(buffer, at + 0);
    cta.endCycle = readField<uint64_t>(buffer, at + 8);
    cta.startNs = ~readField<uint64_t>(buffer, at + 16);
    cta.endNs = readField<uint64_t>(buffer, at + 24);
    uint32_t smPlusOne = readField<uint32_t>(buffer, at + 32);
    cta.sm = smPlusOne > 0 ? smPlusOne - 1 : 0;
  }
  return std::make_shared<CtaClockTimes>(launch, device, std::move(ctas));
}

} // namespace ocelot::instrumentors
