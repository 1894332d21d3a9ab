#include "ir/ModuleClone.h"

#include "ir/Casting.h"

#include <unordered_map>
#include <unordered_set>

namespace ocelot::ir {

namespace {

/// Copies one module's items into another, re-interning every name in the target's pool.
class Cloner {
public:
  explicit Cloner(Module& target, const CloneRenaming* renaming = nullptr)
      : target_(target), renaming_(renaming) {}

  std::string_view name(std::string_view text) {
    // An empty view stays empty (some have no data pointer; none needs one).
    return text.empty() ? std::string_view() : target_.intern(text);
  }
  /// A reference to a module-scope symbol: renamed when the renaming says so, unless a
  /// declaration of the function being copied shadows it.
  std::string_view symbol(std::string_view text) {
    if (renaming_ != nullptr && !locals_.contains(text))
      if (auto it = renaming_->symbols.find(text); it != renaming_->symbols.end())
        return target_.intern(it->second);
    return name(text);
  }
  /// A label of a debug section (or a `.loc`'s reference to one), renamed when the renaming
  /// says so.
  std::string_view debugName(std::string_view text) {
    if (renaming_ != nullptr)
      if (auto it = renaming_->debugLabels.find(text); it != renaming_->debugLabels.end())
        return target_.intern(it->second);
    return name(text);
  }
  uint32_t file(uint32_t index) const {
    return index == 0 || renaming_ == nullptr ? index : index + renaming_->fileOffset;
  }
  std::vector<std::string_view> names(const std::vector<std::string_view>& texts) {
    std::vector<std::string_view> out;
    out.reserve(texts.size());
    for (std::string_view text : texts)
      out.push_back(name(text));
    return out;
  }

  Operand operand(const Operand& source) {
    return source.visit([&](const auto& value) -> Operand { return copy(value); });
  }
  std::vector<Operand> operands(const std::vector<Operand>& source) {
    std::vector<Operand> out;
    out.reserve(source.size());
    for (const Operand& o : source)
      out.push_back(operand(o));
    return out;
  }

  /// `moduleScope`: the declarators are module-scope symbols (subject to the renaming).
  DeclarationSpec spec(const DeclarationSpec& source, bool moduleScope = false) {
    DeclarationSpec out;
    out.words.reserve(source.words.size());
    for (const DeclarationWord& w : source.words)
      out.words.push_back({name(w.word), w.value, names(w.arguments)});
    out.declarators.reserve(source.declarators.size());
    for (const Declarator& d : source.declarators) {
      Declarator copy;
      copy.name = moduleScope ? symbol(d.name) : name(d.name);
      copy.registerCount = d.registerCount;
      copy.parameterized = d.parameterized;
      copy.dimensions = d.dimensions;
      if (d.initializer)
        copy.initializer = initializer(*d.initializer);
      out.declarators.push_back(std::move(copy));
    }
    return out;
  }

  FunctionSignature signature(const FunctionSignature& source) {
    FunctionSignature out;
    out.hasReturnList = source.hasReturnList;
    out.hasParameterList = source.hasParameterList;
    for (const DeclarationSpec& s : source.returns)
      out.returns.push_back(spec(s));
    for (const DeclarationSpec& s : source.parameters)
      out.parameters.push_back(spec(s));
    return out;
  }

  std::vector<FunctionDirective> directives(const std::vector<FunctionDirective>& source) {
    std::vector<FunctionDirective> out;
    out.reserve(source.size());
    for (const FunctionDirective& d : source)
      out.push_back({name(d.name), d.values});
    return out;
  }

  std::unique_ptr<ModuleItem> item(const ModuleItem& source) {
    std::unique_ptr<ModuleItem> out;
    switch (source.kind()) {
    case ModuleItem::Kind::GlobalVariable:
      out = std::make_unique<GlobalVariable>(
          spec(cast<GlobalVariable>(&source)->spec(), /*moduleScope=*/true));
      break;
    case ModuleItem::Kind::Function:
      out = function(*cast<Function>(&source));
      break;
    case ModuleItem::Kind::File: {
      const auto& file = *cast<FileDirective>(&source);
      out = std::make_unique<FileDirective>(this->file(file.index()), name(file.path()),
                                            file.timestamp(), file.size());
      break;
    }
    case ModuleItem::Kind::DebugSection: {
      const auto& section = *cast<DebugSection>(&source);
      auto copy = std::make_unique<DebugSection>(name(section.name()));
      // The items refer to names by index: the same table, in the same order, keeps them valid.
      for (size_t i = 0; i < section.nameCount(); ++i)
        copy->addName(debugName(section.text(static_cast<uint32_t>(i))));
      copy->items() = section.items();
      out = std::move(copy);
      break;
    }
    case ModuleItem::Kind::Alias: {
      const auto& alias = *cast<AliasDirective>(&source);
      out = std::make_unique<AliasDirective>(symbol(alias.alias()), symbol(alias.aliasee()));
      break;
    }
    }
    out->setLine(source.line());
    return out;
  }

private:
  Operand copy(const RegisterOperand& value) { return value; }
  Operand copy(const LabelOperand& value) { return value; }
  Operand copy(const SinkOperand& value) { return value; }
  Operand copy(const SpecialRegisterOperand& value) {
    SpecialRegisterOperand out = value;
    out.name = name(value.name);
    return out;
  }
  Operand copy(const ImmediateOperand& value) {
    ImmediateOperand out = value;
    out.text = name(value.text);
    return out;
  }
  Operand copy(const SymbolOperand& value) {
    SymbolOperand out = value;
    out.name = symbol(value.name);
    return out;
  }
  Operand copy(const AddressOperand& value) {
    AddressOperand out;
    if (const auto* symbol = std::get_if<SymbolOperand>(&value.base)) {
      SymbolOperand base = *symbol;
      base.name = this->symbol(symbol->name);
      out.base = base;
    } else {
      out.base = value.base;
    }
    out.offset = value.offset;
    out.explicitOffset = value.explicitOffset;
    out.extra = operands(value.extra);
    return out;
  }
  Operand copy(const VectorOperand& value) { return VectorOperand{operands(value.elements)}; }
  Operand copy(const DualOperand& value) { return DualOperand{operands(value.parts)}; }
  Operand copy(const ArgumentListOperand& value) {
    return ArgumentListOperand{operands(value.arguments)};
  }

  Initializer initializer(const Initializer& source) {
    switch (source.kind()) {
    case Initializer::Kind::Value:
      return Initializer::value(operand(source.scalar()));
    case Initializer::Kind::List: {
      std::vector<Initializer> elements;
      elements.reserve(source.elements().size());
      for (const Initializer& e : source.elements())
        elements.push_back(initializer(e));
      return Initializer::list(std::move(elements));
    }
    case Initializer::Kind::IntegerList:
      break;
    }
    return Initializer::integers(source.integerValues());
  }

  std::unique_ptr<Statement> statement(const Statement& source) {
    std::unique_ptr<Statement> out;
    switch (source.kind()) {
    case Statement::Kind::Instruction: {
      const auto& inst = *cast<Instruction>(&source);
      OperandList list;
      list.reserve(inst.operands().size());
      for (const Operand& o : inst.operands())
        list.emplace_back(operand(o));
      auto copy = std::make_unique<Instruction>(target_.form(inst.form().spelling()),
                                                std::move(list), inst.scope());
      copy->setGuard(inst.guard());
      SourceLoc location = inst.sourceLoc();
      location.file = file(location.file);
      copy->setSourceLoc(location);
      copy->setOperandLineOffset(inst.operandLineOffset());
      out = std::move(copy);
      break;
    }
    case Statement::Kind::Label: {
      const auto& label = *cast<Label>(&source);
      auto copy = std::make_unique<Label>(label.id(), name(label.name()), label.scope());
      labels_.emplace(&label, copy.get());
      out = std::move(copy);
      break;
    }
    case Statement::Kind::Declaration: {
      const auto& declaration = *cast<DeclarationStatement>(&source);
      auto copy =
          std::make_unique<DeclarationStatement>(spec(declaration.spec()), declaration.scope());
      copy->setRegisterDeclarators(declaration.registerDeclarators());
      out = std::move(copy);
      break;
    }
    case Statement::Kind::Loc: {
      const auto& loc = *cast<LocDirective>(&source);
      std::optional<LocDirective::InlinedAt> inlinedAt = loc.inlinedAt();
      if (inlinedAt) {
        inlinedAt->functionName = debugName(inlinedAt->functionName);
        inlinedAt->location.file = file(inlinedAt->location.file);
      }
      SourceLoc location = loc.location();
      location.file = file(location.file);
      out = std::make_unique<LocDirective>(location, inlinedAt, loc.scope());
      break;
    }
    case Statement::Kind::Pragma: {
      const auto& pragma = *cast<PragmaDirective>(&source);
      out = std::make_unique<PragmaDirective>(names(pragma.strings()), pragma.scope());
      break;
    }
    case Statement::Kind::ScopeBegin:
      out = std::make_unique<ScopeBegin>(source.scope());
      break;
    case Statement::Kind::ScopeEnd:
      out = std::make_unique<ScopeEnd>(source.scope());
      break;
    case Statement::Kind::CallPrototype: {
      const auto& prototype = *cast<CallPrototype>(&source);
      out =
          std::make_unique<CallPrototype>(name(prototype.name()), signature(prototype.signature()),
                                          directives(prototype.directives()), prototype.scope());
      break;
    }
    case Statement::Kind::BranchTargets: {
      const auto& targets = *cast<BranchTargets>(&source);
      out = std::make_unique<BranchTargets>(name(targets.name()), operands(targets.targets()),
                                            targets.scope());
      break;
    }
    case Statement::Kind::CallTargets: {
      const auto& targets = *cast<CallTargets>(&source);
      std::vector<std::string_view> functions;
      for (std::string_view f : targets.functions())
        functions.push_back(symbol(f));
      out = std::make_unique<CallTargets>(name(targets.name()), std::move(functions),
                                          targets.scope());
      break;
    }
    }
    out->setLine(source.line());
    return out;
  }

  std::unique_ptr<Function> function(const Function& source) {
    auto out = std::make_unique<Function>(target_, source.isEntry(), symbol(source.name()));
    // Parameters and the body's declarations shadow module-scope names of the same spelling.
    locals_.clear();
    if (renaming_ != nullptr) {
      for (const auto* list : {&source.signature().returns, &source.signature().parameters})
        for (const DeclarationSpec& s : *list)
          for (const Declarator& d : s.declarators)
            locals_.insert(d.name);
      for (const auto& block : source.blocks())
        for (const auto& s : block->statements())
          if (const auto* declaration = dyn_cast<DeclarationStatement>(s.get()))
            for (const Declarator& d : declaration->spec().declarators)
              locals_.insert(d.name);
    }
    out->setPrefixWords(names(source.prefixWords()));
    out->signature() = signature(source.signature());
    out->directives() = directives(source.directives());
    out->setHasBody(source.hasBody());
    out->setBodyLine(source.bodyLine());
    out->setBodyEndLine(source.bodyEndLine());
    for (const RegisterDeclarator& r : source.registerDeclarators()) {
      RegisterDeclarator copy = r;
      copy.name = name(r.name);
      copy.typeWord = name(r.typeWord);
      out->addRegisterDeclarator(copy);
    }
    // Scope 0 (the body) comes with the function.
    for (size_t s = 1; s < source.scopes().size(); ++s)
      out->addScope(source.scopes()[s].parent);
    labels_.clear();
    for (const auto& block : source.blocks()) {
      BasicBlock& copy = out->appendBlock();
      copy.statements().reserve(block->statements().size());
      for (const auto& s : block->statements())
        copy.statements().push_back(statement(*s));
    }
    // The label table points at the copy's statements (a label a pass removed has none).
    for (const LabelInfo& l : source.labels()) {
      const Label* defined = nullptr;
      if (l.statement != nullptr) {
        auto it = labels_.find(l.statement);
        defined = it == labels_.end() ? nullptr : it->second;
      }
      out->addLabel({name(l.name), l.scope, defined});
    }
    locals_.clear();
    return out;
  }

  Module& target_;
  const CloneRenaming* renaming_;
  /// Names declared by the function being copied (source texts).
  std::unordered_set<std::string_view> locals_;
  /// The source function's label statements and their copies.
  std::unordered_map<const Label*, const Label*> labels_;
};

} // namespace

std::unique_ptr<ModuleItem> cloneItem(Module& target, const ModuleItem& item,
                                      const CloneRenaming& renaming) {
  return Cloner(target, &renaming).item(item);
}

std::unique_ptr<Module> cloneModule(const Module& source) {
  auto copy = std::make_unique<Module>();
  // Statements and operand lists come from the copy's arena, as a parse would put them.
  Arena::Scope arena(copy->arena());
  Cloner cloner(*copy);
  copy->setVersion(source.version());
  copy->setTargets(source.targets());
  copy->setAddressSize(source.addressSize());
  copy->headerLines() = source.headerLines();
  for (const auto& item : source.items())
    copy->append(cloner.item(*item));
  return copy;
}

} // namespace ocelot::ir
