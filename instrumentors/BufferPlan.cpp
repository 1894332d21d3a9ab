#include "instrumentors/BufferPlan.h"

#include "instrumentors/EntryBlock.h"
#include "ir/Casting.h"
#include "passes/CallGraph.h"

#include <algorithm>
#include <charconv>

namespace ocelot::instrumentors {

namespace {

/// Bytes of one value of a declaration's type (vector width included); 0 when unknown.
uint64_t elementBytes(const ir::DeclarationSpec& spec) {
  auto type = spec.type();
  if (!type)
    return 0;
  uint64_t bits = ir::scalarTypeBits(*type);
  uint64_t bytes = *type == ir::ScalarType::Pred ? 1 : (bits + 7) / 8;
  return bytes * spec.vectorWidth();
}

/// Every name that a parameter, variable, function or body declaration of the module uses.
std::unordered_set<std::string_view> namesInUse(const ir::Module& module) {
  std::unordered_set<std::string_view> names;
  for (const auto& item : module.items())
    if (const auto* global = ir::dyn_cast<ir::GlobalVariable>(item.get()))
      for (const auto& d : global->spec().declarators)
        names.insert(d.name);
  for (const ir::Function* f : module.functions()) {
    names.insert(f->name());
    for (const auto& spec : f->signature().parameters)
      for (const auto& d : spec.declarators)
        names.insert(d.name);
    for (const auto& spec : f->signature().returns)
      for (const auto& d : spec.declarators)
        names.insert(d.name);
    for (const auto& block : f->blocks())
      for (const auto& s : block->statements())
        if (const auto* decl = ir::dyn_cast<ir::DeclarationStatement>(s.get()))
          for (const auto& d : decl->spec().declarators)
            names.insert(d.name);
  }
  return names;
}

/// The index of a call's target operand (after the return list, if any).
size_t callTargetIndex(const ir::Instruction& call) {
  const auto& ops = call.operands();
  return !ops.empty() && ops[0].is<ir::ArgumentListOperand>() ? 1 : 0;
}

/// The directly called function's name, or empty for an indirect call.
std::string_view directCallee(const ir::Instruction& call) {
  size_t target = callTargetIndex(call);
  if (target >= call.operands().size())
    return {};
  const auto* symbol = call.operands()[target].getIf<ir::SymbolOperand>();
  return symbol != nullptr ? symbol->name : std::string_view();
}

ir::DeclarationSpec parameterSpec(ir::Module& module, std::string_view name,
                                  std::optional<uint64_t> bytesArray) {
  ir::DeclarationSpec spec;
  spec.words.push_back({module.intern(".param"), std::nullopt, {}});
  if (bytesArray) {
    spec.words.push_back({module.intern(".align"), uint64_t{8}, {}});
    spec.words.push_back({module.intern(".b8"), std::nullopt, {}});
  } else {
    spec.words.push_back({module.intern(".b64"), std::nullopt, {}});
  }
  ir::Declarator d;
  d.name = module.intern(name);
  if (bytesArray)
    d.dimensions.push_back(*bytesArray);
  spec.declarators.push_back(std::move(d));
  return spec;
}

class SlotAccess final : public BufferAccess {
public:
  SlotAccess(const BufferPlan& plan, uint32_t slot) : plan_(plan), slot_(slot) {}
  bool reaches(const ir::Function& function) const override { return plan_.reaches(function); }
  ir::RegisterRef bufferAddress(ir::IRBuilder& builder) const override {
    return plan_.loadSlot(builder, slot_);
  }

private:
  const BufferPlan& plan_;
  uint32_t slot_;
};

} // namespace

uint64_t BufferPlan::parameterBytes(const ir::Function& kernel) {
  uint64_t offset = 0;
  for (const auto& spec : kernel.signature().parameters) {
    uint64_t element = elementBytes(spec);
    if (element == 0)
      element = 8; // an unknown future type: assume the widest scalar
    uint64_t align = spec.alignment() != 0 ? spec.alignment() : element;
    for (const auto& d : spec.declarators) {
      uint64_t count = 1;
      for (const auto& dimension : d.dimensions)
        count *= dimension.value_or(1);
      offset = (offset + align - 1) / align * align + element * count;
    }
  }
  return offset;
}

uint64_t BufferPlan::parameterLimit(const ir::Module& module) {
  // ptxas: 0x1100 bytes before PTX ISA 8.1, 0x7ffc from 8.1 on.
  std::string_view version = module.version();
  unsigned major = 0, minor = 0;
  size_t dot = version.find('.');
  std::from_chars(version.data(), version.data() + std::min(dot, version.size()), major);
  if (dot != std::string_view::npos)
    std::from_chars(version.data() + dot + 1, version.data() + version.size(), minor);
  bool large = major > 8 || (major == 8 && minor >= 1);
  return large ? 32764 : 4352;
}

BufferPlan::BufferPlan(ir::Module& module, passes::AnalysisManager& analyses, uint32_t slots,
                       bool linked)
    : slots_(slots) {
  // One name for the kernels' parameter that nothing in the module uses; slot parameters of
  // device functions append "_<slot>" to it.
  auto names = namesInUse(module);
  kernelParameter_ = "__ocelot_instrumentation";
  for (unsigned n = 1;; ++n) {
    bool clash = false;
    for (std::string_view name : names)
      clash = clash || name.starts_with(kernelParameter_);
    if (!clash)
      break;
    kernelParameter_ = "__ocelot_instrumentation" + std::to_string(n) + "x";
  }

  const passes::CallGraph& calls = analyses.getResult<passes::CallGraphAnalysis>(module);
  std::unordered_set<const ir::Function*> addressTaken(calls.addressTaken().begin(),
                                                       calls.addressTaken().end());
  std::unordered_set<std::string_view> aliased;
  for (const auto& item : module.items())
    if (const auto* alias = ir::dyn_cast<ir::AliasDirective>(item.get())) {
      aliased.insert(alias->alias());
      aliased.insert(alias->aliasee());
    }

  uint64_t limit = parameterLimit(module);
  for (const ir::Function* f : module.functions()) {
    if (!f->isEntry() || !f->hasBody())
      continue;
    std::string name(f->name());
    if (addressTaken.contains(f)) {
      exclusions_.push_back({name, "its address is taken (device-side launches)"});
      continue;
    }
    if (parameterBytes(*f) + 8 * uint64_t{slots} + 8 > limit) {
      exclusions_.push_back({name, "its parameters leave no room for Ocelot's in the " +
                                       std::to_string(limit) + "-byte parameter space"});
      continue;
    }
    reached_.insert(f);
  }

  // Device functions: candidates, then drop every candidate with a caller outside the reached
  // set until nothing changes (callers of a threaded function must pass the slots).
  std::unordered_set<const ir::Function*> candidates;
  for (const ir::Function* f : module.functions()) {
    if (f->isEntry() || !f->hasBody())
      continue;
    if (addressTaken.contains(f) || aliased.contains(f->name()))
      continue;
    if (linked && f->linkage() != ir::Linkage::None)
      continue;
    candidates.insert(f);
  }
  // A candidate dropped drops the candidates it calls (their caller is then outside): a worklist,
  // not rounds over every candidate (a 100k-function call chain would drop one per round).
  std::vector<const ir::Function*> dropped;
  for (const ir::Function* f : module.functions()) {
    if (!candidates.contains(f))
      continue;
    for (const auto& site : calls.callsTo(*f))
      if (!reached_.contains(site.caller) && !candidates.contains(site.caller)) {
        dropped.push_back(f);
        break;
      }
  }
  for (const ir::Function* f : dropped)
    candidates.erase(f);
  while (!dropped.empty()) {
    const ir::Function* f = dropped.back();
    dropped.pop_back();
    for (const auto& site : calls.callsFrom(*f))
      if (site.callee != nullptr && candidates.erase(site.callee) != 0)
        dropped.push_back(site.callee);
  }
  for (const ir::Function* f : candidates)
    reached_.insert(f);
  // Device functions instrumented code calls but cannot reach (reported: their blocks go
  // uncounted).
  for (const ir::Function* f : module.functions()) {
    if (f->isEntry() || !f->hasBody() || reached_.contains(f))
      continue;
    bool calledFromReached = false;
    for (const auto& site : calls.callsTo(*f))
      calledFromReached = calledFromReached || reached_.contains(site.caller);
    if (!calledFromReached)
      continue;
    std::string reason = addressTaken.contains(f)      ? "its address is taken"
                         : aliased.contains(f->name()) ? "it has an alias"
                         : linked && f->linkage() != ir::Linkage::None
                             ? "other units of the linked program may call it"
                             : "it is called from code that is not instrumented";
    exclusions_.push_back({std::string(f->name()), reason});
  }
}

std::string BufferPlan::slotParameter(uint32_t slot) const {
  return kernelParameter_ + "_" + std::to_string(slot);
}

ir::RegisterRef BufferPlan::loadSlot(ir::IRBuilder& builder, uint32_t slot) const {
  const ir::Function& f = builder.function();
  if (f.isEntry())
    return builder.load(ir::StateSpace::Param, ir::ScalarType::U64,
                        builder.address(kernelParameter_, int64_t{8} * slot));
  return builder.load(ir::StateSpace::Param, ir::ScalarType::U64,
                      builder.address(slotParameter(slot)));
}

std::unique_ptr<BufferAccess> BufferPlan::access(uint32_t slot) const {
  return std::make_unique<SlotAccess>(*this, slot);
}

void BufferPlan::apply(ir::Module& module, passes::AnalysisManager& analyses) {
  if (applied_)
    return;
  applied_ = true;
  // Forward declarations (`.func f(...);` before mutually recursive definitions) must match
  // their definition's new signature, or ptxas rejects the calls as inconsistent prototypes.
  std::unordered_set<std::string_view> threaded;
  for (const ir::Function* f : reached_)
    if (!f->isEntry())
      threaded.insert(f->name());
  for (ir::Function* f : module.functions()) {
    bool declaration = !f->hasBody() && !f->isEntry() && threaded.contains(f->name());
    if (!reached_.contains(f) && !declaration)
      continue;
    auto& parameters = f->signature().parameters;
    if (declaration) {
      for (uint32_t s = 0; s < slots_; ++s)
        parameters.push_back(parameterSpec(module, slotParameter(s), std::nullopt));
      f->signature().hasParameterList = true;
      continue;
    }
    if (f->isEntry()) {
      parameters.push_back(parameterSpec(module, kernelParameter_, uint64_t{8} * slots_));
    } else {
      for (uint32_t s = 0; s < slots_; ++s)
        parameters.push_back(parameterSpec(module, slotParameter(s), std::nullopt));
    }
    f->signature().hasParameterList = true;
    ensureUnlabeledEntry(*f, &analyses);
  }
  // Call sites: pass the caller's slots to every threaded callee.
  for (ir::Function* caller : module.functions()) {
    if (!reached_.contains(caller))
      continue;
    for (auto& block : caller->blocks()) {
      for (size_t i = 0; i < block->statements().size(); ++i) {
        auto* call = ir::dyn_cast<ir::Instruction>(block->statements()[i].get());
        if (call == nullptr || !call->form().has(ir::kCall))
          continue;
        const ir::Function* callee = module.findFunction(directCallee(*call));
        if (callee == nullptr || callee->isEntry() || !reached_.contains(callee))
          continue;
        ir::IRBuilder b(*caller, &analyses);
        b.at(*block, i);
        std::vector<ir::Operand> values;
        for (uint32_t s = 0; s < slots_; ++s)
          values.push_back(ir::IRBuilder::reg(loadSlot(b, s)));
        i = b.index(); // the call moved down past the loads
        auto& ops = call->operands();
        size_t argumentsAt = callTargetIndex(*call) + 1;
        if (argumentsAt < ops.size() && ops[argumentsAt].is<ir::ArgumentListOperand>()) {
          auto& list = ops[argumentsAt].as<ir::ArgumentListOperand>().arguments;
          list.insert(list.end(), values.begin(), values.end());
        } else {
          ops.insert(ops.begin() + static_cast<std::ptrdiff_t>(std::min(argumentsAt, ops.size())),
                     ir::ArgumentListOperand{std::move(values)});
        }
        b.reportChange(ir::IRChange::Instructions);
      }
    }
  }
  analyses.invalidate(module, passes::PreservedAnalyses::none(), true);
}

} // namespace ocelot::instrumentors
