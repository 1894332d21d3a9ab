#include "instrumentors/ProbeInstrumentor.h"

#include "instrumentors/InstrumentorRegistry.h"
#include "instrumentors/ProbeCounterPromotion.h"
#include "instrumentors/ProbeInsertionPass.h"
#include "instrumentors/ProbeSites.h"

#include <cstdio>
#include <cstring>
#include <stdexcept>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#endif

namespace ocelot::instrumentors {

namespace {

/// Register units (32-bit) the counters that move out of loops may take per function: bbcount's
/// default budget for its loop counters.
constexpr uint32_t kPromotedCounterRegisters = 32;

/// The option that sets that budget: `loop-registers=N` units, `on` (the default budget) or `off`
/// (every counter update stays atomic).
constexpr std::string_view kLoopRegistersOption = "loop-registers";

uint32_t loopRegisterBudget(const InstrumentorOptions& options) {
  const std::string text = options.text(kLoopRegistersOption, "on");
  if (!text.empty() && text.find_first_not_of("0123456789") == std::string::npos && text.size() < 4)
    return static_cast<uint32_t>(std::stoul(text));
  if (options.flag(kLoopRegistersOption, true))
    return kPromotedCounterRegisters;
  return 0;
}

uint64_t word(std::span<const std::byte> buffer, uint64_t offset) {
  uint64_t value = 0;
  if (offset + 8 <= buffer.size())
    std::memcpy(&value, buffer.data() + offset, 8);
  return value;
}

ProbeRegion publicRegion(const RegionSpec& spec) {
  ProbeRegion r;
  r.name = spec.name;
  r.kind = spec.kind;
  r.per = std::string(perName(spec.per));
  r.type = spec.type;
  r.elementBytes = spec.bytes;
  r.stripes = spec.stripes;
  r.bins = spec.bins;
  return r;
}

} // namespace

ProbeInstrumentor::ProbeInstrumentor(std::shared_ptr<Shared> shared,
                                     const InstrumentorOptions& options)
    : shared_(std::move(shared)), options_(options) {
  {
    std::lock_guard lock(shared_->mutex);
    if (!shared_->program)
      shared_->program = std::make_shared<const ProbeProgram>(shared_->definition.ptx);
    program_ = shared_->program;
  }
  bool overrides = false;
  try {
    loopRegisters_ = loopRegisterBudget(options);
  } catch (const std::invalid_argument&) {
    throw std::invalid_argument(
        shared_->definition.name + ": option " + std::string(kLoopRegistersOption) + "=" +
        options.text(kLoopRegistersOption) + ": expected on, off or a number of 32-bit registers");
  }
  for (const auto& [key, value] : options.values()) {
    (void)value;
    const auto& known = shared_->definition.options;
    if (key == kLoopRegistersOption)
      continue;
    if (program_->isOverride(key))
      overrides = true;
    else if (std::find(known.begin(), known.end(), key) == known.end())
      throw std::invalid_argument(
          shared_->definition.name + ": unknown option '" + key +
          "' (the tool's own, or PROBE.sample-warps, PROBE.sample-launches, "
          "PROBE.kernel, REGION.count, loop-registers)");
  }
  if (overrides) {
    try {
      program_ = std::make_shared<const ProbeProgram>(program_->configured(options));
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(shared_->definition.name + ": " + e.what());
    }
  }
}

VariantChoice ProbeInstrumentor::variant(const LaunchInfo& launch, const KernelFacts&) const {
  if (shared_->disabled.load(std::memory_order_acquire))
    return {kDisabledVariant, {}};
  uint32_t sampledOut = 0;
  const auto& probes = program_->probes();
  for (uint32_t p = 0; p < probes.size(); ++p) {
    uint32_t every = probes[p].spec.placement.sampleLaunches;
    if (every > 1 && launch.kernelLaunchIndex > 0 && (launch.kernelLaunchIndex - 1) % every != 0)
      sampledOut |= 1u << p;
  }
  return {sampledOut, {}};
}

std::unique_ptr<InstrumentorModuleState>
ProbeInstrumentor::analyze(ir::Module& module, passes::AnalysisManager& analyses,
                           const InstrumentationTarget& target) const {
  if ((target.variant & kDisabledVariant) != 0) {
    std::lock_guard lock(shared_->mutex);
    throw std::runtime_error(shared_->disabledReason);
  }
  unsigned probes = program_->architecture();
  unsigned arch = target.architecture;
  if (arch != 0 && probes != 0 && arch < probes)
    throw std::runtime_error("the probes are compiled for sm_" + std::to_string(probes) +
                             " and the module targets sm_" + std::to_string(arch));
  if (target.buffer == nullptr)
    throw std::runtime_error("no instrumentation buffer");
  auto state = placeProbes(module, analyses, *program_, *target.buffer, target.variant);
  state->blockCounts =
      placeProbeBlockCounts(module, analyses, *program_, *target.buffer, target, state->firstBlock);
  return state;
}

void ProbeInstrumentor::instrument(InstrumentorModuleState& state, passes::PassManager& passes,
                                   const InstrumentationTarget& target) const {
  auto& s = static_cast<ProbeModuleState&>(state);
  // Block counts first: they do not split blocks, and count at each block's start.
  addProbeBlockCountPasses(s.blockCounts, s.fixedLayout, passes, *target.buffer);
  passes.add<ProbeInsertionPass>(s, *target.buffer);
  // Then the probes' counter updates in loops move into registers, flushed at the loops' exits
  // (docs/probes.md, "Counters in loops"). Their registers count as the probes' own.
  if (!loopRegisters_)
    return;
  passes.add<ProbeCounterPromotionPass>(
      *target.buffer, loopRegisters_, [&s](const ir::Function& function, uint32_t units) {
        auto index = s.functionIndex.find(&function);
        if (index != s.functionIndex.end())
          s.tables->functions[index->second].ptxRegisters += units;
      });
}

BufferRequest ProbeInstrumentor::initialize(const InstrumentorModuleState& state,
                                            const LaunchInfo& launch) const {
  const auto& s = static_cast<const ProbeModuleState&>(state);
  ProbeLayout layout = ProbeLayout::compute(program_->regions(), program_->probes().size(),
                                            s.counts, ProbeLaunchShape::of(launch));
  return {layout.totalBytes, 0};
}

std::shared_ptr<const InstrumentorResult>
ProbeInstrumentor::finalize(const InstrumentorModuleState& state, const LaunchInfo& launch,
                            const DeviceFacts& device, std::span<const std::byte> buffer) const {
  const auto& s = static_cast<const ProbeModuleState&>(state);
  const auto& regions = program_->regions();
  ProbeLayout layout = ProbeLayout::compute(regions, program_->probes().size(), s.counts,
                                            ProbeLaunchShape::of(launch));
  std::vector<std::string> errors;
  if (buffer.size() < layout.totalBytes)
    errors.push_back("the buffer holds " + std::to_string(buffer.size()) + " bytes, not " +
                     std::to_string(layout.totalBytes));
  for (size_t p = 0; p < program_->probes().size(); ++p)
    if (word(buffer, 8 * (1 + p)) != 0)
      errors.push_back("probe '" + program_->probes()[p].spec.name +
                       "' wrote outside its regions (the writes were suppressed); the tool is "
                       "off for the rest of the run");
  if (!errors.empty() && !shared_->disabled.load()) {
    std::lock_guard lock(shared_->mutex);
    shared_->disabledReason = shared_->definition.name + " is off: " + errors.front();
    shared_->disabled.store(true, std::memory_order_release);
  }
  std::vector<ProbeData::RegionBytes> bytes;
  for (size_t r = 0; r < regions.size(); ++r) {
    ProbeData::RegionBytes region;
    region.region = publicRegion(regions[r]);
    const ProbeLayout::Region& place = layout.regions[r];
    region.elements = place.elements;
    uint64_t dataBytes = place.elements * regions[r].bytes;
    if (place.offset + ProbeLayout::kRegionHeader + dataBytes <= buffer.size()) {
      region.bytes = buffer.subspan(place.offset + ProbeLayout::kRegionHeader, dataBytes);
      region.dropped = word(buffer, place.offset);
      region.written = word(buffer, place.offset + 8);
      if (regions[r].kind == ProbeRegion::Kind::Stream && region.written > place.elements)
        region.dropped += region.written - place.elements;
      for (const ProbeBlockCounting& counts : s.blockCounts)
        if (counts.region == r) {
          // Derived blocks filled in, in memory the data owns.
          region.storage = std::make_shared<const std::vector<std::byte>>(
              completeBlockCounts(counts, region.bytes));
          region.bytes = *region.storage;
        }
    } else {
      region.elements = 0;
    }
    bytes.push_back(std::move(region));
  }
  ProbeData data(shared_->definition.name, launch, device, options_, s.tables, std::move(bytes),
                 std::move(errors));
  if (shared_->definition.result)
    return shared_->definition.result(data);
  return std::make_shared<ProbeResult>(data);
}

void* createProbeInstrumentor(const char* options, char* error, size_t errorSize, void* shared) {
  try {
    auto* owner = static_cast<std::shared_ptr<ProbeInstrumentor::Shared>*>(shared);
    return static_cast<PTXInstrumentor*>(new ProbeInstrumentor(
        *owner, InstrumentorOptions::parse(options != nullptr ? options : "")));
  } catch (const std::exception& e) {
    if (error != nullptr && errorSize > 0)
      std::snprintf(error, errorSize, "%s", e.what());
    return nullptr;
  }
}

} // namespace ocelot::instrumentors

namespace ocelot::instrumentors {

int registerProbeToolThroughHost(void* registry, void* definitionPointer) {
  if (registry == nullptr || definitionPointer == nullptr)
    return 1;
  auto& definition = *static_cast<ProbeToolDefinition*>(definitionPointer);
  // Lives as long as the process: the registry keeps the factory and its user data.
  auto* shared =
      new std::shared_ptr<ProbeInstrumentor::Shared>(std::make_shared<ProbeInstrumentor::Shared>());
  (*shared)->definition = std::move(definition);
  const ProbeToolDefinition& d = (*shared)->definition;
  int failed = InstrumentorRegistry::registerThroughHost(
      registry, d.name.c_str(), d.description.c_str(), &createProbeInstrumentor, shared);
  if (failed != 0) {
    // Not registered (name taken or malformed): nothing refers to it.
    delete shared;
    return failed;
  }
#if defined(__SANITIZE_ADDRESS__)
  // The plugin ABI cannot hand the registry a destructor for user data, so this stays allocated
  // on purpose after a registry goes away (tests make many); not a leak to report.
  __lsan_ignore_object(shared);
#endif
  return 0;
}

} // namespace ocelot::instrumentors
