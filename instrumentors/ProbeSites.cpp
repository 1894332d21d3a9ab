#include "instrumentors/ProbeSites.h"

#include "instrumentors/InstructionClass.h"
#include "ir/Casting.h"
#include "ocelot/Demangle.h"
#include "passes/AnalysisManager.h"
#include "passes/ControlFlowGraph.h"
#include "passes/Liveness.h"
#include "passes/LoopInfo.h"

#include <algorithm>
#include <map>

namespace ocelot::instrumentors {

namespace {

constexpr uint32_t kMaxRegisters = 255;
/// Registers the context values of one site may take beside the probe's own (an address, a
/// predicate, a buffer pointer).
constexpr uint32_t kContextRegisters = 6;

/// Inline order of sites at one anchor: entries first, then what runs after the previous
/// instruction, then what runs before this one.
enum Phase : uint64_t {
  kKernelEntryPhase = 0,
  kBlockEntryPhase = 1,
  kAfterPhase = 2,
  kBeforePhase = 3,
  kEndPhase = 4
};

uint64_t orderKey(uint64_t block, uint64_t position, Phase phase) {
  return (block << 40) | (position << 4) | phase;
}

bool matches(const std::optional<std::regex>& pattern, const std::string& a, const std::string& b) {
  if (!pattern)
    return true;
  return std::regex_search(a, *pattern) || std::regex_search(b, *pattern);
}

template <class T> bool allowed(const std::vector<T>& set, T value) {
  return set.empty() || std::find(set.begin(), set.end(), value) != set.end();
}

bool instructionMatches(const Placement& p, const ir::Instruction& inst, const std::string& file) {
  const ir::InstructionForm& form = inst.form();
  if (!allowed(p.classes, opcodeClassOf(form)))
    return false;
  if (!p.opcodes.empty() &&
      std::find(p.opcodes.begin(), p.opcodes.end(), form.opcode()) == p.opcodes.end())
    return false;
  if (!p.spaces.empty() && !allowed(p.spaces, stateSpaceOf(form)))
    return false;
  if (!p.kinds.empty() && !allowed(p.kinds, accessKindOf(form)))
    return false;
  if (p.guarded && *p.guarded != inst.guard().has_value())
    return false;
  if (p.file && !std::regex_search(file, *p.file))
    return false;
  return true;
}

/// The statement after position `i` of `block`, or null at the end.
const ir::Statement* next(const ir::BasicBlock& block, size_t i) {
  return i + 1 < block.statements().size() ? block.statements()[i + 1].get() : nullptr;
}

std::string labelOf(const ir::BasicBlock& block) {
  const ir::Label* label = block.label();
  return label != nullptr ? std::string(label->name()) : std::string();
}

bool makesCalls(const ir::BasicBlock& block) {
  bool calls = false;
  block.forEachInstruction(
      [&](const ir::Instruction& inst) { calls = calls || inst.form().has(ir::kCall); });
  return calls;
}

/// The blocks whose lane entries sum to the lanes that enter `loop` (its header from outside):
/// each outside predecessor of the header must lead only there and make no call, so that every
/// lane that enters it goes on into the loop. Empty where that does not hold.
std::vector<passes::ControlFlowGraph::Node> loopEntryBlocks(const passes::ControlFlowGraph& cfg,
                                                            const passes::Loop& loop) {
  std::vector<passes::ControlFlowGraph::Node> entries;
  for (const auto& e : cfg.predecessors(loop.header)) {
    if (loop.contains(e.from))
      continue;
    if (cfg.isVirtual(e.from) || cfg.successors(e.from).size() != 1 ||
        makesCalls(*cfg.block(e.from)))
      return {};
    entries.push_back(e.from);
  }
  return entries;
}

/// Whether every lane that enters `loop` leaves it through `exit`, once: that is the loop's only
/// way out (no other exit edge, no `ret`, `exit` or `trap` inside, which are exit edges too) and
/// no block in it makes a call (a callee may exit lanes).
bool onlyWayOut(const passes::ControlFlowGraph& cfg, const passes::Loop& loop,
                passes::ControlFlowGraph::Node from, passes::ControlFlowGraph::Node to) {
  if (loop.exits.size() != 1 || loop.exits.front().from != from || loop.exits.front().to != to)
    return false;
  for (passes::ControlFlowGraph::Node n : loop.nodes())
    if (makesCalls(*cfg.block(n)))
      return false;
  return true;
}

/// For the guarded branch (`@%p bra T`) ending each block B of `f`, where block entries give the
/// lanes whose guard is false (the lanes that fall through to F):
///  * F's entries when B is F's only predecessor;
///  * else B's entries less T's when B is T's only predecessor (all lanes that enter B reach its
///    branch: no call in B, whose callee could exit);
///  * else, where B -> F or B -> T is the only way out of the innermost loop around B (a loop's
///    closing branch, whose target, the loop's head, and fall-through, the join after the loop,
///    both have other predecessors): every lane that enters the loop leaves it there once, so
///    the lanes that leave are those that entered the loop, the entries of the header's outside
///    predecessors (loopEntryBlocks); the fall-through lanes are those (B -> F leaves) or B's
///    entries less those (B -> T leaves, no call in B).
/// Records them in the instructions' skippedFrom/skippedLess; `firstBlock` is the id of f's
/// first block.
void deriveSkippedLanes(ir::Function& f, passes::AnalysisManager& analyses, uint32_t firstBlock,
                        const std::map<const ir::Instruction*, uint32_t>& instructionIds,
                        ProbeModuleTables& tables) {
  using Node = passes::ControlFlowGraph::Node;
  const auto& cfg = analyses.getResult<passes::ControlFlowGraphAnalysis>(f);
  if (!cfg.problems().empty())
    return; // malformed control flow: leave it to the probes
  const auto& loops = analyses.getResult<passes::LoopAnalysis>(f);
  auto ids = [&](const std::vector<Node>& nodes) {
    std::vector<uint32_t> out;
    for (Node n : nodes)
      out.push_back(firstBlock + n);
    return out;
  };
  for (Node b = 0; b < cfg.blockCount(); ++b) {
    const ir::BasicBlock& block = *cfg.block(b);
    const ir::Instruction* branch = block.terminator();
    if (branch == nullptr || branch->form().opcode() != ir::Opcode::Bra || !branch->guard())
      continue;
    auto successors = cfg.successors(b);
    if (successors.size() != 2)
      continue; // `@%p bra` to the next block: both ways lead to one block
    Node target = passes::ControlFlowGraph::kNone, fall = passes::ControlFlowGraph::kNone;
    for (const auto& e : successors)
      (e.kind == passes::EdgeKind::Branch ? target : fall) = e.to;
    if (target == passes::ControlFlowGraph::kNone || fall == passes::ControlFlowGraph::kNone ||
        cfg.isVirtual(target))
      continue;
    ProbeInstruction& info = tables.instructions[instructionIds.at(branch)];
    if (!cfg.isVirtual(fall) && cfg.predecessors(fall).size() == 1) {
      info.skippedFrom = {firstBlock + fall};
      continue;
    }
    bool calls = makesCalls(block);
    // The virtual entry is a predecessor of the first block, so T is never the function's entry.
    if (!calls && cfg.predecessors(target).size() == 1) {
      info.skippedFrom = {firstBlock + b};
      info.skippedLess = {firstBlock + target};
      continue;
    }
    const passes::Loop* loop = loops.loopFor(b);
    if (loop == nullptr || cfg.isVirtual(fall))
      continue;
    bool leavesFalling = !loop->contains(fall) && loop->contains(target);
    bool leavesTaken = !loop->contains(target) && loop->contains(fall);
    if (!leavesFalling && !leavesTaken)
      continue;
    if (!onlyWayOut(cfg, *loop, b, leavesFalling ? fall : target))
      continue;
    std::vector<Node> entries = loopEntryBlocks(cfg, *loop);
    if (entries.empty())
      continue;
    if (leavesFalling) {
      info.skippedFrom = ids(entries);
    } else if (!calls) {
      info.skippedFrom = {firstBlock + b};
      info.skippedLess = ids(entries);
    }
  }
}

} // namespace

uint32_t kernelRegisterLimit(const ir::Function& kernel) {
  uint32_t limit = kMaxRegisters;
  if (const auto* maxnreg = kernel.directive(".maxnreg"); maxnreg && !maxnreg->values.empty())
    limit = std::min<uint64_t>(limit, maxnreg->values.front());
  const auto* maxntid = kernel.directive(".maxntid");
  const auto* minBlocks = kernel.directive(".minnctapersm");
  if (maxntid != nullptr && minBlocks != nullptr && !minBlocks->values.empty()) {
    uint64_t threads = 1;
    for (uint64_t v : maxntid->values)
      threads *= std::max<uint64_t>(v, 1);
    uint64_t perThread = 65536 / std::max<uint64_t>(threads * minBlocks->values.front(), 1);
    limit = std::min<uint64_t>(limit, perThread / 8 * 8);
  }
  return limit;
}

std::unique_ptr<ProbeModuleState> placeProbes(ir::Module& module, passes::AnalysisManager& analyses,
                                              const ProbeProgram& program,
                                              const BufferAccess& buffer, uint32_t sampledOut) {
  auto state = std::make_unique<ProbeModuleState>();
  state->program = &program;
  ProbeModuleTables& tables = *state->tables;
  for (const auto& probe : program.probes())
    tables.probes.push_back(probe.spec.name);
  for (const auto& item : module.items())
    if (const auto* file = ir::dyn_cast<ir::FileDirective>(item.get())) {
      if (tables.files.size() <= file->index())
        tables.files.resize(file->index() + 1);
      tables.files[file->index()] = std::string(file->path());
    }
  auto fileName = [&](uint32_t index) {
    return index < tables.files.size() ? tables.files[index] : std::string();
  };

  // The tables: functions, blocks and instructions in layout order.
  std::map<const ir::Instruction*, uint32_t> instructionIds;
  std::map<const ir::BasicBlock*, uint32_t> blockIds;
  uint32_t kernels = 0;
  for (ir::Function* f : module.functions()) {
    if (!f->hasBody())
      continue;
    ProbeFunction function;
    function.name = std::string(f->name());
    function.kernel = f->isEntry();
    if (function.kernel)
      function.kernelId = kernels++;
    if (!buffer.reaches(*f))
      function.notes.push_back("not instrumented: probes cannot reach their buffer here");
    state->functionIndex[f] = static_cast<uint32_t>(tables.functions.size());
    state->firstBlock[f] = static_cast<uint32_t>(tables.blocks.size());
    tables.functions.push_back(std::move(function));
    uint32_t position = 0;
    for (size_t b = 0; b < f->blocks().size(); ++b) {
      const ir::BasicBlock& block = *f->blocks()[b];
      ProbeBlock info;
      info.function = std::string(f->name());
      info.index = static_cast<uint32_t>(b);
      info.label = labelOf(block);
      info.firstInstruction = static_cast<uint32_t>(tables.instructions.size());
      blockIds[&block] = static_cast<uint32_t>(tables.blocks.size());
      block.forEachInstruction([&](const ir::Instruction& inst) {
        ProbeInstruction i;
        i.function = info.function;
        i.block = static_cast<uint32_t>(tables.blocks.size());
        i.index = position++;
        i.opcode = std::string(inst.form().spelling());
        i.opcodeClass = opcodeClassOf(inst.form());
        i.space = stateSpaceOf(inst.form());
        i.access = accessKindOf(inst.form());
        i.accessBytes = accessBytesOf(inst.form());
        i.guarded = inst.guard().has_value();
        i.file = inst.sourceLoc().file;
        i.line = inst.sourceLoc().line;
        if (info.file == 0 && i.file != 0)
          info.file = i.file, info.line = i.line;
        instructionIds[&inst] = static_cast<uint32_t>(tables.instructions.size());
        tables.instructions.push_back(std::move(i));
        ++info.instructions;
      });
      tables.blocks.push_back(std::move(info));
    }
  }
  for (ir::Function* f : module.functions())
    if (f->hasBody())
      deriveSkippedLanes(*f, analyses, state->firstBlock.at(f), instructionIds, tables);
  state->counts.instructions = tables.instructions.size();
  state->counts.blocks = tables.blocks.size();
  state->counts.kernels = kernels;

  // The sites.
  for (ir::Function* f : module.functions()) {
    if (!f->hasBody() || !buffer.reaches(*f))
      continue;
    uint32_t functionIndex = state->functionIndex.at(f);
    ProbeFunction& info = tables.functions[functionIndex];
    std::string demangled = demangle(f->name());
    std::string mangled(f->name());
    uint32_t limit = f->isEntry() ? kernelRegisterLimit(*f) : kMaxRegisters;
    std::vector<ProbeSiteRecord>& records = state->sites[f];
    for (uint32_t p = 0; p < program.probes().size(); ++p) {
      if ((sampledOut >> p) & 1)
        continue;
      const ProbeProgram::Probe& probe = program.probes()[p];
      const Placement& placement = probe.spec.placement;
      if (!matches(placement.kernel, mangled, demangled))
        continue;
      if (placement.at == Placement::At::KernelEntry && !f->isEntry())
        continue;
      // Registers: a probe the kernel cannot hold beside the application is left out of it.
      uint32_t needs = probe.body.registerPressure() + kContextRegisters;
      if (!probe.body.empty() && needs > limit) {
        info.notes.push_back("probe '" + probe.spec.name + "' left out: it needs about " +
                             std::to_string(needs) + " registers, the kernel may use " +
                             std::to_string(limit));
        continue;
      }
      std::vector<ProbeSiteRecord> placed;
      auto add = [&](ir::BasicBlock* block, const ir::Statement* anchor,
                     const ir::Instruction* inst, bool after, uint64_t order) {
        ProbeSiteRecord r;
        r.probe = p;
        r.block = block;
        r.anchor = anchor;
        r.instruction = inst;
        r.after = after;
        if (block != nullptr && anchor == nullptr) {
          const auto& blocks = f->blocks();
          for (size_t at = 0; at + 1 < blocks.size(); ++at)
            if (blocks[at].get() == block)
              r.follower = blocks[at + 1].get();
        }
        r.instructionId = inst != nullptr ? instructionIds.at(inst) : ProbeSite::kNoInstruction;
        r.blockId = blockIds.at(block != nullptr ? block : f->blocks().front().get());
        r.order = order;
        placed.push_back(r);
      };
      if (placement.at == Placement::At::KernelEntry)
        add(nullptr, nullptr, nullptr, false, 0);
      for (size_t b = 0; placement.at != Placement::At::KernelEntry && b < f->blocks().size();
           ++b) {
        ir::BasicBlock& block = *f->blocks()[b];
        const auto& statements = block.statements();
        if (placement.at == Placement::At::BlockEntry) {
          size_t start = ir::IRBuilder::startIndex(block);
          add(&block, start < statements.size() ? statements[start].get() : nullptr, nullptr, false,
              orderKey(b, start, kBlockEntryPhase));
          continue;
        }
        for (size_t i = 0; i < statements.size(); ++i) {
          const auto* inst = ir::dyn_cast<ir::Instruction>(statements[i].get());
          if (inst == nullptr)
            continue;
          const ir::InstructionForm& form = inst->form();
          if (placement.at == Placement::At::KernelExit) {
            bool leaves = form.has(ir::kExit) || (f->isEntry() && form.has(ir::kReturn));
            if (leaves)
              add(&block, inst, inst, false, orderKey(b, i, kBeforePhase));
            continue;
          }
          if (!instructionMatches(placement, *inst, fileName(inst->sourceLoc().file)))
            continue;
          if (placement.skipDerivable &&
              tables.instructions[instructionIds.at(inst)].skipDerivable())
            continue; // the tool derives it from block entries
          if (placement.before)
            add(&block, inst, inst, false, orderKey(b, i, kBeforePhase));
          bool leavesBlock = form.isTerminator() || form.has(ir::kExit);
          if (placement.after && !leavesBlock)
            add(&block, next(block, i), inst, true, orderKey(b, i + 1, kAfterPhase));
        }
        // A kernel whose last block has no terminator ends by falling off it.
        if (placement.at == Placement::At::KernelExit && f->isEntry() &&
            b + 1 == f->blocks().size() && block.terminator() == nullptr)
          add(&block, nullptr, nullptr, false, orderKey(b, statements.size(), kEndPhase));
      }
      // Registers beside the application's live ones, where a probe is big for the kernel.
      if (!probe.body.empty() && !placed.empty() && needs * 2 > limit) {
        auto& liveness = analyses.getResult<passes::LivenessAnalysis>(*f);
        unsigned busiest = 0;
        for (size_t b = 0; b < f->blocks().size(); ++b) {
          ir::BasicBlock& block = *f->blocks()[b];
          passes::LiveScanner scan(liveness, static_cast<passes::ControlFlowGraph::Node>(b));
          const auto& statements = block.statements();
          for (size_t i = statements.size(); i-- > 0;) {
            for (const auto& r : placed)
              if (r.anchor == statements[i].get())
                busiest = std::max(busiest, scan.liveUnits());
            if (const auto* inst = ir::dyn_cast<ir::Instruction>(statements[i].get()))
              scan.step(*inst);
          }
        }
        if (busiest < limit && needs + busiest > limit) {
          info.notes.push_back("probe '" + probe.spec.name + "' left out: it needs about " +
                               std::to_string(needs) + " registers beside the " +
                               std::to_string(busiest) + " the kernel keeps live; it may use " +
                               std::to_string(limit));
          continue;
        }
      }
      if (!probe.body.empty())
        info.probeRegisters = std::max(info.probeRegisters, needs);
      records.insert(records.end(), placed.begin(), placed.end());
    }
    std::stable_sort(
        records.begin(), records.end(),
        [](const ProbeSiteRecord& a, const ProbeSiteRecord& b) { return a.order < b.order; });
    for (auto& r : records) {
      r.site = static_cast<uint32_t>(tables.sites.size());
      ProbeSite site;
      site.probe = program.probes()[r.probe].spec.name;
      site.function = functionIndex;
      site.block = r.blockId;
      site.instruction = r.instructionId;
      site.when = r.after ? probe::kAfter : probe::kBefore;
      tables.sites.push_back(std::move(site));
    }
    info.sites = static_cast<uint32_t>(records.size());
  }
  state->counts.sites = tables.sites.size();
  state->fixedLayout =
      ProbeLayout::compute(program.regions(), program.probes().size(), state->counts, {});
  return state;
}

} // namespace ocelot::instrumentors
