#include "instrumentors/FunctionAddressTable.h"

#include "ir/Casting.h"

#include <unordered_map>
#include <unordered_set>

namespace ocelot::instrumentors {

namespace {

/// Names that stand for a device function's address: functions that are not kernels, and
/// `.alias` names of them.
std::unordered_set<std::string_view> deviceFunctionNames(const ir::Module& module) {
  std::unordered_set<std::string_view> names;
  for (const ir::Function* f : module.functions())
    if (!f->isEntry())
      names.insert(f->name());
  for (const auto& item : module.items())
    if (const auto* alias = ir::dyn_cast<ir::AliasDirective>(item.get()))
      if (names.contains(alias->aliasee()))
        names.insert(alias->alias());
  return names;
}

template <class Fn> void forEachInitializerSymbol(const ir::Initializer& init, Fn&& fn) {
  switch (init.kind()) {
  case ir::Initializer::Kind::Value:
    if (const auto* symbol = init.scalar().getIf<ir::SymbolOperand>())
      fn(symbol->name);
    break;
  case ir::Initializer::Kind::List:
    for (const auto& element : init.elements())
      forEachInitializerSymbol(element, fn);
    break;
  case ir::Initializer::Kind::IntegerList:
    break;
  }
}

template <class Fn> void forEachOperandSymbol(const ir::Operand& operand, Fn&& fn) {
  if (const auto* symbol = operand.getIf<ir::SymbolOperand>()) {
    fn(symbol->name);
  } else if (const auto* address = operand.getIf<ir::AddressOperand>()) {
    if (const auto* base = std::get_if<ir::SymbolOperand>(&address->base))
      fn(base->name);
    for (const auto& part : address->extra)
      forEachOperandSymbol(part, fn);
  } else if (const auto* vector = operand.getIf<ir::VectorOperand>()) {
    for (const auto& element : vector->elements)
      forEachOperandSymbol(element, fn);
  } else if (const auto* dual = operand.getIf<ir::DualOperand>()) {
    for (const auto& part : dual->parts)
      forEachOperandSymbol(part, fn);
  } else if (const auto* list = operand.getIf<ir::ArgumentListOperand>()) {
    for (const auto& argument : list->arguments)
      forEachOperandSymbol(argument, fn);
  }
}

bool isOcelotTable(std::string_view name) {
  return name.starts_with(kFunctionAddressTablePrefix);
}

} // namespace

std::string functionAddressTableName(uint32_t unit) {
  return std::string(kFunctionAddressTablePrefix) + std::to_string(unit);
}

std::vector<std::string_view> addressTakenFunctions(const ir::Module& module) {
  const auto functions = deviceFunctionNames(module);
  std::vector<std::string_view> order;
  std::unordered_set<std::string_view> seen;
  auto use = [&](std::string_view name) {
    if (functions.contains(name) && seen.insert(name).second)
      order.push_back(name);
  };
  for (const auto& item : module.items()) {
    if (const auto* global = ir::dyn_cast<ir::GlobalVariable>(item.get())) {
      for (const auto& d : global->spec().declarators)
        if (d.initializer && !isOcelotTable(d.name))
          forEachInitializerSymbol(*d.initializer, use);
      continue;
    }
    const auto* f = ir::dyn_cast<ir::Function>(item.get());
    if (f == nullptr)
      continue;
    for (const auto& block : f->blocks())
      for (const auto& statement : block->statements()) {
        if (const auto* decl = ir::dyn_cast<ir::DeclarationStatement>(statement.get())) {
          for (const auto& d : decl->spec().declarators)
            if (d.initializer)
              forEachInitializerSymbol(*d.initializer, use);
          continue;
        }
        const auto* inst = ir::dyn_cast<ir::Instruction>(statement.get());
        if (inst == nullptr)
          continue;
        const auto& ops = inst->operands();
        const bool call = inst->form().has(ir::kCall);
        const size_t target = !ops.empty() && ops[0].is<ir::ArgumentListOperand>() ? 1 : 0;
        for (size_t i = 0; i < ops.size(); ++i)
          if (!(call && i == target && ops[i].is<ir::SymbolOperand>()))
            forEachOperandSymbol(ops[i], use);
      }
  }
  return order;
}

size_t addFunctionAddressTable(ir::Module& module, uint32_t unit) {
  std::vector<std::string_view> functions = addressTakenFunctions(module);
  if (functions.empty())
    return 0;
  ir::DeclarationSpec spec;
  spec.words.push_back({module.intern(".global"), std::nullopt, {}});
  spec.words.push_back({module.intern(".align"), uint64_t{8}, {}});
  spec.words.push_back({module.intern(".u64"), std::nullopt, {}});
  ir::Declarator table;
  table.name = module.intern(functionAddressTableName(unit));
  table.dimensions.push_back(static_cast<uint64_t>(functions.size()));
  std::vector<ir::Initializer> elements;
  elements.reserve(functions.size());
  for (std::string_view name : functions)
    elements.push_back(ir::Initializer::value(ir::SymbolOperand{name}));
  table.initializer = ir::Initializer::list(std::move(elements));
  spec.declarators.push_back(std::move(table));
  // Right after the last function (each must be declared before the initializer names it), so
  // before the debug sections that end a module.
  size_t at = 0;
  for (size_t i = 0; i < module.items().size(); ++i)
    if (module.items()[i]->kind() == ir::ModuleItem::Kind::Function)
      at = i + 1;
  module.insert(at, std::make_unique<ir::GlobalVariable>(std::move(spec)));
  return functions.size();
}

std::vector<FunctionAddressTable> functionAddressTables(const ir::Module& module) {
  std::vector<FunctionAddressTable> tables;
  for (const auto& item : module.items()) {
    const auto* global = ir::dyn_cast<ir::GlobalVariable>(item.get());
    if (global == nullptr)
      continue;
    for (const auto& d : global->spec().declarators) {
      if (!isOcelotTable(d.name) || !d.initializer)
        continue;
      FunctionAddressTable table{d.name, {}};
      forEachInitializerSymbol(*d.initializer,
                               [&](std::string_view name) { table.functions.push_back(name); });
      tables.push_back(std::move(table));
    }
  }
  return tables;
}

} // namespace ocelot::instrumentors
