#include "ir/Module.h"

#include "ir/Casting.h"

namespace ocelot::ir {

void Module::setTargets(std::vector<std::string_view> targets) {
  targets_.clear();
  for (std::string_view t : targets)
    targets_.push_back(strings_.intern(t));
}

std::string_view Module::architecture() const {
  for (std::string_view t : targets_)
    if (t.starts_with("sm_") || t.starts_with("compute_"))
      return t;
  return {};
}

bool Module::hasDebugTarget() const {
  for (std::string_view t : targets_)
    if (t == "debug")
      return true;
  return false;
}

void Module::indexItem(ModuleItem& item) {
  if (auto* function = dyn_cast<Function>(&item)) {
    functions_.push_back(function);
    functionsByName_[function->name()].push_back(function);
  } else if (auto* file = dyn_cast<FileDirective>(&item)) {
    filePaths_.emplace(file->index(), file->path());
  }
}

void Module::itemsChanged(bool appended) {
  if (appended) {
    indexItem(*items_.back());
    return;
  }
  functions_.clear();
  functionsByName_.clear();
  filePaths_.clear();
  for (const auto& item : items_)
    indexItem(*item);
}

Function* Module::findFunction(std::string_view name) const {
  auto it = functionsByName_.find(name);
  if (it == functionsByName_.end())
    return nullptr;
  // Whether a function has a body can change after it was added (the parser adds it first).
  Function* declaration = nullptr;
  for (Function* f : it->second) {
    if (f->hasBody())
      return f;
    declaration = f;
  }
  return declaration;
}

std::string_view Module::filePath(uint32_t index) const {
  auto it = filePaths_.find(index);
  return it == filePaths_.end() ? std::string_view() : it->second;
}

GlobalVariable* Module::findGlobal(std::string_view name) const {
  for (const auto& item : items_)
    if (auto* global = dyn_cast<GlobalVariable>(item.get()))
      for (const auto& d : global->spec().declarators)
        if (d.name == name)
          return global;
  return nullptr;
}

const InstructionForm& Module::form(std::string_view spelling) {
  if (auto it = forms_.find(spelling); it != forms_.end())
    return *it->second;
  std::string_view interned = strings_.intern(spelling);
  auto [it, inserted] = forms_.emplace(interned, std::make_unique<InstructionForm>(interned));
  return *it->second;
}

bool Module::equals(const Module& other) const {
  if (version_ != other.version_ || targets_ != other.targets_ ||
      addressSize_ != other.addressSize_ || items_.size() != other.items_.size())
    return false;
  for (size_t i = 0; i < items_.size(); ++i) {
    const ModuleItem& a = *items_[i];
    const ModuleItem& b = *other.items_[i];
    if (a.kind() != b.kind())
      return false;
    switch (a.kind()) {
    case ModuleItem::Kind::GlobalVariable:
      if (!(cast<GlobalVariable>(&a)->spec() == cast<GlobalVariable>(&b)->spec()))
        return false;
      break;
    case ModuleItem::Kind::Function:
      if (!cast<Function>(&a)->equals(*cast<Function>(&b)))
        return false;
      break;
    case ModuleItem::Kind::File: {
      const auto* fa = cast<FileDirective>(&a);
      const auto* fb = cast<FileDirective>(&b);
      if (fa->index() != fb->index() || fa->path() != fb->path() ||
          fa->timestamp() != fb->timestamp() || fa->size() != fb->size())
        return false;
      break;
    }
    case ModuleItem::Kind::DebugSection: {
      const auto* sa = cast<DebugSection>(&a);
      const auto* sb = cast<DebugSection>(&b);
      if (!sa->sameContent(*sb))
        return false;
      break;
    }
    case ModuleItem::Kind::Alias: {
      const auto* aa = cast<AliasDirective>(&a);
      const auto* ab = cast<AliasDirective>(&b);
      if (aa->alias() != ab->alias() || aa->aliasee() != ab->aliasee())
        return false;
      break;
    }
    }
  }
  return true;
}

bool DebugSection::sameContent(const DebugSection& other) const {
  if (name_ != other.name_ || items_.size() != other.items_.size())
    return false;
  for (size_t i = 0; i < items_.size(); ++i) {
    const SectionItem& a = items_[i];
    const SectionItem& b = other.items_[i];
    if (a.value != b.value || a.kind != b.kind || a.continuation != b.continuation ||
        a.negative != b.negative || a.hexadecimal != b.hexadecimal ||
        text(a.directive) != other.text(b.directive) || text(a.symbol) != other.text(b.symbol) ||
        text(a.subtrahend) != other.text(b.subtrahend))
      return false;
  }
  return true;
}

} // namespace ocelot::ir
