#include "runtime/cpu/OperandDecoder.h"

#include "runtime/cpu/CpuModule.h"
#include "runtime/cpu/ImmediateValues.h"
#include "runtime/cpu/SupportHandlers.h"

namespace ocelot::runtime::cpu {
namespace {

uint64_t registerKey(ir::RegisterRef ref) {
  return (uint64_t{ref.declarator} << 32) | ref.index;
}

uint32_t componentIndex(ir::VectorComponent component) {
  switch (component) {
  case ir::VectorComponent::Y:
  case ir::VectorComponent::G:
    return 1;
  case ir::VectorComponent::Z:
  case ir::VectorComponent::B:
    return 2;
  case ir::VectorComponent::W:
  case ir::VectorComponent::A:
    return 3;
  default:
    return 0;
  }
}

struct SpecialInfo {
  bool dynamic = false;
  SpecialRegister kind = SpecialRegister::Zero;
  TimerKind timer = TimerKind::Clock;
};

/// x/y/z registers: the X kind, with Y and Z following it in the enumeration.
std::optional<SpecialInfo> component(SpecialRegister x, ir::VectorComponent component) {
  const uint32_t index = componentIndex(component);
  if (component == ir::VectorComponent::None || index > 2)
    return std::nullopt;
  return SpecialInfo{false, static_cast<SpecialRegister>(static_cast<uint32_t>(x) + index), {}};
}

std::optional<SpecialInfo> specialInfo(std::string_view name, ir::VectorComponent c) {
  using S = SpecialRegister;
  if (name == "%tid")
    return component(S::TidX, c);
  if (name == "%ntid")
    return component(S::NtidX, c);
  if (name == "%ctaid")
    return component(S::CtaidX, c);
  if (name == "%nctaid")
    return component(S::NctaidX, c);
  if (name == "%cluster_ctaid")
    return component(S::ClusterCtaidX, c);
  if (name == "%cluster_nctaid")
    return component(S::ClusterNctaidX, c);
  if (name == "%clusterid")
    return component(S::ClusterIdX, c);
  if (name == "%nclusterid")
    return component(S::NClusterIdX, c);
  auto fixed = [](S kind) { return SpecialInfo{false, kind, {}}; };
  auto timer = [](TimerKind kind) { return SpecialInfo{true, SpecialRegister::Zero, kind}; };
  if (name == "%laneid")
    return fixed(S::LaneId);
  if (name == "%warpid")
    return fixed(S::WarpId);
  if (name == "%nwarpid")
    return fixed(S::NWarpId);
  if (name == "%smid")
    return fixed(S::SmId);
  if (name == "%nsmid")
    return fixed(S::NSmId);
  if (name == "%gridid")
    return fixed(S::GridId);
  if (name == "%lanemask_eq")
    return fixed(S::LaneMaskEq);
  if (name == "%lanemask_lt")
    return fixed(S::LaneMaskLt);
  if (name == "%lanemask_le")
    return fixed(S::LaneMaskLe);
  if (name == "%lanemask_gt")
    return fixed(S::LaneMaskGt);
  if (name == "%lanemask_ge")
    return fixed(S::LaneMaskGe);
  if (name == "%dynamic_smem_size")
    return fixed(S::DynamicSmemSize);
  if (name == "%total_smem_size" || name == "%aggr_smem_size")
    return fixed(S::TotalSmemSize);
  if (name == "%cluster_ctarank")
    return fixed(S::ClusterCtaRank);
  if (name == "%cluster_nctarank")
    return fixed(S::ClusterNCtaRank);
  if (name == "%is_explicit_cluster")
    return fixed(S::IsExplicitCluster);
  if (name == "%clock")
    return timer(TimerKind::Clock);
  if (name == "%clock_hi")
    return timer(TimerKind::ClockHi);
  if (name == "%clock64")
    return timer(TimerKind::Clock64);
  if (name == "%globaltimer")
    return timer(TimerKind::GlobalTimer);
  if (name == "%globaltimer_lo")
    return timer(TimerKind::GlobalTimerLo);
  if (name == "%globaltimer_hi")
    return timer(TimerKind::GlobalTimerHi);
  // The grid-sync workspace cooperative groups read (0 outside cooperative launches, where
  // grid.sync() traps as it does on a GPU).
  if (name == "%envreg1")
    return fixed(S::GridWorkspaceHigh);
  if (name == "%envreg2")
    return fixed(S::GridWorkspaceLow);
  // Registers this device defines as zero: environment and performance-monitor registers, the
  // reserved shared-memory window (none here), the graph handle of device-launched graphs.
  if (name.starts_with("%envreg") || name.starts_with("%pm") ||
      name.starts_with("%reserved_smem_offset") || name == "%current_graph_exec")
    return fixed(S::Zero);
  return std::nullopt;
}

} // namespace

OperandDecoder::OperandDecoder(ProgramBuilder& builder, const KernelSymbols& kernel, uint32_t unit,
                               const ir::Function& function, const FunctionFrame& frame,
                               bool isKernel)
    : builder_(builder), kernel_(kernel), unit_(unit), function_(function), frame_(frame),
      isKernel_(isKernel) {}

void OperandDecoder::beginInstruction(const ir::Instruction& instruction,
                                      const InstructionSource& source) {
  instruction_ = &instruction;
  source_ = source;
  accesses_ = RegisterAccesses{};
  builder_.beginInstruction();
}

uint32_t OperandDecoder::fail(std::string message) {
  if (error_.empty())
    error_ = std::move(message);
  return kNone;
}

bool OperandDecoder::isPredicateRegister(ir::RegisterRef ref) const {
  const auto& declarators = function_.registerDeclarators();
  return ref.declarator < declarators.size() &&
         declarators[ref.declarator].type == ir::ScalarType::Pred;
}

uint32_t OperandDecoder::registerRow(ir::RegisterRef ref, ir::VectorComponent component) {
  const auto& declarators = function_.registerDeclarators();
  if (ref.declarator >= declarators.size())
    return fail("register outside the register table");
  const ir::RegisterDeclarator& declarator = declarators[ref.declarator];
  if (declarator.type == ir::ScalarType::Pred)
    return fail("predicate " + function_.registerName(ref) + " used as a value");
  if (declarator.type == ir::ScalarType::B128)
    return fail(".b128 registers are not supported by the CPU device");
  const uint32_t width = std::max(declarator.vectorWidth, 1u);
  auto [it, inserted] = rows_.try_emplace(registerKey(ref), 0);
  if (inserted) {
    // Registers of a type this build does not know are kept at full width.
    const unsigned bits = declarator.type ? ir::scalarTypeBits(*declarator.type) : 64;
    it->second = builder_.newRegisterRows(width, static_cast<uint8_t>(bits == 8    ? 1
                                                                      : bits == 16 ? 2
                                                                      : bits == 32 ? 4
                                                                                   : 8));
  }
  const uint32_t index = componentIndex(component);
  if (index >= width && component != ir::VectorComponent::None)
    return fail("component of a register that is not a vector");
  (writing_ ? accesses_.writes : accesses_.reads).push_back(it->second + index);
  return it->second + index;
}

uint32_t OperandDecoder::registerPredicate(ir::RegisterRef ref) {
  if (!isPredicateRegister(ref))
    return fail("register " + function_.registerName(ref) + " used as a predicate");
  auto [it, inserted] = predicates_.try_emplace(registerKey(ref), 0);
  if (inserted)
    it->second = builder_.newPredicate();
  (writing_ ? accesses_.predicateWrites : accesses_.predicateReads).push_back(it->second);
  return it->second;
}

uint32_t OperandDecoder::emitSupport(ExecuteFn execute, uint32_t destination, uint32_t source,
                                     int64_t imm, uint32_t aux, bool predicate) {
  (void)predicate;
  DecodedInstruction support;
  support.execute = execute;
  support.op[0] = destination;
  support.op[1] = source;
  support.imm = imm;
  support.aux = aux;
  support.synthetic = true;
  builder_.emit(support, source_);
  return destination;
}

uint32_t OperandDecoder::specialRegister(const ir::SpecialRegisterOperand& special) {
  auto info = specialInfo(special.name, special.component);
  if (!info)
    return fail("special register " + std::string(special.name) +
                (special.component != ir::VectorComponent::None
                     ? "." + std::string(ir::vectorComponentName(special.component))
                     : "") +
                " is not supported by the CPU device");
  if (info->dynamic) {
    builder_.kernel().usesClock = true;
    return emitSupport(&executeReadTimer, builder_.scratchRow(), kNone, 0,
                       static_cast<uint32_t>(info->timer), false);
  }
  return builder_.specialRow(info->kind);
}

std::optional<SymbolValue> OperandDecoder::symbol(std::string_view name) {
  if (instruction_ != nullptr) {
    if (const FrameSymbol* local = frame_.find(function_, instruction_->scope(), name)) {
      switch (local->kind) {
      case FrameSymbol::Kind::Frame:
        return SymbolValue{SymbolValue::Kind::Frame, local->offset};
      case FrameSymbol::Kind::Shared:
        return SymbolValue{SymbolValue::Kind::Shared, local->offset};
      case FrameSymbol::Kind::KernelParameter:
        return SymbolValue{SymbolValue::Kind::KernelParameter, local->offset};
      case FrameSymbol::Kind::RegisterFormal:
        return SymbolValue{SymbolValue::Kind::RegisterFormal, 0};
      }
    }
  }
  const CpuModule& module = *kernel_.module;
  if (const ModuleVariable* variable = module.findVariable(unit_, name)) {
    if (variable->space == ir::StateSpace::Shared) {
      if (variable->dynamicShared)
        return SymbolValue{SymbolValue::Kind::Shared, kernel_.dynamicSharedOffset};
      auto it = kernel_.sharedOffsets.find(variable);
      if (it == kernel_.sharedOffsets.end())
        return std::nullopt;
      return SymbolValue{SymbolValue::Kind::Shared, it->second};
    }
    return SymbolValue{SymbolValue::Kind::Absolute, variable->address};
  }
  if (const ModuleFunction* function = module.findFunction(unit_, name))
    return SymbolValue{SymbolValue::Kind::Function, function->ordinal};
  return std::nullopt;
}

uint32_t OperandDecoder::symbolValueRow(const ir::SymbolOperand& operand) {
  auto value = symbol(operand.name);
  // WARP_SZ is PTX's predefined run-time constant for the warp size (`mov.u32 %r, WARP_SZ;`),
  // not a declared symbol.
  if (!value && operand.name == "WARP_SZ" && operand.offset == 0)
    return builder_.constantRow(kWarpSize);
  if (!value)
    return fail("unknown symbol " + std::string(operand.name));
  const auto offset = static_cast<uint64_t>(operand.offset);
  switch (value->kind) {
  case SymbolValue::Kind::Absolute:
    return builder_.constantRow(value->value + offset);
  case SymbolValue::Kind::Shared:
    return builder_.constantRow((operand.generic ? kernel_.sharedWindow : 0) + value->value +
                                offset);
  case SymbolValue::Kind::KernelParameter:
    return builder_.parameterRow(value->value + offset);
  case SymbolValue::Kind::Function:
    return builder_.constantRow(
        kernel_.module->functionAddress(static_cast<uint32_t>(value->value)) + offset);
  case SymbolValue::Kind::Frame:
    return emitSupport(
        &executeFrameAddress, builder_.scratchRow(), kNone,
        static_cast<int64_t>((operand.generic ? kernel_.localWindow : 0) + value->value + offset),
        0, false);
  case SymbolValue::Kind::RegisterFormal:
    break;
  }
  return fail("the address of register parameter " + std::string(operand.name) + " is taken");
}

uint32_t OperandDecoder::source(const ir::Operand& operand, ir::ScalarType type) {
  if (const auto* reg = operand.getIf<ir::RegisterOperand>()) {
    if (reg->negated)
      return fail("negated register used as a value");
    return registerRow(reg->reg, reg->component);
  }
  if (const auto* immediate = operand.getIf<ir::ImmediateOperand>()) {
    auto bits = immediateBits(*immediate, type);
    if (!bits)
      return fail("literal does not fit the instruction type ." +
                  std::string(ir::scalarTypeName(type)));
    return builder_.constantRow(*bits);
  }
  if (const auto* special = operand.getIf<ir::SpecialRegisterOperand>())
    return specialRegister(*special);
  if (const auto* symbolOperand = operand.getIf<ir::SymbolOperand>())
    return symbolValueRow(*symbolOperand);
  return fail("unsupported operand");
}

uint32_t OperandDecoder::destination(const ir::Operand& operand) {
  if (const auto* reg = operand.getIf<ir::RegisterOperand>()) {
    writing_ = true;
    const uint32_t row = registerRow(reg->reg, reg->component);
    writing_ = false;
    return row;
  }
  if (operand.is<ir::SinkOperand>())
    return builder_.sinkRow();
  return fail("unsupported destination operand");
}

uint32_t OperandDecoder::predicateSource(const ir::Operand& operand) {
  if (const auto* reg = operand.getIf<ir::RegisterOperand>()) {
    const uint32_t predicate = registerPredicate(reg->reg);
    if (!reg->negated || predicate == kNone)
      return predicate;
    return emitSupport(&executeNotPredicate, builder_.scratchPredicate(), predicate, 0, 0, true);
  }
  if (const auto* immediate = operand.getIf<ir::ImmediateOperand>())
    return immediate->magnitude != 0 ? ProgramBuilder::kTruePredicate
                                     : ProgramBuilder::kFalsePredicate;
  return fail("unsupported predicate operand");
}

uint32_t OperandDecoder::predicateDestination(const ir::Operand& operand) {
  if (const auto* reg = operand.getIf<ir::RegisterOperand>()) {
    writing_ = true;
    const uint32_t predicate = registerPredicate(reg->reg);
    writing_ = false;
    return predicate;
  }
  if (operand.is<ir::SinkOperand>())
    return ProgramBuilder::kSinkPredicate;
  return fail("unsupported predicate destination");
}

std::optional<ResolvedAddress> OperandDecoder::address(const ir::Operand& operand,
                                                       ir::StateSpace space) {
  const auto* address = operand.getIf<ir::AddressOperand>();
  if (address == nullptr) {
    fail("expected an address operand");
    return std::nullopt;
  }
  ResolvedAddress result;
  switch (space) {
  case ir::StateSpace::Global:
  case ir::StateSpace::Const:
    result.space = MemorySpace::Global;
    break;
  case ir::StateSpace::Shared:
    result.space = MemorySpace::Shared;
    break;
  case ir::StateSpace::Local:
    result.space = MemorySpace::Local;
    break;
  case ir::StateSpace::Param:
    result.space = isKernel_ ? MemorySpace::Global : MemorySpace::Local;
    break;
  default:
    result.space = MemorySpace::Generic;
    break;
  }
  result.offset = address->offset;
  if (const auto* reg = std::get_if<ir::RegisterOperand>(&address->base)) {
    result.row = registerRow(reg->reg, reg->component);
  } else if (const auto* absolute = std::get_if<ir::AddressOperand::Absolute>(&address->base)) {
    result.row = builder_.zeroRow();
    result.offset += static_cast<int64_t>(absolute->value);
  } else if (const auto* name = std::get_if<ir::SymbolOperand>(&address->base)) {
    auto value = symbol(name->name);
    if (!value) {
      fail("unknown symbol " + std::string(name->name));
      return std::nullopt;
    }
    result.offset += name->offset;
    switch (value->kind) {
    case SymbolValue::Kind::Absolute:
      result.row = builder_.zeroRow();
      result.offset += static_cast<int64_t>(value->value);
      if (result.space != MemorySpace::Generic)
        result.space = MemorySpace::Global;
      break;
    case SymbolValue::Kind::Shared:
      result.row = builder_.zeroRow();
      result.offset += static_cast<int64_t>(value->value);
      result.space = MemorySpace::Shared;
      break;
    case SymbolValue::Kind::Frame:
      result.row = builder_.zeroRow();
      result.offset += static_cast<int64_t>(value->value);
      result.frameRelative = true;
      result.space = MemorySpace::Local;
      break;
    case SymbolValue::Kind::KernelParameter:
      result.row = builder_.parameterRow(value->value);
      result.space = MemorySpace::Global;
      break;
    case SymbolValue::Kind::Function:
    case SymbolValue::Kind::RegisterFormal:
      fail("symbol " + std::string(name->name) + " is not memory");
      return std::nullopt;
    }
  }
  if (!ok())
    return std::nullopt;
  return result;
}

} // namespace ocelot::runtime::cpu
