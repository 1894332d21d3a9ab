#include "instrumentors/BasicBlockCounter.h"

#include "instrumentors/BlockCountState.h"
#include "instrumentors/PerThreadCountPass.h"
#include "instrumentors/PerWarpCountPass.h"
#include "ir/Casting.h"
#include "ocelot/BasicBlockCounts.h"
#include "passes/CallGraph.h"
#include "passes/ControlFlowGraph.h"
#include "passes/LoopInfo.h"
#include "passes/SourceLines.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <stdexcept>
#include <unordered_set>

namespace ocelot::instrumentors {

namespace {

constexpr uint64_t kDefaultBudgetMb = 512;

uint64_t budgetFromEnvironment() {
  const char* text = std::getenv("OCELOT_BBCOUNT_BUDGET_MB");
  if (text == nullptr || *text == '\0')
    return kDefaultBudgetMb;
  InstrumentorOptions parsed;
  parsed.set("budget-mb", text);
  return parsed.unsignedNumber("budget-mb", kDefaultBudgetMb); // throws on garbage
}

std::string locationText(const passes::SourceLineMap& lines, passes::ControlFlowGraph::Node node) {
  const ir::SourceLoc& loc = lines.firstLocation(node);
  if (loc.file == 0)
    return {};
  std::string_view file = lines.fileName(loc.file);
  if (auto slash = file.find_last_of("/\\"); slash != std::string_view::npos)
    file = file.substr(slash + 1);
  return std::string(file.empty() ? "?" : file) + ":" + std::to_string(loc.line);
}

/// Register counters per function in the per-warp mode. Measured on an H200 (2026-11-21, the
/// instrumentation benchmark's ten kernels): 4 left loop blocks beyond the fourth on memory
/// atomics (matmul 5.6x, histogram 11.8x, scan 4.7x); 32 brings the geomean slowdown from 2.06x
/// to 1.16x, and more registers than a loop nest needs cost nothing.
constexpr uint32_t kDefaultRegisters = 32;

/// Whether a 32-bit register counter can have wrapped in a launch: a thread enters a block at
/// most once per cycle, so a launch shorter than 2^32 cycles at the peak clock cannot wrap one.
/// Without a clock (the CPU device reports none) 5 GHz bounds every processor's issue rate; without
/// the launch's time it can have wrapped.
bool registerCountersMayWrap(const DeviceFacts& device) {
  if (device.kernelMilliseconds <= 0)
    return true;
  constexpr double kFastestClockKHz = 5e6;
  double clockKHz = device.clockRateKHz > 0 ? device.clockRateKHz : kFastestClockKHz;
  return device.kernelMilliseconds * clockKHz >= 4294967296.0;
}

/// Collects CodeStructure functions while the module is analyzed, in any order (each function's
/// analyses can then be dropped as soon as it is described); take() puts them in module order and
/// numbers the files in the order the module's functions first name them, blocks and instructions
/// in order.
class StructureBuilder {
public:
  explicit StructureBuilder(size_t functionCount) : pending_(functionCount) {}

  /// Describes the function at `position` of the module's function list.
  void addFunction(size_t position, ir::Function& f, passes::AnalysisManager& analyses) {
    const auto& cfg = analyses.getResult<passes::ControlFlowGraphAnalysis>(f);
    const auto& loops = analyses.getResult<passes::LoopAnalysis>(f);
    const auto& lines = analyses.getResult<passes::SourceLineAnalysis>(f);
    Pending& pending = pending_.at(position);
    pending.described = true;
    CodeStructure::Function& function = pending.function;
    function.name = std::string(f.name());
    function.entry = f.isEntry();
    for (uint32_t b = 0; b < cfg.blockCount(); ++b) {
      CodeStructure::Block block;
      for (const auto& edge : cfg.successors(b)) {
        if (cfg.isVirtual(edge.to))
          block.exits = true;
        else
          block.successors.push_back(edge.to);
      }
      block.loopDepth = loops.depth(b);
      block.loopHeader = loops.isHeader(b);
      // Files by their index in pending.files (the function's own numbering) for now.
      std::map<std::pair<uint32_t, uint32_t>, uint32_t> perLine;
      cfg.block(b)->forEachInstruction([&](const ir::Instruction& inst) {
        const ir::SourceLoc& loc = inst.sourceLoc();
        if (loc.file != 0 && loc.line != 0)
          ++perLine[{localFile(pending, lines.fileName(loc.file)), loc.line}];
      });
      for (const auto& [where, count] : perLine)
        block.lines.push_back({where.first, where.second, count});
      function.blocks.push_back(std::move(block));
    }
  }

  std::shared_ptr<const CodeStructure> take() {
    std::vector<std::string> files;
    std::map<std::string, uint32_t> index;
    std::vector<CodeStructure::Function> functions;
    for (Pending& pending : pending_) {
      if (!pending.described)
        continue;
      std::vector<uint32_t> global;
      for (std::string& name : pending.files) {
        auto [it, added] = index.emplace(name, static_cast<uint32_t>(files.size()));
        if (added)
          files.push_back(std::move(name));
        global.push_back(it->second);
      }
      for (CodeStructure::Block& block : pending.function.blocks) {
        for (CodeStructure::Line& line : block.lines)
          line.file = global[line.file];
        std::sort(block.lines.begin(), block.lines.end(), [](const auto& a, const auto& b) {
          return std::pair(a.file, a.line) < std::pair(b.file, b.line);
        });
      }
      functions.push_back(std::move(pending.function));
    }
    pending_.clear();
    return std::make_shared<const CodeStructure>(std::move(files), std::move(functions));
  }

private:
  struct Pending {
    bool described = false;
    CodeStructure::Function function;
    std::vector<std::string> files; ///< in the order the function names them first
  };
  static uint32_t localFile(Pending& pending, std::string_view name) {
    for (uint32_t i = 0; i < pending.files.size(); ++i)
      if (pending.files[i] == name)
        return i;
    pending.files.emplace_back(name);
    return static_cast<uint32_t>(pending.files.size() - 1);
  }

  std::vector<Pending> pending_;
};

} // namespace

BasicBlockCounter::BasicBlockCounter(const InstrumentorOptions& options) {
  options.checkKnown("bbcount", {"mode", "budget-mb", "stripes", "registers", "derive"});
  std::string mode = options.text("mode", "per-warp");
  if (mode == "per-thread" || mode == "matrix")
    perThread_ = true;
  else if (mode != "per-warp" && mode != "aggregated")
    throw std::invalid_argument("bbcount: mode=" + mode + ": expected per-warp or per-thread");
  budgetBytes_ = (options.has("budget-mb") ? options.unsignedNumber("budget-mb", 0)
                                           : budgetFromEnvironment()) *
                 (uint64_t{1} << 20);
  stripes_ = static_cast<uint32_t>(options.unsignedNumber("stripes", 32));
  if (stripes_ == 0 || stripes_ > 1024 || (stripes_ & (stripes_ - 1)) != 0)
    throw std::invalid_argument("bbcount: stripes must be a power of two from 1 to 1024");
  registers_ = static_cast<uint32_t>(options.unsignedNumber("registers", kDefaultRegisters));
  if (registers_ > 64)
    throw std::invalid_argument("bbcount: at most 64 register counters");
  derive_ = options.flag("derive", true);
}

std::string BasicBlockCounter::options() const {
  InstrumentorOptions canonical;
  canonical.set("mode", perThread_ ? "per-thread" : "per-warp");
  if (perThread_)
    canonical.set("budget-mb", std::to_string(budgetBytes_ >> 20));
  canonical.set("stripes", std::to_string(stripes_));
  canonical.set("registers", std::to_string(registers_));
  canonical.set("derive", derive_ ? "on" : "off");
  return canonical.toString();
}

VariantChoice BasicBlockCounter::variant(const LaunchInfo& launch, const KernelFacts& facts) const {
  if (!perThread_)
    return {kPerWarp, {}};
  uint64_t rows = uint64_t{facts.basicBlocks} + facts.deviceFunctionBlocks;
  // rows x threads x 8 bytes, guarding the multiplication against overflow.
  uint64_t threads = launch.threads();
  bool tooLarge = threads != 0 && rows > budgetBytes_ / 8 / threads;
  if (!tooLarge)
    return {kPerThread, {}};
  double megabytes = static_cast<double>(rows) * static_cast<double>(threads) * 8 / (1 << 20);
  char note[240];
  std::snprintf(note, sizeof note,
                "bbcount: the per-thread counter matrix would need %.*f MB (%llu blocks x %llu "
                "threads x 8 bytes), over the %llu MB budget: counting per warp instead",
                megabytes < 10 ? 2 : 0, megabytes, static_cast<unsigned long long>(rows),
                static_cast<unsigned long long>(threads),
                static_cast<unsigned long long>(budgetBytes_ >> 20));
  return {kPerWarp, note};
}

std::unique_ptr<InstrumentorModuleState>
BasicBlockCounter::analyze(ir::Module& module, passes::AnalysisManager& analyses,
                           const InstrumentationTarget& target) const {
  auto state = std::make_unique<BlockCountState>();
  state->perThread = target.variant == kPerThread;
  state->stripes = state->perThread ? 1 : stripes_;
  const BufferAccess& buffer = *target.buffer;
  const auto& calls = analyses.getResult<passes::CallGraphAnalysis>(module);
  // register counters need the per-warp mode
  const uint32_t registers = state->perThread ? 0 : registers_;

  auto describeBlocks = [&](ir::Function& f, const PlacementOptions& placementOptions,
                            std::vector<CountedBlock>& rows, uint32_t firstRow, bool counted) {
    const auto& cfg = analyses.getResult<passes::ControlFlowGraphAnalysis>(f);
    const auto& lines = analyses.getResult<passes::SourceLineAnalysis>(f);
    CounterPlacement placement = placeCounters(f, analyses, placementOptions);
    if (counted)
      state->record(f, placement, firstRow);
    if (rows.empty()) // a kernel's own rows (the device functions' list grows geometrically)
      rows.reserve(cfg.blockCount());
    for (uint32_t b = 0; b < cfg.blockCount(); ++b) {
      const ir::BasicBlock& block = *cfg.block(b);
      CountedBlock row;
      row.function = std::string(f.name());
      row.index = b;
      if (const ir::Label* label = block.label())
        row.label = std::string(label->name());
      block.forEachInstruction([&](const ir::Instruction&) { ++row.instructions; });
      row.location = locationText(lines, b);
      row.counted = counted;
      row.kind = placement.blocks[b].kind;
      if (row.kind == CounterKind::Derived)
        row.sourceRow = firstRow + placement.blocks[b].source;
      rows.push_back(std::move(row));
    }
  };

  // Each function is described (counter rows, structure) and its analyses dropped right away:
  // held for every function until the end, they were the largest part of a large module's
  // analysis (the passes recompute what they need function by function anyway).
  const std::vector<ir::Function*>& functions = module.functions();
  StructureBuilder structure(functions.size());
  std::vector<bool> described(functions.size(), false);
  auto finish = [&](size_t position) {
    structure.addFunction(position, *functions[position], analyses);
    described[position] = true;
    analyses.clear(functions[position]);
    analyses.releaseRetired();
  };
  // Device functions first: their rows are shared by every kernel of the module.
  std::unordered_map<const ir::Function*, std::pair<uint32_t, uint32_t>> functionRows;
  for (size_t i = 0; i < functions.size(); ++i) {
    ir::Function* f = functions[i];
    if (f->isEntry() || !f->hasBody())
      continue;
    uint32_t first = state->functionRowCount();
    PlacementOptions options{derive_, 0};
    describeBlocks(*f, options, state->functionRows, first, buffer.reaches(*f));
    functionRows[f] = {first, state->functionRowCount()};
    finish(i);
  }
  for (size_t i = 0; i < functions.size(); ++i) {
    ir::Function* f = functions[i];
    if (!f->isEntry() || !f->hasBody() || !buffer.reaches(*f))
      continue;
    BlockCountState::Kernel kernel;
    uint32_t maxRegisters =
        kernelRegisterCounters(*f, calls, target.architecture, target.linked, registers);
    describeBlocks(*f, PlacementOptions{derive_, maxRegisters}, kernel.rows,
                   state->functionRowCount(), true);
    kernel.registerCounters = static_cast<uint32_t>(state->registerRows[f].size());
    for (const ir::Function* callee : calls.reachableFrom(*f)) {
      auto range = functionRows.find(callee);
      if (range == functionRows.end())
        continue;
      for (uint32_t r = range->second.first; r < range->second.second; ++r)
        kernel.reachableFunctionRows.push_back(r);
    }
    state->kernels.emplace(std::string(f->name()), std::move(kernel));
    finish(i);
  }
  for (size_t i = 0; i < functions.size(); ++i)
    if (functions[i]->hasBody() && !described[i])
      finish(i);
  state->structure = structure.take();
  return state;
}

void BasicBlockCounter::instrument(InstrumentorModuleState& state, passes::PassManager& passes,
                                   const InstrumentationTarget& target) const {
  auto& counts = static_cast<BlockCountState&>(state);
  if (counts.perThread)
    passes.add<PerThreadCountPass>(counts, *target.buffer);
  else
    passes.add<PerWarpCountPass>(counts, *target.buffer);
}

BufferRequest BasicBlockCounter::initialize(const InstrumentorModuleState& state,
                                            const LaunchInfo& launch) const {
  const auto& counts = static_cast<const BlockCountState&>(state);
  auto kernel = counts.kernels.find(launch.kernelName);
  if (kernel == counts.kernels.end())
    return {};
  uint64_t rows = uint64_t{counts.functionRowCount()} + kernel->second.rows.size();
  uint64_t width = counts.perThread ? launch.threads() : counts.stripes;
  return {rows * width * 8, 0};
}

std::shared_ptr<const InstrumentorResult>
BasicBlockCounter::finalize(const InstrumentorModuleState& state, const LaunchInfo& launch,
                            const DeviceFacts& device, std::span<const std::byte> buffer) const {
  const auto& counts = static_cast<const BlockCountState&>(state);
  auto found = counts.kernels.find(launch.kernelName);
  if (found == counts.kernels.end())
    return nullptr;
  const BlockCountState::Kernel& kernel = found->second;
  const uint64_t rows = uint64_t{counts.functionRowCount()} + kernel.rows.size();
  const uint64_t width = counts.perThread ? launch.threads() : counts.stripes;
  if (buffer.size() < rows * width * 8)
    throw std::runtime_error("bbcount: the counter buffer is smaller than the layout");
  auto counter = [&](uint64_t row, uint64_t column) {
    uint64_t value = 0;
    std::memcpy(&value, buffer.data() + (row * width + column) * 8, 8);
    return value;
  };
  // Which rows to report, kernel first, and where each one's counts come from.
  std::vector<uint32_t> listed;
  for (uint32_t i = 0; i < kernel.rows.size(); ++i)
    listed.push_back(counts.functionRowCount() + i);
  listed.insert(listed.end(), kernel.reachableFunctionRows.begin(),
                kernel.reachableFunctionRows.end());

  const bool registersMayWrap = registerCountersMayWrap(device);
  std::vector<BasicBlockCounts::Block> blocks;
  std::vector<uint64_t> perThread;
  if (counts.perThread)
    perThread.reserve(listed.size() * width);
  for (uint32_t r : listed) {
    const CountedBlock& info = counts.row(kernel, r);
    BasicBlockCounts::Block block;
    block.function = info.function;
    block.index = info.index;
    block.label = info.label;
    block.instructions = info.instructions;
    block.location = info.location;
    block.counted = info.counted;
    block.derived = info.kind == CounterKind::Derived;
    uint64_t source = block.derived ? info.sourceRow : r;
    bool measured = info.counted && info.kind != CounterKind::Unreachable;
    block.mayHaveWrapped =
        measured && registersMayWrap &&
        counts.row(kernel, static_cast<uint32_t>(source)).kind == CounterKind::Register;
    for (uint64_t c = 0; c < width; ++c) {
      uint64_t value = measured ? counter(source, c) : 0;
      block.count += value;
      if (counts.perThread) {
        perThread.push_back(value);
        block.activeThreads += value != 0 ? 1 : 0;
      }
    }
    blocks.push_back(std::move(block));
  }
  // Every thread enters the kernel's first block once. Any other count but 0 (nothing ran the
  // counters: a device that does not execute code, such as the tests' fake one) means the
  // buffer holds what something else wrote (a stray store of the application, memory reused
  // after a device reset): such counts must never be reported.
  if (!blocks.empty() && blocks.front().counted && !blocks.front().derived &&
      blocks.front().count != launch.threads() && blocks.front().count != 0)
    throw std::runtime_error("the entry block counted " + std::to_string(blocks.front().count) +
                             " entries for " + std::to_string(launch.threads()) +
                             " threads: the counter buffer was overwritten, so its counts are "
                             "not reported");
  bool firstOfModule = !counts.structureWritten.exchange(true);
  return std::make_shared<BasicBlockCounts>(
      counts.perThread ? BasicBlockCounts::Mode::PerThread : BasicBlockCounts::Mode::PerWarp,
      launch.threads(), std::move(blocks), std::move(perThread), counts.structure, firstOfModule);
}

} // namespace ocelot::instrumentors
