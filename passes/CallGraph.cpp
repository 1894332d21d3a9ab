#include "passes/CallGraph.h"

#include "ir/Casting.h"
#include "ir/InstructionForm.h"

#include <algorithm>
#include <unordered_set>

namespace ocelot::passes {

AnalysisKey CallGraphAnalysis::Key;

namespace {

/// Whether two parameter lists agree in what a caller passes: count, state space, type and
/// array shape of each parameter (names do not matter).
bool sameShape(const std::vector<ir::DeclarationSpec>& a,
               const std::vector<ir::DeclarationSpec>& b) {
  auto flatten = [](const std::vector<ir::DeclarationSpec>& list) {
    std::vector<std::tuple<ir::StateSpace, std::string_view, unsigned,
                           std::vector<std::optional<uint64_t>>>>
        shapes;
    for (const auto& spec : list)
      for (const auto& d : spec.declarators)
        shapes.emplace_back(spec.stateSpace(), spec.typeWord(), spec.vectorWidth(), d.dimensions);
    return shapes;
  };
  return flatten(a) == flatten(b);
}

bool matches(const ir::FunctionSignature& prototype, const ir::Function& function) {
  return sameShape(prototype.returns, function.signature().returns) &&
         sameShape(prototype.parameters, function.signature().parameters);
}

void collectInitializerSymbols(const ir::Initializer& init,
                               std::unordered_set<std::string_view>& out) {
  switch (init.kind()) {
  case ir::Initializer::Kind::Value:
    if (const auto* symbol = init.scalar().getIf<ir::SymbolOperand>())
      out.insert(symbol->name);
    break;
  case ir::Initializer::Kind::List:
    for (const auto& element : init.elements())
      collectInitializerSymbols(element, out);
    break;
  case ir::Initializer::Kind::IntegerList:
    break;
  }
}

} // namespace

CallGraph::CallGraph(const ir::Module& module) : module_(&module) {
  // Functions used as values anywhere: initializers, and instruction operands other than the
  // target of a call.
  std::unordered_set<std::string_view> usedAsValue;
  for (const auto& item : module.items())
    if (const auto* global = ir::dyn_cast<ir::GlobalVariable>(item.get()))
      for (const auto& d : global->spec().declarators)
        if (d.initializer)
          collectInitializerSymbols(*d.initializer, usedAsValue);
  for (const ir::Function* f : module.functions())
    for (const auto& block : f->blocks())
      block->forEachInstruction([&](const ir::Instruction& inst) {
        bool isCall = inst.form().has(ir::kCall);
        const auto& ops = inst.operands();
        size_t target = !ops.empty() && ops[0].is<ir::ArgumentListOperand>() ? 1 : 0;
        for (size_t i = 0; i < ops.size(); ++i) {
          if (isCall && i == target)
            continue;
          if (const auto* symbol = ops[i].getIf<ir::SymbolOperand>())
            usedAsValue.insert(symbol->name);
          else if (const auto* address = ops[i].getIf<ir::AddressOperand>())
            if (const auto* base = std::get_if<ir::SymbolOperand>(&address->base))
              usedAsValue.insert(base->name);
        }
      });
  std::unordered_set<const ir::Function*> taken;
  for (const ir::Function* f : module.functions())
    if (usedAsValue.contains(f->name()) && taken.insert(f).second)
      addressTaken_.push_back(f);

  for (const ir::Function* caller : module.functions()) {
    uint32_t begin = static_cast<uint32_t>(sites_.size());
    // Tables an indirect call can name.
    std::unordered_map<std::string_view, const ir::CallPrototype*> prototypes;
    std::unordered_map<std::string_view, const ir::CallTargets*> targetLists;
    for (const auto& block : caller->blocks())
      for (const auto& s : block->statements()) {
        if (const auto* p = ir::dyn_cast<ir::CallPrototype>(s.get()))
          prototypes[p->name()] = p;
        else if (const auto* t = ir::dyn_cast<ir::CallTargets>(s.get()))
          targetLists[t->name()] = t;
      }
    for (const auto& block : caller->blocks())
      block->forEachInstruction([&](const ir::Instruction& inst) {
        if (!inst.form().has(ir::kCall))
          return;
        const auto& ops = inst.operands();
        size_t target = !ops.empty() && ops[0].is<ir::ArgumentListOperand>() ? 1 : 0;
        if (target >= ops.size())
          return;
        if (const auto* symbol = ops[target].getIf<ir::SymbolOperand>()) {
          sites_.push_back({caller, &inst, module.findFunction(symbol->name), CallKind::Direct});
          return;
        }
        // Indirect: the last operand names the prototype or target list.
        const auto* table = ops.back().getIf<ir::SymbolOperand>();
        size_t before = sites_.size();
        if (table != nullptr) {
          if (auto it = targetLists.find(table->name); it != targetLists.end()) {
            for (std::string_view name : it->second->functions())
              sites_.push_back({caller, &inst, module.findFunction(name), CallKind::Indirect});
          } else if (auto p = prototypes.find(table->name); p != prototypes.end()) {
            for (const ir::Function* candidate : addressTaken_)
              if (matches(p->second->signature(), *candidate))
                sites_.push_back({caller, &inst, candidate, CallKind::Indirect});
          }
        }
        if (sites_.size() == before)
          sites_.push_back({caller, &inst, nullptr, CallKind::Indirect});
      });
    ranges_[caller] = {begin, static_cast<uint32_t>(sites_.size())};
  }

  // Sites by callee (a counting sort keeps the order of sites_).
  std::unordered_map<const ir::Function*, uint32_t> counts;
  for (const auto& site : sites_)
    if (site.callee != nullptr)
      ++counts[site.callee];
  uint32_t start = 0;
  for (const ir::Function* f : module.functions())
    if (auto it = counts.find(f); it != counts.end() && !calleeRanges_.contains(f)) {
      calleeRanges_[f] = {start, start};
      start += it->second;
    }
  for (const auto& [f, count] : counts) // callees that are not functions of this module
    if (!calleeRanges_.contains(f)) {
      calleeRanges_[f] = {start, start};
      start += count;
    }
  callers_.resize(start);
  for (uint32_t i = 0; i < sites_.size(); ++i)
    if (sites_[i].callee != nullptr)
      callers_[calleeRanges_[sites_[i].callee].second++] = i;

  // Recursion: functions in a strongly connected component with more than one function, or that
  // call themselves (Tarjan's algorithm, with an explicit stack: call chains can be 100k deep).
  std::unordered_map<const ir::Function*, uint32_t> number, low;
  std::vector<const ir::Function*> component;
  std::unordered_set<const ir::Function*> onComponentStack;
  uint32_t counter = 0;
  struct Frame {
    const ir::Function* f;
    std::span<const CallSite> sites;
    size_t next;
  };
  for (const ir::Function* root : module.functions()) {
    if (number.contains(root))
      continue;
    std::vector<Frame> stack;
    auto enter = [&](const ir::Function* f) {
      number[f] = low[f] = counter++;
      component.push_back(f);
      onComponentStack.insert(f);
      stack.push_back({f, callsFrom(*f), 0});
    };
    enter(root);
    while (!stack.empty()) {
      Frame& frame = stack.back();
      if (frame.next < frame.sites.size()) {
        const ir::Function* callee = frame.sites[frame.next++].callee;
        if (callee == nullptr)
          continue;
        if (callee == frame.f)
          recursive_.insert(callee);
        if (!number.contains(callee))
          enter(callee);
        else if (onComponentStack.contains(callee))
          low[frame.f] = std::min(low[frame.f], number[callee]);
        continue;
      }
      const ir::Function* f = frame.f;
      stack.pop_back();
      if (!stack.empty())
        low[stack.back().f] = std::min(low[stack.back().f], low[f]);
      if (low[f] != number[f])
        continue;
      size_t first = component.size();
      while (component[first - 1] != f)
        --first;
      --first;
      if (component.size() - first > 1)
        recursive_.insert(component.begin() + static_cast<std::ptrdiff_t>(first), component.end());
      for (size_t i = first; i < component.size(); ++i)
        onComponentStack.erase(component[i]);
      component.resize(first);
    }
  }
}

std::span<const CallGraph::CallSite> CallGraph::callsFrom(const ir::Function& function) const {
  auto it = ranges_.find(&function);
  if (it == ranges_.end())
    return {};
  return {sites_.data() + it->second.first, sites_.data() + it->second.second};
}

std::vector<CallGraph::CallSite> CallGraph::callsTo(const ir::Function& function) const {
  std::vector<CallSite> result;
  auto it = calleeRanges_.find(&function);
  if (it == calleeRanges_.end())
    return result;
  for (uint32_t i = it->second.first; i < it->second.second; ++i)
    result.push_back(sites_[callers_[i]]);
  return result;
}

std::vector<const ir::Function*> CallGraph::reachableFrom(const ir::Function& root) const {
  std::vector<const ir::Function*> order{&root};
  std::unordered_set<const ir::Function*> seen{&root};
  for (size_t i = 0; i < order.size(); ++i)
    for (const auto& site : callsFrom(*order[i]))
      if (site.callee != nullptr && seen.insert(site.callee).second)
        order.push_back(site.callee);
  return order;
}

bool CallGraph::isRecursive(const ir::Function& function) const {
  return recursive_.contains(&function);
}

} // namespace ocelot::passes
