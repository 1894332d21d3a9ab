#include "instrumentors/FunctionAddressTranslation.h"

#include "instrumentors/FunctionAddressTable.h"
#include "ir/Casting.h"
#include "ir/Opcode.h"
#include "passes/CallGraph.h"

#include <algorithm>
#include <bit>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace ocelot::instrumentors {

namespace {

ir::Operand hexImmediate(uint64_t value) {
  ir::ImmediateOperand immediate;
  immediate.magnitude = value;
  immediate.format = ir::ImmediateOperand::Format::Hexadecimal;
  return immediate;
}

size_t callTargetIndex(const ir::Instruction& call) {
  const auto& ops = call.operands();
  return !ops.empty() && ops[0].is<ir::ArgumentListOperand>() ? 1 : 0;
}

bool isIndirectCall(const ir::Instruction& inst) {
  if (!inst.form().has(ir::kCall))
    return false;
  size_t target = callTargetIndex(inst);
  return target < inst.operands().size() && inst.operands()[target].is<ir::RegisterOperand>();
}

template <class Fn> void forEachInitializerSymbol(const ir::Initializer& init, Fn&& fn) {
  switch (init.kind()) {
  case ir::Initializer::Kind::Value:
    if (const auto* symbol = init.scalar().getIf<ir::SymbolOperand>())
      fn(*symbol);
    break;
  case ir::Initializer::Kind::List:
    for (const auto& element : init.elements())
      forEachInitializerSymbol(element, fn);
    break;
  case ir::Initializer::Kind::IntegerList:
    break;
  }
}

/// `init` with every symbol that `replace` answers for replaced by the operand it gives.
template <class Fn>
ir::Initializer replaceInitializerSymbols(const ir::Initializer& init, Fn&& replace) {
  if (init.kind() == ir::Initializer::Kind::Value) {
    if (const auto* symbol = init.scalar().getIf<ir::SymbolOperand>())
      if (std::optional<ir::Operand> value = replace(*symbol))
        return ir::Initializer::value(std::move(*value));
  } else if (init.kind() == ir::Initializer::Kind::List) {
    std::vector<ir::Initializer> elements;
    for (const auto& element : init.elements())
      elements.push_back(replaceInitializerSymbols(element, replace));
    return ir::Initializer::list(std::move(elements));
  }
  return init;
}

/// Every symbol inside an operand that is not the operand itself (address bases and parts,
/// vector elements, dual parts, argument lists).
template <class Fn> void forEachNestedSymbol(const ir::Operand& operand, Fn&& fn) {
  auto nested = [&](const ir::Operand& part) {
    if (const auto* symbol = part.getIf<ir::SymbolOperand>())
      fn(symbol->name);
    else
      forEachNestedSymbol(part, fn);
  };
  if (const auto* address = operand.getIf<ir::AddressOperand>()) {
    if (const auto* base = std::get_if<ir::SymbolOperand>(&address->base))
      fn(base->name);
    for (const auto& part : address->extra)
      nested(part);
  } else if (const auto* vector = operand.getIf<ir::VectorOperand>()) {
    for (const auto& element : vector->elements)
      nested(element);
  } else if (const auto* dual = operand.getIf<ir::DualOperand>()) {
    for (const auto& part : dual->parts)
      nested(part);
  } else if (const auto* list = operand.getIf<ir::ArgumentListOperand>()) {
    for (const auto& argument : list->arguments)
      nested(argument);
  }
}

/// `ld.global.nc.u64`: the search tables are never written while a kernel runs.
ir::RegisterRef loadReadOnly(ir::IRBuilder& b, ir::RegisterRef address) {
  ir::RegisterRef value = b.createRegister(ir::ScalarType::U64);
  b.insert("ld.global.nc.u64", {ir::IRBuilder::reg(value), ir::IRBuilder::address(address)});
  return value;
}

/// The bytes a caller passes for each parameter (or return value) of a list, by state space:
/// what must agree between an indirect call's prototype and the function it reaches, whatever
/// the type words (`.b64` or `.u64`). nullopt when a type is unknown (then anything matches).
std::optional<std::vector<std::pair<ir::StateSpace, uint64_t>>>
passedBytes(const std::vector<ir::DeclarationSpec>& list) {
  std::vector<std::pair<ir::StateSpace, uint64_t>> bytes;
  for (const auto& spec : list) {
    auto type = spec.type();
    if (!type)
      return std::nullopt;
    uint64_t element = (ir::scalarTypeBits(*type) + 7) / 8 * spec.vectorWidth();
    for (const auto& d : spec.declarators) {
      uint64_t count = 1;
      for (const auto& dimension : d.dimensions)
        count *= dimension.value_or(1);
      bytes.emplace_back(spec.stateSpace(), element * count);
    }
  }
  return bytes;
}

/// Whether an indirect call with `prototype` can reach `function` (see passedBytes).
bool mayReach(const ir::FunctionSignature& prototype, const ir::Function& function) {
  auto compare = [](const std::vector<ir::DeclarationSpec>& a,
                    const std::vector<ir::DeclarationSpec>& b) {
    auto x = passedBytes(a), y = passedBytes(b);
    return !x || !y || *x == *y;
  };
  return compare(prototype.returns, function.signature().returns) &&
         compare(prototype.parameters, function.signature().parameters);
}

/// A name no module-scope item of `module` uses, starting with `base`.
std::string freshGlobalName(const ir::Module& module, std::string_view base) {
  std::unordered_set<std::string_view> used;
  for (const auto& item : module.items()) {
    if (const auto* global = ir::dyn_cast<ir::GlobalVariable>(item.get()))
      for (const auto& d : global->spec().declarators)
        used.insert(d.name);
    else if (const auto* f = ir::dyn_cast<ir::Function>(item.get()))
      used.insert(f->name());
  }
  std::string name(base);
  for (unsigned n = 1; used.contains(name); ++n)
    name = std::string(base) + "_" + std::to_string(n);
  return name;
}

/// How one function meets function pointers.
struct FunctionUse {
  bool needsIdentity = false; ///< uses a function's name as a value, or calls indirectly
  bool indirect = false;      ///< makes an indirect call
  std::string blocker;        ///< a use the pass cannot rewrite (then identity cannot be kept)
};

class Translator {
public:
  Translator(ir::Module& module, passes::AnalysisManager& analyses)
      : module_(module), analyses_(analyses) {
    for (const ir::Function* f : module.functions())
      (f->isEntry() ? kernels_ : functions_).emplace(f->name(), f->name());
    for (const auto& item : module.items())
      if (const auto* alias = ir::dyn_cast<ir::AliasDirective>(item.get()))
        if (auto it = functions_.find(alias->aliasee()); it != functions_.end())
          functions_.emplace(alias->alias(), it->second);
  }

  FunctionTranslationResult run(const OriginalFunctionAddresses& originals, bool linked);

private:
  std::string readOriginals(const OriginalFunctionAddresses& originals);
  FunctionUse inspect(const ir::Function& function) const;
  void rewrite(ir::Function& function, FunctionTranslationResult& result);
  /// Inserts, before the instruction at `index`, code that maps the original address in
  /// `pointer` to the copy's function; returns the register holding the result.
  ir::RegisterRef translate(ir::Function& function, ir::BasicBlock& block, size_t& index,
                            ir::RegisterRef pointer, const ir::Instruction& call);
  void ensureSortedTables();
  void declareBeforeFirstBody(std::string_view function, size_t& at);

  ir::Module& module_;
  passes::AnalysisManager& analyses_;
  std::unordered_map<std::string_view, std::string_view> functions_; ///< name (or alias) -> name
  std::unordered_map<std::string_view, std::string_view> kernels_;
  std::unordered_map<std::string_view, uint64_t> original_; ///< function name -> address
  /// Distinct original addresses, sorted, with the function each one names.
  std::vector<std::pair<uint64_t, std::string_view>> sorted_;
  std::string sortedOriginals_, sortedCopies_; ///< names of the search tables once added
  bool declared_ = false;
};

std::string Translator::readOriginals(const OriginalFunctionAddresses& originals) {
  std::vector<std::string_view> taken = addressTakenFunctions(module_);
  std::vector<FunctionAddressTable> tables = functionAddressTables(module_);
  if (taken.empty())
    return {};
  if (taken.size() > kMaxTranslatedFunctions)
    return "the module takes the address of " + std::to_string(taken.size()) +
           " functions, more than the " + std::to_string(kMaxTranslatedFunctions) +
           " Ocelot translates";
  if (!originals) {
    // Offline: placeholders that only have to assemble.
    uint64_t placeholder = 0;
    for (std::string_view name : taken)
      original_.emplace(functions_.at(name), placeholder += 16);
    tables.clear();
  } else if (tables.empty()) {
    return "the module pipeline recorded no function addresses";
  }
  for (const FunctionAddressTable& table : tables) {
    std::optional<std::vector<uint64_t>> values = originals(table.name, table.functions.size());
    if (!values)
      return "the application's module has no record of its function addresses (it runs the "
             "application's own code)";
    if (values->size() != table.functions.size())
      return "the application's function-address table does not match its PTX";
    for (size_t i = 0; i < values->size(); ++i) {
      auto name = functions_.find(table.functions[i]);
      if (name != functions_.end())
        original_.emplace(name->second, (*values)[i]);
    }
  }
  for (std::string_view name : taken)
    if (!original_.contains(functions_.at(name)))
      return "the application's module recorded no address for function " + std::string(name);
  std::map<uint64_t, std::string_view> byAddress;
  for (const auto& [name, address] : original_)
    byAddress.emplace(address, name);
  sorted_.assign(byAddress.begin(), byAddress.end());
  return {};
}

FunctionUse Translator::inspect(const ir::Function& function) const {
  FunctionUse use;
  auto kernelAddress = [&](std::string_view name) {
    if (kernels_.contains(name) && use.blocker.empty())
      use.blocker = "takes the address of kernel " + std::string(name);
  };
  for (const auto& block : function.blocks())
    for (const auto& statement : block->statements()) {
      if (const auto* decl = ir::dyn_cast<ir::DeclarationStatement>(statement.get())) {
        for (const auto& d : decl->spec().declarators)
          if (d.initializer)
            forEachInitializerSymbol(*d.initializer, [&](const ir::SymbolOperand& symbol) {
              use.needsIdentity = use.needsIdentity || functions_.contains(symbol.name);
              kernelAddress(symbol.name);
            });
        continue;
      }
      const auto* inst = ir::dyn_cast<ir::Instruction>(statement.get());
      if (inst == nullptr)
        continue;
      const auto& ops = inst->operands();
      const bool call = inst->form().has(ir::kCall);
      const size_t target = callTargetIndex(*inst);
      if (isIndirectCall(*inst)) {
        use.indirect = true;
        use.needsIdentity = true;
      }
      for (size_t i = 0; i < ops.size(); ++i) {
        if (const auto* symbol = ops[i].getIf<ir::SymbolOperand>()) {
          if (call && i == target)
            continue; // a direct call
          use.needsIdentity = use.needsIdentity || functions_.contains(symbol->name);
          kernelAddress(symbol->name);
          continue;
        }
        forEachNestedSymbol(ops[i], [&](std::string_view name) {
          if (functions_.contains(name) && use.blocker.empty())
            use.blocker = "uses the address of function " + std::string(name) + " in `" +
                          std::string(inst->form().spelling()) + "` in a way Ocelot cannot rewrite";
          kernelAddress(name);
        });
      }
    }
  return use;
}

void Translator::declareBeforeFirstBody(std::string_view function, size_t& at) {
  for (size_t i = 0; i < at; ++i)
    if (const auto* f = ir::dyn_cast<ir::Function>(module_.items()[i].get()))
      if (f->name() == function)
        return;
  const ir::Function* definition = module_.findFunction(function);
  auto declaration = std::make_unique<ir::Function>(module_, false, definition->name());
  declaration->setPrefixWords(definition->prefixWords());
  declaration->signature() = definition->signature();
  declaration->directives() = definition->directives();
  declaration->setHasBody(false);
  module_.insert(at++, std::move(declaration));
}

void Translator::ensureSortedTables() {
  if (!sortedOriginals_.empty())
    return;
  // Padded to a power of two with the last entry, so that the search needs no bounds checks.
  const size_t size = std::bit_ceil(sorted_.size());
  sortedOriginals_ = freshGlobalName(module_, "__ocelot_sorted_function_addresses");
  sortedCopies_ = freshGlobalName(module_, "__ocelot_sorted_function_copies");
  // Before the first function with a body (every user comes later), after declarations of the
  // functions its initializer names.
  size_t at = 0;
  while (at < module_.items().size()) {
    const auto* f = ir::dyn_cast<ir::Function>(module_.items()[at].get());
    if (f != nullptr && f->hasBody())
      break;
    ++at;
  }
  for (const auto& [address, name] : sorted_)
    declareBeforeFirstBody(name, at);
  auto table = [&](const std::string& name, auto element) {
    ir::DeclarationSpec spec;
    spec.words.push_back({module_.intern(".global"), std::nullopt, {}});
    spec.words.push_back({module_.intern(".align"), uint64_t{8}, {}});
    spec.words.push_back({module_.intern(".u64"), std::nullopt, {}});
    ir::Declarator d;
    d.name = module_.intern(name);
    d.dimensions.push_back(static_cast<uint64_t>(size));
    std::vector<ir::Initializer> elements;
    for (size_t i = 0; i < size; ++i)
      elements.push_back(ir::Initializer::value(element(sorted_[std::min(i, sorted_.size() - 1)])));
    d.initializer = ir::Initializer::list(std::move(elements));
    spec.declarators.push_back(std::move(d));
    module_.insert(at++, std::make_unique<ir::GlobalVariable>(std::move(spec)));
  };
  table(sortedOriginals_, [](const auto& entry) { return hexImmediate(entry.first); });
  table(sortedCopies_,
        [](const auto& entry) { return ir::Operand(ir::SymbolOperand{entry.second}); });
}

ir::RegisterRef Translator::translate(ir::Function& function, ir::BasicBlock& block, size_t& index,
                                      ir::RegisterRef pointer, const ir::Instruction& call) {
  // The candidates: the functions a `.calltargets` list names, or the address-taken functions
  // whose parameters and results a `.callprototype` can pass, or else every one.
  std::vector<std::pair<uint64_t, std::string_view>> candidates;
  if (const auto* list = call.operands().back().getIf<ir::SymbolOperand>())
    for (const auto& b : function.blocks())
      for (const auto& statement : b->statements()) {
        if (const auto* targets = ir::dyn_cast<ir::CallTargets>(statement.get());
            targets != nullptr && targets->name() == list->name) {
          for (std::string_view name : targets->functions())
            if (auto f = functions_.find(name); f != functions_.end())
              if (auto it = original_.find(f->second); it != original_.end())
                candidates.emplace_back(it->second, f->second);
        } else if (const auto* prototype = ir::dyn_cast<ir::CallPrototype>(statement.get());
                   prototype != nullptr && prototype->name() == list->name) {
          for (const auto& entry : sorted_)
            if (const ir::Function* callee = module_.findFunction(entry.second);
                callee == nullptr || mayReach(prototype->signature(), *callee))
              candidates.push_back(entry);
        }
      }
  if (candidates.empty())
    candidates = sorted_;
  if (candidates.size() > kCompareChainLimit) {
    ensureSortedTables();
    candidates.clear();
  }
  if (!declared_ && !candidates.empty()) {
    // The copy's functions are named in this function's code: each must be declared before it.
    size_t at = 0;
    while (at < module_.items().size()) {
      const auto* f = ir::dyn_cast<ir::Function>(module_.items()[at].get());
      if (f != nullptr && f->hasBody())
        break;
      ++at;
    }
    for (const auto& [address, name] : sorted_)
      declareBeforeFirstBody(name, at);
    declared_ = true;
  }

  ir::IRBuilder b(function, &analyses_);
  b.at(block, index);
  const ir::ScalarType u64 = ir::ScalarType::U64;
  ir::RegisterRef result;
  if (!candidates.empty()) {
    // mov %t, %x; then per candidate: setp.eq %p, %x, original; @%p mov %t, copy.
    result = b.mov(u64, ir::IRBuilder::reg(pointer));
    for (const auto& [address, name] : candidates) {
      ir::RegisterRef match =
          b.compare("eq", u64, ir::IRBuilder::reg(pointer), hexImmediate(address));
      b.insert("mov.u64", {ir::IRBuilder::reg(result), b.symbol(name)}, ir::Guard{match, false});
    }
  } else {
    // Branch-free binary search: `at` ends as the byte offset of the last original address that
    // is <= %x (the first entry when none is); a match selects the copy at the same offset.
    const uint64_t size = std::bit_ceil(sorted_.size());
    ir::RegisterRef originals = b.mov(u64, b.symbol(sortedOriginals_));
    ir::RegisterRef at = b.mov(u64, ir::IRBuilder::imm(0));
    for (uint64_t step = size / 2; step >= 1; step /= 2) {
      ir::RegisterRef probe =
          b.add(u64, ir::IRBuilder::reg(at), ir::IRBuilder::imm(static_cast<int64_t>(step * 8)));
      ir::RegisterRef address =
          b.add(u64, ir::IRBuilder::reg(originals), ir::IRBuilder::reg(probe));
      ir::RegisterRef value = loadReadOnly(b, address);
      ir::RegisterRef below =
          b.compare("le", u64, ir::IRBuilder::reg(value), ir::IRBuilder::reg(pointer));
      ir::RegisterRef next = b.createRegister(u64);
      b.insert("selp.b64", {ir::IRBuilder::reg(next), ir::IRBuilder::reg(probe),
                            ir::IRBuilder::reg(at), ir::IRBuilder::reg(below)});
      at = next;
    }
    ir::RegisterRef address = b.add(u64, ir::IRBuilder::reg(originals), ir::IRBuilder::reg(at));
    ir::RegisterRef value = loadReadOnly(b, address);
    ir::RegisterRef found =
        b.compare("eq", u64, ir::IRBuilder::reg(value), ir::IRBuilder::reg(pointer));
    ir::RegisterRef copies = b.mov(u64, b.symbol(sortedCopies_));
    ir::RegisterRef copyAddress = b.add(u64, ir::IRBuilder::reg(copies), ir::IRBuilder::reg(at));
    ir::RegisterRef copy = loadReadOnly(b, copyAddress);
    result = b.createRegister(u64);
    b.insert("selp.b64", {ir::IRBuilder::reg(result), ir::IRBuilder::reg(copy),
                          ir::IRBuilder::reg(pointer), ir::IRBuilder::reg(found)});
  }
  index = b.index();
  return result;
}

void Translator::rewrite(ir::Function& function, FunctionTranslationResult& result) {
  bool changed = false;
  for (const auto& block : function.blocks()) {
    for (size_t i = 0; i < block->statements().size(); ++i) {
      ir::Statement* statement = block->statements()[i].get();
      if (auto* decl = ir::dyn_cast<ir::DeclarationStatement>(statement)) {
        for (auto& d : decl->spec().declarators)
          if (d.initializer)
            d.initializer = replaceInitializerSymbols(
                *d.initializer, [&](const ir::SymbolOperand& symbol) -> std::optional<ir::Operand> {
                  auto f = functions_.find(symbol.name);
                  if (f == functions_.end())
                    return std::nullopt;
                  ++result.materialized;
                  changed = true;
                  return hexImmediate(original_.at(f->second) +
                                      static_cast<uint64_t>(symbol.offset));
                });
        continue;
      }
      auto* inst = ir::dyn_cast<ir::Instruction>(statement);
      if (inst == nullptr)
        continue;
      const bool call = inst->form().has(ir::kCall);
      const size_t target = callTargetIndex(*inst);
      const bool isMove = inst->form().opcode() == ir::Opcode::Mov;
      for (size_t k = 0; k < inst->operands().size(); ++k) {
        const auto* symbol = inst->operands()[k].getIf<ir::SymbolOperand>();
        if (symbol == nullptr || (call && k == target))
          continue;
        auto f = functions_.find(symbol->name);
        if (f == functions_.end())
          continue;
        ir::Operand value =
            hexImmediate(original_.at(f->second) + static_cast<uint64_t>(symbol->offset));
        if (!isMove) {
          ir::IRBuilder b(function, &analyses_);
          b.at(*block, i);
          ir::RegisterRef held = b.mov(ir::ScalarType::U64, std::move(value));
          i = b.index();
          value = ir::IRBuilder::reg(held);
        }
        inst->operands()[k] = std::move(value); // `inst` itself did not move
        ++result.materialized;
        changed = true;
      }
      if (isIndirectCall(*inst) && !sorted_.empty()) {
        ir::RegisterRef pointer = inst->operands()[target].as<ir::RegisterOperand>().reg;
        ir::RegisterRef translated = translate(function, *block, i, pointer, *inst);
        inst->operands()[target] = ir::IRBuilder::reg(translated);
        ++result.indirectCalls;
        changed = true;
      }
    }
  }
  if (changed)
    analyses_.irChanged(function, ir::IRChange::Instructions);
}

FunctionTranslationResult Translator::run(const OriginalFunctionAddresses& originals, bool linked) {
  FunctionTranslationResult result;
  const std::string unknown = readOriginals(originals);
  result.functions = unknown.empty() ? static_cast<uint32_t>(original_.size()) : 0;

  // Which functions cannot keep identity, and why.
  std::unordered_map<const ir::Function*, std::string> unsafe;
  std::vector<ir::Function*> bodies;
  for (ir::Function* f : module_.functions()) {
    if (!f->hasBody())
      continue;
    bodies.push_back(f);
    FunctionUse use = inspect(*f);
    std::string name(f->name());
    if (!use.blocker.empty())
      unsafe[f] = "function " + name + " " + use.blocker;
    else if (use.needsIdentity && !unknown.empty())
      unsafe[f] = "function " + name + " uses function pointers and their original addresses " +
                  "are unknown: " + unknown;
    else if (use.indirect && linked)
      unsafe[f] = "function " + name + " calls through a function pointer in a separately " +
                  "compiled (-rdc) program, whose other units' function addresses Ocelot does not "
                  "translate";
  }
  bool unsafeAddressTaken = false;
  for (const auto& [f, why] : unsafe)
    unsafeAddressTaken = unsafeAddressTaken || original_.contains(f->name()) ||
                         (!unknown.empty() && functions_.contains(f->name()));
  if (!unsafe.empty()) {
    passes::CallGraph calls(module_);
    for (const ir::Function* kernel : bodies) {
      if (!kernel->isEntry())
        continue;
      std::string why;
      for (const ir::Function* reached : calls.reachableFrom(*kernel)) {
        if (auto it = unsafe.find(reached); it != unsafe.end()) {
          why = it->second;
          break;
        }
        if (unsafeAddressTaken && why.empty())
          for (const auto& site : calls.callsFrom(*reached))
            if (site.kind == passes::CallGraph::CallKind::Indirect)
              why = "function " + std::string(reached->name()) +
                    " calls through a function pointer that may reach code Ocelot cannot "
                    "translate";
      }
      if (!why.empty())
        result.excludedKernels.push_back({std::string(kernel->name()), why});
    }
  }
  if (!unknown.empty())
    return result;
  for (ir::Function* f : bodies)
    if (!unsafe.contains(f))
      rewrite(*f, result);
  return result;
}

} // namespace

FunctionTranslationResult translateFunctionAddresses(ir::Module& module,
                                                     passes::AnalysisManager& analyses,
                                                     const OriginalFunctionAddresses& originals,
                                                     bool linked) {
  return Translator(module, analyses).run(originals, linked);
}

} // namespace ocelot::instrumentors
