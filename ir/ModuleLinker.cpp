#include "ir/ModuleLinker.h"

#include "ir/Casting.h"
#include "ir/ModuleClone.h"
#include "ir/PtxVersion.h"

#include <algorithm>
#include <deque>
#include <map>
#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace ocelot::ir {

namespace {

/// One declaration or definition of a linked (non-local) symbol in one unit.
struct Occurrence {
  uint32_t unit = 0;
  const ModuleItem* item = nullptr;
  size_t declarator = 0; ///< variables: which declarator of the item
  Linkage linkage = Linkage::None;
  bool definition = false;
  bool function = false;
  bool entry = false;
};

/// What the linked module keeps of one symbol.
struct Symbol {
  std::vector<Occurrence> occurrences;
  std::optional<size_t> chosen; ///< index into occurrences of the definition that is kept
  bool placed = false;          ///< already in the linked module (declaration or definition)
};

/// "sm_90" for messages.
std::string joinTargets(const std::vector<std::string_view>& targets) {
  std::string text;
  for (std::string_view t : targets)
    text += (text.empty() ? "" : ", ") + std::string(t);
  return text;
}

/// The types of a declaration list, names left out: what two declarations must agree on.
std::string typesOf(const std::vector<DeclarationSpec>& specs) {
  std::string text;
  for (const DeclarationSpec& spec : specs) {
    text += std::string(spec.typeWord());
    if (spec.vectorWidth() > 1)
      text += ".v" + std::to_string(spec.vectorWidth());
    for (const Declarator& d : spec.declarators) {
      for (const auto& dimension : d.dimensions)
        text += "[" + (dimension ? std::to_string(*dimension) : std::string()) + "]";
      text += ",";
    }
  }
  return text;
}

std::string functionShape(const Function& f) {
  return std::string(f.isEntry() ? ".entry" : ".func") + " (" + typesOf(f.signature().returns) +
         ") (" + typesOf(f.signature().parameters) + ")";
}

std::string variableShape(const DeclarationSpec& spec) {
  return std::string(stateSpaceName(spec.stateSpace())) + " " + std::string(spec.typeWord()) +
         (spec.vectorWidth() > 1 ? ".v" + std::to_string(spec.vectorWidth()) : "");
}

/// Bytes of one element of a variable (`.b32` 4, `.v4 .f32` 16); 1 for types without a width.
uint64_t elementBytes(const DeclarationSpec& spec) {
  std::string_view word = spec.typeWord();
  uint64_t bits = 0;
  for (char c : word)
    if (c >= '0' && c <= '9')
      bits = bits * 10 + static_cast<uint64_t>(c - '0');
  return std::max<uint64_t>(bits / 8, 1) * spec.vectorWidth();
}

uint64_t variableBytes(const DeclarationSpec& spec, const Declarator& d) {
  uint64_t count = 1;
  for (const auto& dimension : d.dimensions)
    count *= dimension.value_or(0);
  return count * elementBytes(spec);
}

/// `words` with its linkage word replaced by `linkage`'s (or put first if it had none).
std::vector<std::string_view> withLinkage(Module& target, std::vector<std::string_view> words,
                                          Linkage linkage) {
  std::string_view word = target.intern("." + std::string(linkageName(linkage)));
  for (std::string_view& w : words)
    if (linkageFromName(w)) {
      w = word;
      return words;
    }
  words.insert(words.begin(), word);
  return words;
}

/// Every symbol an initializer refers to.
void initializerSymbols(const Initializer& init, std::vector<std::string_view>& out) {
  switch (init.kind()) {
  case Initializer::Kind::Value:
    if (const auto* symbol = init.scalar().getIf<SymbolOperand>())
      out.push_back(symbol->name);
    break;
  case Initializer::Kind::List:
    for (const Initializer& e : init.elements())
      initializerSymbols(e, out);
    break;
  case Initializer::Kind::IntegerList:
    break;
  }
}

/// The one debug section of `-lineinfo` modules: the names `.loc ... inlined_at` refers to.
constexpr std::string_view kDebugStrings = ".debug_str";

class Linker {
public:
  explicit Linker(const std::vector<LinkUnit>& units) : units_(units) {}

  LinkResult run() {
    if (units_.empty())
      return fail("no units to link");
    for (const LinkUnit& unit : units_)
      if (unit.module == nullptr)
        return fail(unit.name + " has no IR");
    if (std::optional<std::string> error = checkHeaders())
      return fail(*error);
    if (std::optional<std::string> error = collect())
      return fail(*error);
    if (std::optional<std::string> error = resolve())
      return fail(*error);
    if (std::optional<std::string> error = renameLocals())
      return fail(*error);
    if (std::optional<std::string> error = emit())
      return fail(*error);
    for (const auto& [name, symbol] : symbols_)
      if (!symbol.chosen)
        result_.unresolved.push_back(name);
    result_.module = std::move(target_);
    return std::move(result_);
  }

private:
  LinkResult fail(std::string error) {
    LinkResult failed;
    failed.error = std::move(error);
    return failed;
  }

  std::optional<std::string> checkHeaders() {
    const Module& first = *units_.front().module;
    PtxVersion highest;
    std::string_view highestText;
    for (const LinkUnit& unit : units_) {
      const Module& m = *unit.module;
      std::optional<PtxVersion> version = parsePtxVersion(m.version());
      if (!version)
        return unit.name + " has no valid .version (\"" + std::string(m.version()) + "\")";
      if (highestText.empty() || *version > highest) {
        highest = *version;
        highestText = m.version();
      }
      if (m.targets() != first.targets())
        return units_.front().name + " targets " + joinTargets(first.targets()) + " but " +
               unit.name + " targets " + joinTargets(m.targets()) +
               ": units of one program must have the same .target";
      if (m.addressSize() != first.addressSize())
        return units_.front().name + " and " + unit.name + " differ in .address_size";
      if (m.hasDebugTarget())
        return unit.name + " was compiled with -G (.target debug): its DWARF sections refer to "
                           "labels of its own, which Ocelot does not link";
      for (const auto& item : m.items())
        if (const auto* section = dyn_cast<DebugSection>(item.get());
            section != nullptr && section->name() != kDebugStrings)
          return unit.name + " carries DWARF section " + std::string(section->name()) +
                 " (compiled with -G), which Ocelot does not link";
    }
    target_ = std::make_unique<Module>();
    target_->setVersion(highestText);
    std::vector<std::string_view> targets;
    for (std::string_view t : first.targets())
      targets.push_back(target_->intern(t));
    target_->setTargets(std::move(targets));
    target_->setAddressSize(first.addressSize());
    return std::nullopt;
  }

  /// Every module-scope symbol of every unit: linked ones into symbols_, local ones per unit.
  std::optional<std::string> collect() {
    locals_.resize(units_.size());
    for (uint32_t u = 0; u < units_.size(); ++u) {
      const Module& m = *units_[u].module;
      std::unordered_set<std::string_view> aliases;
      for (const auto& item : m.items())
        if (const auto* alias = dyn_cast<AliasDirective>(item.get()))
          aliases.insert(alias->alias());
      for (const auto& item : m.items()) {
        if (const auto* f = dyn_cast<Function>(item.get())) {
          Occurrence o{
              u,    f,           0, f->linkage(), f->hasBody() || aliases.contains(f->name()),
              true, f->isEntry()};
          if (std::optional<std::string> error = add(f->name(), o))
            return error;
        } else if (const auto* v = dyn_cast<GlobalVariable>(item.get())) {
          const DeclarationSpec& spec = v->spec();
          for (size_t d = 0; d < spec.declarators.size(); ++d) {
            Occurrence o{u, v, d, spec.linkage(), spec.linkage() != Linkage::Extern, false, false};
            if (std::optional<std::string> error = add(spec.declarators[d].name, o))
              return error;
          }
        }
      }
    }
    return std::nullopt;
  }

  std::optional<std::string> add(std::string_view name, const Occurrence& o) {
    allNames_.insert(std::string(name));
    if (o.linkage == Linkage::None) {
      locals_[o.unit].emplace(std::string(name), o.entry);
      if (o.entry)
        localEntries_[std::string(name)].push_back(o.unit);
      return std::nullopt;
    }
    symbols_[std::string(name)].occurrences.push_back(o);
    return std::nullopt;
  }

  std::string shape(const Occurrence& o) const {
    if (o.function)
      return functionShape(*cast<Function>(o.item));
    return variableShape(cast<GlobalVariable>(o.item)->spec());
  }

  std::optional<std::string> resolve() {
    for (const auto& [name, units] : localEntries_)
      if (units.size() > 1)
        return "kernel " + name + " is local to both " + units_[units[0]].name + " and " +
               units_[units[1]].name + " (kernels are found by name, so they cannot be renamed)";
    for (auto& [name, symbol] : symbols_) {
      const Occurrence& first = symbol.occurrences.front();
      const std::string firstShape = shape(first);
      std::optional<size_t> strong, weak, common;
      for (size_t i = 0; i < symbol.occurrences.size(); ++i) {
        const Occurrence& o = symbol.occurrences[i];
        if (o.function != first.function)
          return name + " is a " + (first.function ? "function" : "variable") + " in " +
                 units_[first.unit].name + " but a " + (o.function ? "function" : "variable") +
                 " in " + units_[o.unit].name;
        if (std::string s = shape(o); s != firstShape)
          return "conflicting declarations of " + name + ": " + units_[first.unit].name + " has " +
                 firstShape + ", " + units_[o.unit].name + " has " + s;
        if (!o.definition)
          continue;
        if (o.linkage == Linkage::Visible) {
          if (strong)
            return name + " is defined in both " + units_[symbol.occurrences[*strong].unit].name +
                   " and " + units_[o.unit].name + " (two .visible definitions)";
          strong = i;
        } else if (o.linkage == Linkage::Weak) {
          if (!weak)
            weak = i;
        } else if (o.linkage == Linkage::Common) {
          if (!common || bytes(o) > bytes(symbol.occurrences[*common]))
            common = i;
        }
      }
      if (common && (strong || weak))
        return name + " is .common in " + units_[symbol.occurrences[*common].unit].name +
               " but defined as ." + (strong ? "visible" : "weak") + " in " +
               units_[symbol.occurrences[strong ? *strong : *weak].unit].name;
      symbol.chosen = strong ? strong : weak ? weak : common;
    }
    return std::nullopt;
  }

  uint64_t bytes(const Occurrence& o) const {
    const DeclarationSpec& spec = cast<GlobalVariable>(o.item)->spec();
    return variableBytes(spec, spec.declarators[o.declarator]);
  }

  /// A local symbol keeps its name unless a linked symbol or an earlier unit's local has it.
  std::optional<std::string> renameLocals() {
    renamings_.resize(units_.size());
    std::unordered_set<std::string> claimed;
    for (uint32_t u = 0; u < units_.size(); ++u) {
      for (const auto& [name, entry] : locals_[u]) {
        if (!symbols_.contains(name) && claimed.insert(name).second)
          continue;
        if (entry)
          return "kernel " + name + " of " + units_[u].name +
                 " has the name of another unit's symbol (kernels are found by name, so they "
                 "cannot be renamed)";
        std::string fresh = name + "_unit" + std::to_string(u);
        while (allNames_.contains(fresh))
          fresh.insert(fresh.size() - std::to_string(u).size() - 5, "_");
        allNames_.insert(fresh);
        result_.renamed.push_back({units_[u].name, name, fresh});
        renamings_[u].symbols.emplace(name, fresh);
      }
    }
    // `.debug_str` labels ($L__info_string0) are numbered per unit: later units' get new names.
    std::unordered_set<std::string> labels;
    for (uint32_t u = 0; u < units_.size(); ++u)
      for (const auto& item : units_[u].module->items())
        if (const auto* section = dyn_cast<DebugSection>(item.get()))
          for (const SectionItem& i : section->items())
            if (i.kind == SectionItem::Kind::Label) {
              std::string label(section->text(i.symbol));
              if (labels.insert(label).second)
                continue;
              std::string fresh = label + "_unit" + std::to_string(u);
              while (labels.contains(fresh))
                fresh += "_";
              labels.insert(fresh);
              debugLabelNames_.push_back(label);
              renamings_[u].debugLabels.emplace(debugLabelNames_.back(), fresh);
            }
    return std::nullopt;
  }

  std::optional<std::string> emit() {
    Arena::Scope arena(target_->arena());
    uint32_t fileOffset = 0;
    for (uint32_t u = 0; u < units_.size(); ++u) {
      CloneRenaming& renaming = renamings_[u];
      renaming.fileOffset = fileOffset;
      uint32_t files = 0;
      for (const auto& item : units_[u].module->items()) {
        if (const auto* file = dyn_cast<FileDirective>(item.get()))
          files = std::max(files, file->index());
        if (std::optional<std::string> error = place(u, *item))
          return error;
      }
      fileOffset += files;
    }
    if (debugStrings_)
      append(std::move(debugStrings_));
    return std::nullopt;
  }

  /// The units' `.debug_str` sections become one, at the end of the linked module (where each
  /// unit has its own).
  void mergeDebugStrings(uint32_t u, const DebugSection& section) {
    auto copy = std::unique_ptr<DebugSection>(
        cast<DebugSection>(cloneItem(*target_, section, renamings_[u]).release()));
    if (!debugStrings_) {
      debugStrings_ = std::move(copy);
      return;
    }
    const uint32_t base = static_cast<uint32_t>(debugStrings_->nameCount());
    for (size_t n = 0; n < copy->nameCount(); ++n)
      debugStrings_->addName(copy->text(static_cast<uint32_t>(n)));
    auto shift = [&](uint32_t index) {
      return index == SectionItem::kNoName ? index : index + base;
    };
    for (SectionItem item : copy->items()) {
      item.directive = shift(item.directive);
      item.symbol = shift(item.symbol);
      item.subtrahend = shift(item.subtrahend);
      debugStrings_->items().push_back(item);
    }
  }

  void append(std::unique_ptr<ModuleItem> item) { target_->append(std::move(item)); }

  std::optional<std::string> place(uint32_t u, const ModuleItem& item) {
    const CloneRenaming& renaming = renamings_[u];
    if (const auto* f = dyn_cast<Function>(&item)) {
      if (f->linkage() == Linkage::None) {
        append(cloneItem(*target_, item, renaming));
        return std::nullopt;
      }
      Symbol& symbol = symbols_.at(std::string(f->name()));
      const Occurrence* chosen = symbol.chosen ? &symbol.occurrences[*symbol.chosen] : nullptr;
      const bool isChosen = chosen != nullptr && chosen->item == &item;
      if (isChosen) {
        append(cloneItem(*target_, item, renaming));
        symbol.placed = true;
        return std::nullopt;
      }
      if (symbol.placed)
        return std::nullopt;
      // The first mention of a symbol defined later (or nowhere): a prototype, with the linkage
      // of the definition it resolves to.
      std::unique_ptr<Function> prototype =
          f->hasBody() ? prototypeOf(*f, renaming) : cloneFunction(*f, renaming);
      if (chosen != nullptr)
        prototype->setPrefixWords(withLinkage(*target_, prototype->prefixWords(), chosen->linkage));
      append(std::move(prototype));
      symbol.placed = true;
      return std::nullopt;
    }
    if (const auto* v = dyn_cast<GlobalVariable>(&item)) {
      if (v->spec().linkage() == Linkage::None) {
        append(cloneItem(*target_, item, renaming));
        return std::nullopt;
      }
      // Declarator by declarator: each is kept here, moved up here (a definition of a later unit
      // that this declaration resolves to), or left out (placed before).
      std::vector<size_t> kept;
      for (size_t d = 0; d < v->spec().declarators.size(); ++d) {
        Symbol& symbol = symbols_.at(std::string(v->spec().declarators[d].name));
        if (symbol.placed)
          continue;
        const Occurrence* chosen = symbol.chosen ? &symbol.occurrences[*symbol.chosen] : nullptr;
        symbol.placed = true;
        if (chosen == nullptr || (chosen->item == &item && chosen->declarator == d)) {
          kept.push_back(d);
          continue;
        }
        if (std::optional<std::string> error = placeEarly(*chosen))
          return error;
      }
      if (kept.empty())
        return std::nullopt;
      append(onlyDeclarators(*v, renaming, kept));
    }
    if (const auto* section = dyn_cast<DebugSection>(&item))
      mergeDebugStrings(u, *section);
    if (isa<FileDirective>(&item) || isa<AliasDirective>(&item))
      append(cloneItem(*target_, item, renaming));
    return std::nullopt;
  }

  /// Puts variable definition `chosen` (of a later unit) here, where a declaration of it comes
  /// first; what its initializer refers to must already be in the linked module.
  std::optional<std::string> placeEarly(const Occurrence& chosen) {
    const auto& v = *cast<GlobalVariable>(chosen.item);
    const Declarator& d = v.spec().declarators[chosen.declarator];
    if (d.initializer) {
      std::vector<std::string_view> refers;
      initializerSymbols(*d.initializer, refers);
      for (std::string_view name : refers) {
        auto it = symbols_.find(std::string(name));
        if (it == symbols_.end() || !it->second.placed)
          return "the definition of " + std::string(d.name) + " (" + units_[chosen.unit].name +
                 ") is needed before " + units_[chosen.unit].name +
                 ", but its initializer refers to " + std::string(name) + ", which comes later";
      }
    }
    append(onlyDeclarators(v, renamings_[chosen.unit], {chosen.declarator}));
    return std::nullopt;
  }

  std::unique_ptr<GlobalVariable> onlyDeclarators(const GlobalVariable& v,
                                                  const CloneRenaming& renaming,
                                                  const std::vector<size_t>& kept) {
    auto copy = std::unique_ptr<GlobalVariable>(
        cast<GlobalVariable>(cloneItem(*target_, v, renaming).release()));
    std::vector<Declarator> declarators;
    for (size_t d : kept)
      declarators.push_back(std::move(copy->spec().declarators[d]));
    copy->spec().declarators = std::move(declarators);
    return copy;
  }

  std::unique_ptr<Function> cloneFunction(const Function& f, const CloneRenaming& renaming) {
    return std::unique_ptr<Function>(cast<Function>(cloneItem(*target_, f, renaming).release()));
  }

  /// `f`'s header without its body.
  std::unique_ptr<Function> prototypeOf(const Function& f, const CloneRenaming& renaming) {
    auto header = std::make_unique<Function>(*target_, f.isEntry(), f.name());
    header->setPrefixWords(f.prefixWords());
    header->signature() = f.signature();
    header->directives() = f.directives();
    header->setLine(f.line());
    // Through the cloner, so that every name is the linked module's.
    return cloneFunction(*header, renaming);
  }

  const std::vector<LinkUnit>& units_;
  std::unique_ptr<Module> target_;
  LinkResult result_;
  std::map<std::string, Symbol> symbols_; ///< linked symbols, by name
  /// Per unit: its local symbols (name -> whether it is a kernel).
  std::vector<std::map<std::string, bool>> locals_;
  std::map<std::string, std::vector<uint32_t>> localEntries_;
  std::unordered_set<std::string> allNames_;
  std::vector<CloneRenaming> renamings_;
  std::deque<std::string> debugLabelNames_; ///< the keys of the renamings' debugLabels
  std::unique_ptr<DebugSection> debugStrings_;
};

} // namespace

LinkResult linkModules(const std::vector<LinkUnit>& units) {
  return Linker(units).run();
}

} // namespace ocelot::ir
