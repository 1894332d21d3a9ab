#include "instrumentors/ProbeInsertionPass.h"

#include "instrumentors/InstructionClass.h"
#include "instrumentors/PtxIdioms.h"
#include "ir/Casting.h"
#include "passes/ProbeInliner.h"

#include <algorithm>
#include <map>

namespace ocelot::instrumentors {

namespace {

using ir::IRBuilder;
using ir::Operand;
using ir::RegisterRef;
using ir::ScalarType;
using ir::VectorComponent;

/// Values of the probed instruction taken before it, for probes that run after it (the
/// instruction may overwrite the registers they come from).
struct Captured {
  std::optional<RegisterRef> address;
  std::optional<ir::Guard> guard;
};

/// The address an instruction accesses, as a fresh 64-bit register computed at the builder's
/// point; nullopt when it has no address operand.
std::optional<RegisterRef> effectiveAddress(IRBuilder& b, const ir::Instruction& inst) {
  const ir::AddressOperand* address = nullptr;
  for (const Operand& op : inst.operands())
    if ((address = op.getIf<ir::AddressOperand>()) != nullptr)
      break;
  if (address == nullptr)
    return std::nullopt;
  RegisterRef base{};
  if (const auto* reg = std::get_if<ir::RegisterOperand>(&address->base)) {
    const auto& declarator = b.function().declaratorOf(reg->reg);
    bool narrow = declarator.type && ir::scalarTypeBits(*declarator.type) <= 32;
    base = narrow ? b.convert(ScalarType::U64, ScalarType::U32, IRBuilder::reg(reg->reg))
                  : b.mov(ScalarType::U64, IRBuilder::reg(reg->reg));
  } else if (const auto* symbol = std::get_if<ir::SymbolOperand>(&address->base)) {
    base = b.mov(ScalarType::U64, b.symbol(symbol->name));
    if (symbol->offset != 0)
      base = b.add(ScalarType::U64, IRBuilder::reg(base), IRBuilder::imm(symbol->offset));
  } else {
    const auto& absolute = std::get<ir::AddressOperand::Absolute>(address->base);
    base = b.mov(ScalarType::U64, IRBuilder::imm(static_cast<int64_t>(absolute.value)));
  }
  if (address->offset == 0)
    return base;
  return b.add(ScalarType::U64, IRBuilder::reg(base), IRBuilder::imm(address->offset));
}

RegisterRef linearThreadInCta(IRBuilder& b) {
  RegisterRef tx = b.readSpecial("%tid", VectorComponent::X);
  RegisterRef ty = b.readSpecial("%tid", VectorComponent::Y);
  RegisterRef tz = b.readSpecial("%tid", VectorComponent::Z);
  RegisterRef nx = b.readSpecial("%ntid", VectorComponent::X);
  RegisterRef ny = b.readSpecial("%ntid", VectorComponent::Y);
  RegisterRef zy =
      b.mad(ScalarType::U32, IRBuilder::reg(tz), IRBuilder::reg(ny), IRBuilder::reg(ty));
  return b.mad(ScalarType::U32, IRBuilder::reg(zy), IRBuilder::reg(nx), IRBuilder::reg(tx));
}

/// Threads per CTA (u32), warps per CTA (u64) and CTAs (u64) of the launch.
struct LaunchValues {
  RegisterRef threadsPerCta, warpsPerCta, ctas;
};

LaunchValues launchValues(IRBuilder& b) {
  RegisterRef nx = b.readSpecial("%ntid", VectorComponent::X);
  RegisterRef ny = b.readSpecial("%ntid", VectorComponent::Y);
  RegisterRef nz = b.readSpecial("%ntid", VectorComponent::Z);
  RegisterRef plane = b.mul(ScalarType::U32, IRBuilder::reg(nx), IRBuilder::reg(ny));
  RegisterRef threads = b.mul(ScalarType::U32, IRBuilder::reg(plane), IRBuilder::reg(nz));
  RegisterRef rounded = b.add(ScalarType::U32, IRBuilder::reg(threads), IRBuilder::imm(31));
  RegisterRef warps32 =
      b.binary("shr", ScalarType::U32, IRBuilder::reg(rounded), IRBuilder::imm(5));
  RegisterRef warps = b.convert(ScalarType::U64, ScalarType::U32, IRBuilder::reg(warps32));
  RegisterRef gx = b.readSpecial("%nctaid", VectorComponent::X);
  RegisterRef gy = b.readSpecial("%nctaid", VectorComponent::Y);
  RegisterRef gz = b.readSpecial("%nctaid", VectorComponent::Z);
  RegisterRef gridPlane = b.mulWide(ScalarType::U32, IRBuilder::reg(gx), IRBuilder::reg(gy));
  RegisterRef gz64 = b.convert(ScalarType::U64, ScalarType::U32, IRBuilder::reg(gz));
  RegisterRef ctas = b.mul(ScalarType::U64, IRBuilder::reg(gridPlane), IRBuilder::reg(gz64));
  return {threads, warps, ctas};
}

RegisterRef globalWarpId(IRBuilder& b) {
  LaunchValues launch = launchValues(b);
  RegisterRef cta = linearCtaId(b);
  RegisterRef cta64 = b.convert(ScalarType::U64, ScalarType::U32, IRBuilder::reg(cta));
  RegisterRef thread = linearThreadInCta(b);
  RegisterRef warp = b.binary("shr", ScalarType::U32, IRBuilder::reg(thread), IRBuilder::imm(5));
  RegisterRef warp64 = b.convert(ScalarType::U64, ScalarType::U32, IRBuilder::reg(warp));
  return b.mad(ScalarType::U64, IRBuilder::reg(cta64), IRBuilder::reg(launch.warpsPerCta),
               IRBuilder::reg(warp64));
}

/// The code of one site: the intrinsics as constants or computations, regions as buffer addresses,
/// checked writes.
class SiteHooks final : public passes::InlineHooks {
public:
  SiteHooks(const ProbeModuleState& state, const ProbeSiteRecord& site, const BufferAccess& buffer,
            const passes::InlineTemplate& probe, const Captured& captured, uint32_t kernelId)
      : state_(state), site_(site), buffer_(buffer), probe_(probe), captured_(captured),
        kernelId_(kernelId) {}

  void beginInstance(IRBuilder& b) override {
    bool regions = false;
    for (std::string_view name : probe_.intrinsics())
      regions = regions || name.starts_with("__ocelot_probe_region_");
    if (regions || probe_.writesMemory())
      base_ = buffer_.bufferAddress(b);
  }

  std::optional<uint64_t> constant(const passes::IntrinsicCall& call) override {
    std::string_view name = call.name;
    name.remove_prefix(std::string_view("__ocelot_probe_").size());
    const ProbeInstruction* inst = nullptr;
    if (site_.instructionId != ProbeSite::kNoInstruction)
      inst = &state_.tables->instructions[site_.instructionId];
    if (name == "kernel_id")
      return kernelId_;
    if (name == "site_id")
      return site_.site;
    if (name == "instruction_id")
      return site_.instructionId;
    if (name == "block_id")
      return site_.blockId;
    if (name == "when")
      return site_.after ? probe::kAfter : probe::kBefore;
    if (name == "opcode_class")
      return inst != nullptr ? inst->opcodeClass : probe::kOther;
    if (name == "source_file")
      return inst != nullptr ? inst->file : 0;
    if (name == "source_line")
      return inst != nullptr ? inst->line : 0;
    if (name == "access_size")
      return inst != nullptr ? inst->accessBytes : 0;
    if (name == "state_space")
      return inst != nullptr ? inst->space : probe::kNoSpace;
    if (name == "access_kind")
      return inst != nullptr ? inst->access : probe::kNoAccess;
    if (name == "block_entries_reach")
      return uint64_t{inst != nullptr &&
                      blockEntriesReach(state_.tables->instructions, state_.tables->blocks,
                                        site_.instructionId)};
    if (name == "guarded")
      return uint64_t{inst != nullptr && inst->guarded};
    if (name == "skipped_lanes_derivable")
      return uint64_t{inst != nullptr && inst->skipDerivable()};
    if (name == "address" && !captured_.address &&
        (site_.instruction == nullptr || site_.after || !hasAddress(*site_.instruction)))
      return 0;
    if (name == "predicate" && !captured_.guard &&
        (site_.instruction == nullptr || site_.after || !site_.instruction->guard()))
      return 1;
    if (!name.starts_with("region_"))
      return std::nullopt;
    const RegionSpec* region = regionOf(call);
    if (region == nullptr)
      return std::nullopt; // expandIntrinsic says what is wrong
    const ProbeLayout::Region& fixed =
        state_.fixedLayout.regions[state_.program->regionIndex(*region)];
    if (name == "region_stripes")
      return region->stripes;
    if (name == "region_bins")
      return region->bins;
    if (name == "region_elements" && !region->perLaunch())
      return fixed.elements;
    if (name == "region_index") {
      switch (region->per) {
      case RegionSpec::Per::Instruction:
        // Sites without an instruction index past the end: their updates count as dropped.
        return site_.instructionId == ProbeSite::kNoInstruction ? state_.counts.instructions
                                                                : site_.instructionId;
      case RegionSpec::Per::Block:
        return site_.blockId;
      case RegionSpec::Per::Site:
        return site_.site;
      case RegionSpec::Per::Kernel:
        return kernelId_ == UINT32_MAX ? state_.counts.kernels : kernelId_;
      case RegionSpec::Per::None:
        return 0;
      default:
        return std::nullopt;
      }
    }
    return std::nullopt;
  }

  void expandIntrinsic(IRBuilder& b, const passes::IntrinsicCall& call) override {
    std::string_view name = call.name;
    name.remove_prefix(std::string_view("__ocelot_probe_").size());
    if (name.starts_with("region_") && regionOf(call) == nullptr)
      throw passes::InlineError(regionProblem(call));
    if (!call.result)
      return; // the value is not read: nothing to compute
    RegisterRef out = *call.result;
    if (std::optional<uint64_t> value = constant(call)) {
      bool wide = name == "address" || name == "region_base" || name == "region_elements" ||
                  name == "region_index";
      b.insert(wide ? "mov.u64" : "mov.u32",
               {IRBuilder::reg(out), IRBuilder::imm(static_cast<int64_t>(*value))});
      return;
    }
    if (name.starts_with("region_")) {
      expandRegion(b, call, name);
      return;
    }
    if (name == "address") {
      std::optional<RegisterRef> value = captured_.address;
      if (!value && site_.instruction != nullptr && !site_.after)
        value = effectiveAddress(b, *site_.instruction);
      if (value)
        b.insert("mov.b64", {IRBuilder::reg(out), IRBuilder::reg(*value)});
      else
        b.insert("mov.u64", {IRBuilder::reg(out), IRBuilder::imm(0)});
      return;
    }
    if (name == "predicate") {
      std::optional<ir::Guard> guard = captured_.guard;
      if (!guard && site_.instruction != nullptr && !site_.after)
        guard = site_.instruction->guard();
      if (!guard) {
        b.insert("mov.u32", {IRBuilder::reg(out), IRBuilder::imm(1)});
        return;
      }
      b.insert("selp.u32",
               {IRBuilder::reg(out), IRBuilder::imm(guard->negated ? 0 : 1),
                IRBuilder::imm(guard->negated ? 1 : 0), IRBuilder::reg(guard->predicate)});
      return;
    }
    throw passes::InlineError("calls the unknown intrinsic '" + std::string(call.name) + "'");
  }

  std::optional<uint64_t> bufferOffset(const passes::IntrinsicCall& call) override {
    if (call.name != "__ocelot_probe_region_base")
      return std::nullopt;
    const RegionSpec* region = regionOf(call);
    if (region == nullptr || region->perLaunch())
      return std::nullopt;
    return state_.fixedLayout.regions[state_.program->regionIndex(*region)].offset;
  }

  std::optional<RegisterRef>
  guardWrite(IRBuilder& b, RegisterRef address,
             std::optional<std::pair<uint64_t, uint64_t>> bytes) override {
    // Provably inside the fixed regions (past the header, before the launch-sized ones): no check.
    if (bytes && bytes->first >= state_.fixedLayout.headerBytes &&
        bytes->second <= state_.fixedLayout.fixedEnd)
      return std::nullopt;
    // Allowed: [base + header, base + total). One compare of the offset from the regions' start.
    RegisterRef start = b.add(ScalarType::U64, IRBuilder::reg(*base_),
                              IRBuilder::imm(static_cast<int64_t>(state_.fixedLayout.headerBytes)));
    RegisterRef offset = b.sub(ScalarType::U64, IRBuilder::reg(address), IRBuilder::reg(start));
    Operand size = regionsBytes(b);
    RegisterRef inside = b.compare("lt", ScalarType::U64, IRBuilder::reg(offset), size);
    // Outside: flag the probe (word 1 + p of the header) instead of writing.
    b.insert("st.global.u64",
             {IRBuilder::address(*base_, 8 * (1 + int64_t{site_.probe})), IRBuilder::imm(1)},
             ir::Guard{inside, true});
    return inside;
  }

private:
  bool perLaunchRegions() const {
    for (const auto& r : state_.program->regions())
      if (r.perLaunch())
        return true;
    return false;
  }

  /// Bytes of all regions (the total less the header), a constant unless a region is sized by
  /// the launch.
  Operand regionsBytes(IRBuilder& b) {
    const ProbeLayout& fixed = state_.fixedLayout;
    if (!perLaunchRegions())
      return IRBuilder::imm(static_cast<int64_t>(fixed.totalBytes - fixed.headerBytes));
    RegisterRef end = launchRegionOffset(b, state_.program->regions().size());
    return IRBuilder::reg(b.sub(ScalarType::U64, IRBuilder::reg(end),
                                IRBuilder::imm(static_cast<int64_t>(fixed.headerBytes))));
  }

  /// Elements of region `r` for this launch, computed on the device (per-launch regions).
  RegisterRef launchElements(IRBuilder& b, const RegionSpec& r, const LaunchValues& launch) {
    RegisterRef indices{};
    if (r.per == RegionSpec::Per::Cta) {
      indices = launch.ctas;
    } else if (r.per == RegionSpec::Per::Warp) {
      indices =
          b.mul(ScalarType::U64, IRBuilder::reg(launch.ctas), IRBuilder::reg(launch.warpsPerCta));
    } else {
      RegisterRef threads =
          b.convert(ScalarType::U64, ScalarType::U32, IRBuilder::reg(launch.threadsPerCta));
      indices = b.mul(ScalarType::U64, IRBuilder::reg(launch.ctas), IRBuilder::reg(threads));
    }
    uint64_t factor = uint64_t{r.stripes} * r.bins;
    if (factor == 1)
      return indices;
    return b.mul(ScalarType::U64, IRBuilder::reg(indices),
                 IRBuilder::imm(static_cast<int64_t>(factor)));
  }

  /// The offset of region `until` (or the end of the buffer when `until` is the region count),
  /// following the launch-sized regions before it: ProbeLayout's rule on the device.
  RegisterRef launchRegionOffset(IRBuilder& b, size_t until) {
    const auto& regions = state_.program->regions();
    LaunchValues launch = launchValues(b);
    RegisterRef offset =
        b.mov(ScalarType::U64, IRBuilder::imm(static_cast<int64_t>(state_.fixedLayout.fixedEnd)));
    for (size_t r = 0; r < regions.size() && r < until; ++r) {
      if (!regions[r].perLaunch())
        continue;
      RegisterRef elements = launchElements(b, regions[r], launch);
      // align(16 + elements * bytes) = ((elements * bytes + 16 + 255) >> 8) << 8
      RegisterRef bytes =
          b.mad(ScalarType::U64, IRBuilder::reg(elements), IRBuilder::imm(regions[r].bytes),
                IRBuilder::imm(ProbeLayout::kRegionHeader + ProbeLayout::kAlignment - 1));
      RegisterRef aligned =
          b.binary("and", ScalarType::B64, IRBuilder::reg(bytes),
                   IRBuilder::imm(-static_cast<int64_t>(ProbeLayout::kAlignment)));
      offset = b.add(ScalarType::U64, IRBuilder::reg(offset), IRBuilder::reg(aligned));
    }
    return offset;
  }

  const RegionSpec* regionOf(const passes::IntrinsicCall& call) const {
    const auto* id =
        call.arguments.empty() ? nullptr : call.arguments.front().getIf<ir::ImmediateOperand>();
    return id == nullptr ? nullptr
                         : state_.program->region(static_cast<uint32_t>(id->integerValue()));
  }

  static std::string regionProblem(const passes::IntrinsicCall& call) {
    const auto* id =
        call.arguments.empty() ? nullptr : call.arguments.front().getIf<ir::ImmediateOperand>();
    if (id == nullptr)
      return "names a region through a value that is not a constant (" + std::string(call.name) +
             ")";
    return "uses a region that is not declared (id " +
           std::to_string(static_cast<uint32_t>(id->integerValue())) + ")";
  }

  static bool hasAddress(const ir::Instruction& inst) {
    for (const Operand& op : inst.operands())
      if (op.is<ir::AddressOperand>())
        return true;
    return false;
  }

  void expandRegion(IRBuilder& b, const passes::IntrinsicCall& call, std::string_view name) {
    const RegionSpec* region = regionOf(call);
    RegisterRef out = *call.result;
    size_t index = state_.program->regionIndex(*region);
    const ProbeLayout::Region& fixed = state_.fixedLayout.regions[index];
    if (name == "region_stripes" || name == "region_bins") {
      uint32_t value = name == "region_stripes" ? region->stripes : region->bins;
      b.insert("mov.u32", {IRBuilder::reg(out), IRBuilder::imm(value)});
      return;
    }
    if (name == "region_base") {
      if (!region->perLaunch()) {
        b.insert("add.u64", {IRBuilder::reg(out), IRBuilder::reg(*base_),
                             IRBuilder::imm(static_cast<int64_t>(fixed.offset))});
        return;
      }
      RegisterRef offset = launchRegionOffset(b, index);
      b.insert("add.u64", {IRBuilder::reg(out), IRBuilder::reg(*base_), IRBuilder::reg(offset)});
      return;
    }
    if (name == "region_elements") {
      if (!region->perLaunch()) {
        b.insert("mov.u64",
                 {IRBuilder::reg(out), IRBuilder::imm(static_cast<int64_t>(fixed.elements))});
        return;
      }
      LaunchValues launch = launchValues(b);
      RegisterRef elements = launchElements(b, *region, launch);
      b.insert("mov.b64", {IRBuilder::reg(out), IRBuilder::reg(elements)});
      return;
    }
    if (name == "region_index") {
      auto constant = [&](uint64_t value) {
        b.insert("mov.u64", {IRBuilder::reg(out), IRBuilder::imm(static_cast<int64_t>(value))});
      };
      switch (region->per) {
      case RegionSpec::Per::Instruction:
        // Sites without an instruction index past the end: their updates count as dropped.
        return constant(site_.instructionId == ProbeSite::kNoInstruction
                            ? state_.counts.instructions
                            : site_.instructionId);
      case RegionSpec::Per::Block:
        return constant(site_.blockId);
      case RegionSpec::Per::Site:
        return constant(site_.site);
      case RegionSpec::Per::Kernel:
        return constant(kernelId_ == UINT32_MAX ? state_.counts.kernels : kernelId_);
      case RegionSpec::Per::None:
        return constant(0);
      case RegionSpec::Per::Sm: {
        RegisterRef sm = b.readSpecial("%smid");
        b.insert("cvt.u64.u32", {IRBuilder::reg(out), IRBuilder::reg(sm)});
        return;
      }
      case RegionSpec::Per::Cta: {
        RegisterRef cta = linearCtaId(b);
        b.insert("cvt.u64.u32", {IRBuilder::reg(out), IRBuilder::reg(cta)});
        return;
      }
      case RegionSpec::Per::Warp: {
        RegisterRef warp = globalWarpId(b);
        b.insert("mov.b64", {IRBuilder::reg(out), IRBuilder::reg(warp)});
        return;
      }
      case RegionSpec::Per::Thread: {
        RegisterRef thread = linearGlobalThreadId(b);
        b.insert("mov.b64", {IRBuilder::reg(out), IRBuilder::reg(thread)});
        return;
      }
      }
      return;
    }
    throw passes::InlineError("calls the unknown intrinsic '" + std::string(call.name) + "'");
  }

  const ProbeModuleState& state_;
  const ProbeSiteRecord& site_;
  const BufferAccess& buffer_;
  const passes::InlineTemplate& probe_;
  const Captured& captured_;
  uint32_t kernelId_;
  std::optional<RegisterRef> base_;
};

size_t find(const ir::BasicBlock& block, const ir::Statement* anchor) {
  const auto& statements = block.statements();
  if (anchor == nullptr)
    return statements.size();
  for (size_t i = 0; i < statements.size(); ++i)
    if (statements[i].get() == anchor)
      return i;
  return statements.size() + 1;
}

} // namespace

bool ProbeInsertionPass::appliesTo(const ir::Function& function) const {
  auto found = state_.sites.find(&function);
  return found != state_.sites.end() && !found->second.empty() && buffer_.reaches(function);
}

passes::PreservedAnalyses ProbeInsertionPass::run(ir::Function& function,
                                                  passes::AnalysisManager& analyses) {
  const std::vector<ProbeSiteRecord>& records = state_.sites.at(&function);
  ProbeFunction& info = state_.tables->functions[state_.functionIndex.at(&function)];
  uint32_t kernelId = info.kernel ? info.kernelId : UINT32_MAX;
  passes::ProbeInliner inliner(function, &analyses);
  IRBuilder& b = inliner.builder();

  // Kernel entries go before whatever starts the function's first block now.
  ir::BasicBlock* entry = function.blocks().front().get();
  size_t entryStart = IRBuilder::startIndex(*entry);
  const ir::Statement* entryAnchor =
      entryStart < entry->statements().size() ? entry->statements()[entryStart].get() : nullptr;

  // The block that now holds each application block's remaining statements (probes with branches
  // split blocks).
  std::map<ir::BasicBlock*, ir::BasicBlock*> current;
  for (const ProbeSiteRecord& site : records) {
    const auto& probe = state_.program->probes()[site.probe];
    const Placement& placement = probe.spec.placement;
    if (probe.body.empty())
      continue;
    ir::BasicBlock* original = site.block != nullptr ? site.block : entry;
    const ir::Statement* anchor = site.block != nullptr ? site.anchor : entryAnchor;
    auto found = current.find(original);
    ir::BasicBlock* block = found != current.end() ? found->second : original;
    size_t index = find(*block, anchor);
    if (site.block != nullptr && anchor == nullptr) {
      // The end of the application's block: the end of the last part that probes (this tool's or
      // an earlier tool's) split it into, the block before its follower.
      const auto& blocks = function.blocks();
      size_t at = 0;
      while (at < blocks.size() && blocks[at].get() != original)
        ++at;
      while (at + 1 < blocks.size() && blocks[at + 1].get() != site.follower)
        ++at;
      if (at < blocks.size()) {
        block = blocks[at].get();
        index = block->statements().size();
      }
    } else if (index > block->statements().size() && anchor != nullptr) {
      // Another probe tool's pass split the block before this one ran: the anchor moved on to
      // one of the blocks the split made.
      for (const auto& candidate : function.blocks())
        if (size_t at = find(*candidate, anchor); at < candidate->statements().size()) {
          block = candidate.get();
          current[original] = block;
          index = at;
          break;
        }
    }
    if (index > block->statements().size())
      throw passes::InlineError("lost its place in '" + std::string(function.name()) + "'");

    // What the probe needs of the instruction, taken before it when the probe runs after it.
    Captured captured;
    std::optional<ir::Guard> runIf;
    const ir::Instruction* inst = site.instruction;
    if (inst != nullptr && site.after) {
      // Right before the instruction, wherever earlier probes left it (another tool's probe after
      // it may have moved the probe's place into a later block).
      ir::BasicBlock* home = block;
      size_t at = find(*home, inst);
      for (size_t i = 0; at >= home->statements().size() && i < function.blocks().size(); ++i) {
        home = function.blocks()[i].get();
        at = find(*home, inst);
      }
      if (at >= home->statements().size())
        throw passes::InlineError("lost its place in '" + std::string(function.name()) + "'");
      b.at(*home, at);
      if (probe.body.calls("__ocelot_probe_address"))
        captured.address = effectiveAddress(b, *inst);
      if (inst->guard()) {
        RegisterRef copy = b.createRegister(ScalarType::Pred);
        b.insert("mov.pred", {IRBuilder::reg(copy), IRBuilder::reg(inst->guard()->predicate)});
        captured.guard = ir::Guard{copy, inst->guard()->negated};
      }
      index = anchor != nullptr ? find(*block, anchor) : block->statements().size();
    }
    if (inst != nullptr && !placement.receiveGuard)
      runIf = site.after ? captured.guard : inst->guard();
    if (placement.sampleWarps > 1) {
      b.at(*block, index);
      RegisterRef warp = globalWarpId(b);
      uint32_t n = placement.sampleWarps;
      RegisterRef remainder =
          (n & (n - 1)) == 0
              ? b.binary("and", ScalarType::B64, IRBuilder::reg(warp), IRBuilder::imm(n - 1))
              : b.binary("rem", ScalarType::U64, IRBuilder::reg(warp), IRBuilder::imm(n));
      RegisterRef sampled =
          b.compare("eq", ScalarType::U64, IRBuilder::reg(remainder), IRBuilder::imm(0));
      if (runIf) {
        RegisterRef guard = runIf->predicate;
        if (runIf->negated) {
          guard = b.createRegister(ScalarType::Pred);
          b.insert("not.pred", {IRBuilder::reg(guard), IRBuilder::reg(runIf->predicate)});
        }
        sampled = predicateAnd(b, guard, sampled);
      }
      runIf = ir::Guard{sampled, false};
      index = find(*block, anchor);
    }

    SiteHooks hooks(state_, site, buffer_, probe.body, captured, kernelId);
    try {
      ir::BasicBlock& rest = inliner.inlineAt(probe.body, *block, index, runIf, hooks);
      current[original] = &rest;
    } catch (const passes::InlineError& e) {
      throw passes::InlineError("probe '" + probe.spec.name + "' " + e.what());
    }
  }
  info.ptxRegisters = inliner.registerUnits();
  return passes::PreservedAnalyses::none();
}

} // namespace ocelot::instrumentors
