#include "instrumentors/ProbeBlockCounts.h"

#include "instrumentors/PerWarpCountPass.h"
#include "passes/CallGraph.h"
#include "passes/PassManager.h"

#include <algorithm>
#include <cstring>

namespace ocelot::instrumentors {

namespace {

/// Register counters per kernel and region: bbcount's default (see BasicBlockCounter.cpp).
constexpr uint32_t kRegisterCounters = 32;

/// The launch's buffer seen from one region's counters: bbcount's passes address counter rows
/// from the start of their buffer.
class RegionAccess final : public BufferAccess {
public:
  RegionAccess(const BufferAccess& buffer, uint64_t offset) : buffer_(buffer), offset_(offset) {}
  bool reaches(const ir::Function& function) const override { return buffer_.reaches(function); }
  ir::RegisterRef bufferAddress(ir::IRBuilder& b) const override {
    ir::RegisterRef base = buffer_.bufferAddress(b);
    return b.add(ir::ScalarType::U64, ir::IRBuilder::reg(base),
                 ir::IRBuilder::imm(static_cast<int64_t>(offset_)));
  }

private:
  const BufferAccess& buffer_;
  uint64_t offset_;
};

} // namespace

std::vector<ProbeBlockCounting>
placeProbeBlockCounts(ir::Module& module, passes::AnalysisManager& analyses,
                      const ProbeProgram& program, const BufferAccess& buffer,
                      const InstrumentationTarget& target,
                      const std::map<const ir::Function*, uint32_t>& firstBlock) {
  std::vector<ProbeBlockCounting> counts;
  uint32_t blocks = 0;
  for (const auto& [function, first] : firstBlock)
    blocks = std::max(blocks, first + static_cast<uint32_t>(function->blocks().size()));
  for (size_t r = 0; r < program.regions().size(); ++r) {
    const RegionSpec& region = program.regions()[r];
    if (region.entries == RegionSpec::Entries::None)
      continue;
    ProbeBlockCounting& c = counts.emplace_back();
    c.region = r;
    c.counters->countWarps = region.entries == RegionSpec::Entries::Warps;
    c.counters->stripes = region.stripes;
    c.blocks.resize(blocks);
  }
  if (counts.empty())
    return counts;
  const auto& calls = analyses.getResult<passes::CallGraphAnalysis>(module);
  for (ir::Function* f : module.functions()) {
    auto first = firstBlock.find(f);
    if (!f->hasBody() || !buffer.reaches(*f) || first == firstBlock.end())
      continue;
    // Device functions count with atomics (registers are flushed at the kernel's exits).
    uint32_t registers = f->isEntry() ? kernelRegisterCounters(*f, calls, target.architecture,
                                                               target.linked, kRegisterCounters)
                                      : 0;
    CounterPlacement placement = placeCounters(*f, analyses, PlacementOptions{true, registers});
    for (ProbeBlockCounting& c : counts) {
      c.counters->record(*f, placement, first->second);
      for (uint32_t b = 0; b < placement.blocks.size(); ++b) {
        BlockCounter counter = placement.blocks[b];
        if (counter.kind == CounterKind::Derived)
          counter.source += first->second;
        c.blocks[first->second + b] = counter;
      }
    }
    // As bbcount does: a large module's analyses are not held for every function at once.
    analyses.clear(f);
    analyses.releaseRetired();
  }
  return counts;
}

void addProbeBlockCountPasses(std::vector<ProbeBlockCounting>& counts, const ProbeLayout& layout,
                              passes::PassManager& passes, const BufferAccess& buffer) {
  for (ProbeBlockCounting& c : counts) {
    c.access = std::make_unique<RegionAccess>(buffer, layout.regions.at(c.region).offset +
                                                          ProbeLayout::kRegionHeader);
    passes.add<PerWarpCountPass>(*c.counters, *c.access);
  }
}

std::vector<std::byte> completeBlockCounts(const ProbeBlockCounting& counts,
                                           std::span<const std::byte> bytes) {
  std::vector<std::byte> out(bytes.begin(), bytes.end());
  const uint64_t row = uint64_t{counts.counters->stripes} * 8;
  if (out.size() < counts.blocks.size() * row)
    return out; // a short buffer: finalize reports it
  for (size_t b = 0; b < counts.blocks.size(); ++b) {
    const BlockCounter& counter = counts.blocks[b];
    if (counter.kind == CounterKind::Derived)
      std::memcpy(out.data() + b * row, bytes.data() + counter.source * row, row);
    else if (counter.kind == CounterKind::Unreachable)
      std::memset(out.data() + b * row, 0, row);
  }
  return out;
}

} // namespace ocelot::instrumentors
