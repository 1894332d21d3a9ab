#include "ir/parser/ParseContext.h"

#include "PtxGrammar.hpp"
#include "ir/Casting.h"

#include <algorithm>
#include <charconv>

namespace ocelot::ir::detail {

namespace {

constexpr unsigned kMaxScopeDepth = 512;
constexpr unsigned kMaxInitializerDepth = 32;

/// Splits `%r12` into {"%r", 12}; nullopt when the name does not end in a canonical number.
std::optional<std::pair<std::string_view, uint32_t>> splitIndexedName(std::string_view name) {
  size_t digits = 0;
  while (digits < name.size() && name[name.size() - 1 - digits] >= '0' &&
         name[name.size() - 1 - digits] <= '9')
    ++digits;
  if (digits == 0 || digits == name.size() || digits > 9)
    return std::nullopt;
  std::string_view number = name.substr(name.size() - digits);
  if (number.size() > 1 && number[0] == '0')
    return std::nullopt; // %r01 is not an element of %r<N>
  uint32_t index = 0;
  std::from_chars(number.data(), number.data() + number.size(), index);
  return std::make_pair(name.substr(0, name.size() - digits), index);
}

/// `%tid.x` -> {"%tid", X}; `%r1` -> {"%r1", None}.
std::pair<std::string_view, VectorComponent> splitComponent(std::string_view text) {
  size_t dot = text.find('.');
  if (dot == std::string_view::npos)
    return {text, VectorComponent::None};
  return {text.substr(0, dot), vectorComponentFromName(text.substr(dot + 1))};
}

} // namespace

ParseContext::ParseContext(Module& module, std::string_view fileName)
    : module_(module), fileName_(fileName) {}

void ParseContext::report(const SourceRange& at, const std::string& message) {
  diagnostics_.push_back(Diagnostic{fileName_, at.begin, message});
}

void ParseContext::fail(SourceRange at, const std::string& message) const {
  throw PtxParser::syntax_error(at, message);
}

// --- Module level -----------------------------------------------------------------------------

void ParseContext::setVersion(std::string_view text, SourceRange at) {
  if (!module_.version().empty())
    fail(at, "duplicate .version directive");
  module_.setVersion(text);
  module_.headerLines().version = at.begin.line;
}

void ParseContext::setTargets(std::vector<std::string_view> targets, SourceRange at) {
  std::vector<std::string_view> all = module_.targets();
  all.insert(all.end(), targets.begin(), targets.end());
  module_.setTargets(std::move(all));
  module_.headerLines().target = at.begin.line;
}

void ParseContext::setAddressSize(uint64_t size, SourceRange at) {
  if (size != 32 && size != 64)
    fail(at, ".address_size must be 32 or 64, not " + std::to_string(size));
  module_.setAddressSize(static_cast<uint32_t>(size));
  module_.headerLines().addressSize = at.begin.line;
}

void ParseContext::addFile(uint64_t index, std::string_view path,
                           std::optional<uint64_t> timestamp, std::optional<uint64_t> size,
                           SourceRange at) {
  if (index > UINT32_MAX)
    fail(at, ".file index " + std::to_string(index) + " is too large");
  auto& file = module_.append(std::make_unique<FileDirective>(static_cast<uint32_t>(index),
                                                              intern(path), timestamp, size));
  file.setLine(at.begin.line);
}

void ParseContext::beginSection(std::string_view name, SourceRange at) {
  section_ = &module_.append(std::make_unique<DebugSection>(intern(name)));
  section_->setLine(at.begin.line);
}

void ParseContext::addSectionItems(std::vector<SectionItem> items) {
  for (auto& item : items) {
    item.directive = intern(item.directive);
    item.symbol = intern(item.symbol);
    section_->items().push_back(item);
  }
}

void ParseContext::addSectionLabel(std::string_view name) {
  SectionItem item;
  item.kind = SectionItem::Kind::Label;
  item.symbol = intern(name);
  section_->items().push_back(item);
}

void ParseContext::endSection() { section_ = nullptr; }

void ParseContext::addAlias(std::string_view alias, std::string_view aliasee, SourceRange at) {
  auto& item = module_.append(std::make_unique<AliasDirective>(intern(alias), intern(aliasee)));
  item.setLine(at.begin.line);
}

namespace {

/// Interns every string of a declaration into the module (they point into the input so far).
void internDeclaration(DeclarationSpec& spec, Module& module) {
  for (auto& word : spec.words) {
    word.word = module.intern(word.word);
    for (auto& argument : word.arguments)
      argument = module.intern(argument);
  }
  for (auto& declarator : spec.declarators)
    declarator.name = module.intern(declarator.name);
}

void internSignature(FunctionSignature& signature, Module& module) {
  for (auto& spec : signature.returns)
    internDeclaration(spec, module);
  for (auto& spec : signature.parameters)
    internDeclaration(spec, module);
}

void internDirectives(std::vector<FunctionDirective>& directives, Module& module) {
  for (auto& directive : directives)
    directive.name = module.intern(directive.name);
}

} // namespace

void ParseContext::addGlobal(DeclarationSpec spec, SourceRange at) {
  StateSpace space = spec.stateSpace();
  if (space == StateSpace::None)
    fail(at, "a module-scope declaration needs a state space such as .global, .const or .shared");
  if (space == StateSpace::Reg)
    fail(at, ".reg declarations are only allowed inside function bodies");
  for (const auto& d : spec.declarators) {
    if (d.parameterized)
      fail(at, "'" + std::string(d.name) + "<N>' ranges are only allowed for .reg declarations");
    if (d.initializer && initializerDepth(*d.initializer) > kMaxInitializerDepth)
      fail(at, "initializer of '" + std::string(d.name) + "' is nested too deeply");
  }
  internDeclaration(spec, module_);
  auto& global = module_.append(std::make_unique<GlobalVariable>(std::move(spec)));
  global.setLine(at.begin.line);
}

void ParseContext::beginFunction(std::vector<DeclarationWord> prefix, bool isEntry,
                                 NameSyntax name, FunctionSignature signature,
                                 std::vector<FunctionDirective> directives, SourceRange at) {
  std::vector<std::string_view> words;
  for (const auto& word : prefix) {
    if (!linkageFromName(word.word) || word.value || !word.arguments.empty())
      fail(at, "'" + std::string(word.word) + "' cannot precede " +
                   (isEntry ? ".entry" : ".func") + "; expected .visible, .extern or .weak");
    words.push_back(intern(word.word));
  }
  if (isEntry && signature.hasReturnList)
    fail(at, ".entry kernels cannot return values");
  internSignature(signature, module_);
  internDirectives(directives, module_);
  auto function = std::make_unique<Function>(module_, isEntry, intern(name.name));
  function->setPrefixWords(std::move(words));
  function->signature() = std::move(signature);
  function->directives() = std::move(directives);
  function->setLine(at.begin.line);
  function_ = &module_.append(std::move(function));
}

void ParseContext::beginBody(SourceRange at) {
  function_->setHasBody(true);
  function_->setBodyLine(at.begin.line);
  block_ = nullptr;
  startNewBlock_ = true;
  blockHasCode_ = false;
  currentLoc_ = SourceLoc{};
  scopes_.clear();
  namedRegisters_.clear();
  registerRanges_.clear();
  scopes_.push_back(OpenScope{});
  // `.reg` parameters of `.func` are registers of the body.
  std::vector<uint32_t> ignored;
  for (const auto* list : {&function_->signature().returns, &function_->signature().parameters})
    for (const auto& spec : *list)
      if (spec.stateSpace() == StateSpace::Reg)
        declareRegisters(spec, at, ignored);
}

void ParseContext::endBody(SourceRange at) {
  OpenScope& body = scopes_.back();
  resolveScopeLabels(body);
  for (const auto& pending : body.pending)
    fail(pending.location, "undefined label '" + std::string(pending.name) + "' in function '" +
                               std::string(function_->name()) + "'");
  scopes_.clear();
  function_->setBodyEndLine(at.begin.line);
  function_ = nullptr;
  block_ = nullptr;
}

// --- Function bodies --------------------------------------------------------------------------

void ParseContext::requireFunctionBody(SourceRange at, std::string_view what) const {
  if (function_ == nullptr || scopes_.empty())
    fail(at, std::string(what) + " is only allowed inside a function body");
}

BasicBlock& ParseContext::blockForStatement(bool isLabel) {
  if (block_ == nullptr || startNewBlock_ || (isLabel && blockHasCode_)) {
    block_ = &function_->appendBlock();
    startNewBlock_ = false;
    blockHasCode_ = false;
  }
  return *block_;
}

template <class T> T& ParseContext::append(std::unique_ptr<T> statement, SourceRange at) {
  statement->setLine(at.begin.line);
  constexpr bool isLabel = std::is_same_v<T, Label>;
  BasicBlock& block = blockForStatement(isLabel);
  if constexpr (isLabel || std::is_same_v<T, Instruction>)
    blockHasCode_ = true;
  return block.append(std::move(statement));
}

void ParseContext::openScope(SourceRange at) {
  if (scopes_.size() >= kMaxScopeDepth)
    fail(at, "'{' scopes nested deeper than " + std::to_string(kMaxScopeDepth));
  ScopeId id = function_->addScope(scopes_.back().id);
  append(std::make_unique<ScopeBegin>(id), at);
  OpenScope scope;
  scope.id = id;
  scopes_.push_back(std::move(scope));
}

void ParseContext::closeScope(SourceRange at) {
  OpenScope scope = std::move(scopes_.back());
  scopes_.pop_back();
  resolveScopeLabels(scope);
  // Labels not defined in this scope may be defined in an enclosing one.
  auto& parentPending = scopes_.back().pending;
  parentPending.insert(parentPending.end(), scope.pending.begin(), scope.pending.end());
  for (std::string_view name : scope.namedRegisters)
    namedRegisters_[name].pop_back();
  for (std::string_view name : scope.registerRanges)
    registerRanges_[name].pop_back();
  append(std::make_unique<ScopeEnd>(scope.id), at);
}

void ParseContext::resolveScopeLabels(OpenScope& scope) {
  if (scope.pending.empty() || scope.labels.empty())
    return;
  std::vector<PendingLabel> unresolved;
  auto resolve = [&](auto&& find) {
    for (auto& pending : scope.pending) {
      if (auto id = find(pending.name))
        *pending.operand = LabelOperand{*id};
      else
        unresolved.push_back(pending);
    }
  };
  if (scope.labels.size() <= 8) {
    resolve([&](std::string_view name) -> std::optional<LabelId> {
      for (const auto& [label, id] : scope.labels)
        if (label == name)
          return id;
      return std::nullopt;
    });
  } else {
    std::unordered_map<std::string_view, LabelId> byName(scope.labels.begin(), scope.labels.end());
    resolve([&](std::string_view name) -> std::optional<LabelId> {
      auto it = byName.find(name);
      return it == byName.end() ? std::nullopt : std::optional<LabelId>(it->second);
    });
  }
  scope.pending = std::move(unresolved);
}

void ParseContext::addLabel(NameSyntax name) {
  requireFunctionBody(name.location, "a label");
  OpenScope& scope = scopes_.back();
  for (const auto& [existing, id] : scope.labels)
    if (existing == name.name)
      fail(name.location, "label '" + std::string(name.name) + "' is already defined in this " +
                              "scope (line " +
                              std::to_string(function_->labels()[id].statement->line()) + ")");
  std::string_view interned = intern(name.name);
  LabelId id = function_->addLabel(LabelInfo{interned, scope.id, nullptr});
  auto& label = append(std::make_unique<Label>(id, interned, scope.id), name.location);
  function_->setLabelStatement(id, &label);
  scope.labels.emplace_back(interned, id);
}

void ParseContext::declareRegisters(const DeclarationSpec& spec, SourceRange at,
                                    std::vector<uint32_t>& ids) {
  OpenScope& scope = scopes_.back();
  for (const auto& d : spec.declarators) {
    if (!d.dimensions.empty())
      fail(at, "register '" + std::string(d.name) + "' cannot be an array");
    if (d.initializer)
      fail(at, "register '" + std::string(d.name) + "' cannot have an initializer");
    auto& table = d.parameterized ? registerRanges_ : namedRegisters_;
    auto& stack = table[d.name]; // d.name is interned: the key outlives the input text
    if (!stack.empty() && function_->registerDeclarators()[stack.back()].scope == scope.id)
      fail(at, "register '" + std::string(d.name) + (d.parameterized ? "<N>" : "") +
                   "' is already declared in this scope");
    RegisterDeclarator declarator;
    declarator.name = d.name;
    declarator.count = d.registerCount;
    declarator.parameterized = d.parameterized;
    declarator.typeWord = spec.typeWord();
    declarator.type = spec.type();
    declarator.vectorWidth = spec.vectorWidth();
    declarator.scope = scope.id;
    uint32_t id = function_->addRegisterDeclarator(declarator);
    stack.push_back(id);
    (d.parameterized ? scope.registerRanges : scope.namedRegisters).push_back(d.name);
    ids.push_back(id);
  }
}

void ParseContext::addDeclaration(DeclarationSpec spec, SourceRange at) {
  requireFunctionBody(at, "a declaration");
  StateSpace space = spec.stateSpace();
  if (space == StateSpace::None)
    fail(at, "a declaration needs a state space such as .reg, .local, .shared or .param");
  internDeclaration(spec, module_);
  std::vector<uint32_t> ids;
  if (space == StateSpace::Reg) {
    declareRegisters(spec, at, ids);
  } else {
    for (const auto& d : spec.declarators) {
      if (d.parameterized)
        fail(at, "'" + std::string(d.name) + "<N>' ranges are only allowed for .reg");
      if (d.initializer && initializerDepth(*d.initializer) > kMaxInitializerDepth)
        fail(at, "initializer of '" + std::string(d.name) + "' is nested too deeply");
    }
  }
  auto statement = std::make_unique<DeclarationStatement>(std::move(spec), scopes_.back().id);
  statement->setRegisterDeclarators(std::move(ids));
  append(std::move(statement), at);
}

void ParseContext::addLoc(uint64_t file, uint64_t line, uint64_t column,
                          std::optional<LocDirective::InlinedAt> inlinedAt, SourceRange at) {
  requireFunctionBody(at, ".loc");
  if (file > UINT32_MAX || line > UINT32_MAX || column > UINT32_MAX)
    fail(at, ".loc numbers must fit in 32 bits");
  SourceLoc loc{static_cast<uint32_t>(file), static_cast<uint32_t>(line),
                static_cast<uint32_t>(column)};
  if (inlinedAt)
    inlinedAt->functionName = intern(inlinedAt->functionName);
  currentLoc_ = loc;
  append(std::make_unique<LocDirective>(loc, inlinedAt, scopes_.back().id), at);
}

void ParseContext::addPragma(std::vector<std::string_view> strings, SourceRange at) {
  requireFunctionBody(at, ".pragma");
  for (auto& s : strings)
    s = intern(s);
  append(std::make_unique<PragmaDirective>(std::move(strings), scopes_.back().id), at);
}

void ParseContext::addCallPrototype(NameSyntax name, FunctionSignature signature,
                                    std::vector<FunctionDirective> directives, SourceRange at) {
  requireFunctionBody(at, ".callprototype");
  internSignature(signature, module_);
  internDirectives(directives, module_);
  append(std::make_unique<CallPrototype>(intern(name.name), std::move(signature),
                                         std::move(directives), scopes_.back().id),
         at);
}

void ParseContext::addBranchTargets(NameSyntax name, std::vector<NameSyntax> targets,
                                    SourceRange at) {
  requireFunctionBody(at, ".branchtargets");
  std::vector<Operand> operands;
  operands.reserve(targets.size());
  for (const auto& target : targets)
    operands.push_back(SymbolOperand{intern(target.name), 0, false, false});
  auto& statement = append(
      std::make_unique<BranchTargets>(intern(name.name), std::move(operands), scopes_.back().id),
      at);
  for (size_t i = 0; i < targets.size(); ++i)
    scopes_.back().pending.push_back(PendingLabel{&statement.targets()[i],
                                                  statement.targets()[i].as<SymbolOperand>().name,
                                                  targets[i].location});
}

void ParseContext::addCallTargets(NameSyntax name, std::vector<std::string_view> functions,
                                  SourceRange at) {
  requireFunctionBody(at, ".calltargets");
  for (auto& f : functions)
    f = intern(f);
  append(std::make_unique<CallTargets>(intern(name.name), std::move(functions),
                                       scopes_.back().id),
         at);
}

void ParseContext::addInstruction(const GuardSyntax& guard, std::string_view mnemonic,
                                  std::vector<Operand> operands, SourceRange at) {
  requireFunctionBody(at, "an instruction");
  const InstructionForm& form = module_.form(mnemonic);
  auto instruction =
      std::make_unique<Instruction>(form, std::move(operands), scopes_.back().id);
  if (guard.present) {
    auto reg = lookupRegister(guard.name);
    if (!reg)
      fail(guard.location, "guard predicate '" + std::string(guard.name) +
                               "' is not a declared register");
    instruction->setGuard(Guard{*reg, guard.negated});
  }
  instruction->setSourceLoc(currentLoc_);
  Instruction& inst = append(std::move(instruction), at);
  if (form.isTerminator())
    startNewBlock_ = true;
  // Branch targets are labels; they may be defined later in this or an enclosing scope.
  if (form.opcode() == "bra") {
    for (auto& operand : inst.operands())
      if (auto* symbol = operand.getIf<SymbolOperand>(); symbol && symbol->offset == 0)
        scopes_.back().pending.push_back(PendingLabel{&operand, symbol->name, at});
  }
}

// --- Operands ---------------------------------------------------------------------------------

std::optional<RegisterRef> ParseContext::lookupRegister(std::string_view name) const {
  if (auto it = namedRegisters_.find(name); it != namedRegisters_.end() && !it->second.empty())
    return RegisterRef{it->second.back(), 0};
  if (auto split = splitIndexedName(name)) {
    auto it = registerRanges_.find(split->first);
    if (it != registerRanges_.end() && !it->second.empty()) {
      uint32_t id = it->second.back();
      if (split->second < function_->registerDeclarators()[id].count)
        return RegisterRef{id, split->second};
    }
  }
  return std::nullopt;
}

Operand ParseContext::registerOperand(std::string_view text, bool negated, SourceRange at) {
  requireFunctionBody(at, "a register");
  auto [name, component] = splitComponent(text);
  if (auto reg = lookupRegister(name))
    return RegisterOperand{*reg, component, negated};
  // A known range with an index past its end is a mistake, not a special register.
  if (auto split = splitIndexedName(name)) {
    auto it = registerRanges_.find(split->first);
    if (it != registerRanges_.end() && !it->second.empty()) {
      const auto& d = function_->registerDeclarators()[it->second.back()];
      fail(at, "register '" + std::string(name) + "' is not declared: " + std::string(d.name) +
                   "<" + std::to_string(d.count) + "> declares " + std::string(d.name) + "0 to " +
                   std::string(d.name) + std::to_string(d.count == 0 ? 0 : d.count - 1));
    }
  }
  // Everything else that starts with '%' is a special register (%tid, %clock64, and those of
  // future PTX versions); the verifier reports names it does not know.
  return SpecialRegisterOperand{intern(name), component, negated};
}

Operand ParseContext::identifierOperand(std::string_view name, bool negated, SourceRange at) {
  if (function_ != nullptr && !scopes_.empty()) {
    if (auto reg = lookupRegister(name))
      return RegisterOperand{*reg, VectorComponent::None, negated};
  }
  if (negated)
    fail(at, "'!' must be followed by a predicate register, not '" + std::string(name) + "'");
  return SymbolOperand{intern(name), 0, false, false};
}

Operand ParseContext::symbolOperand(std::string_view name, std::optional<int64_t> offset,
                                    SourceRange) {
  return SymbolOperand{intern(name), offset.value_or(0), false, offset.has_value()};
}

Operand ParseContext::genericOperand(std::string_view keyword, std::string_view name,
                                     SourceRange at) {
  if (keyword != "generic")
    fail(at, "expected 'generic(symbol)', found '" + std::string(keyword) + "(...)'");
  return SymbolOperand{intern(name), 0, true, false};
}

Operand ParseContext::addressOperand(Operand base, std::optional<int64_t> offset,
                                     std::vector<Operand> extra, SourceRange at) {
  AddressOperand address;
  address.offset = offset.value_or(0);
  address.explicitOffset = offset.has_value();
  address.extra = std::move(extra);
  if (auto* reg = base.getIf<RegisterOperand>()) {
    address.base = *reg;
  } else if (auto* symbol = base.getIf<SymbolOperand>()) {
    address.base = *symbol;
  } else if (auto* imm = base.getIf<ImmediateOperand>(); imm && !imm->isFloat() && !imm->negative) {
    address.base = AddressOperand::Absolute{imm->magnitude};
  } else {
    fail(at, "an address must start with a register, a variable or a non-negative integer");
  }
  return address;
}

Operand ParseContext::dualOperand(Operand first, Operand second, SourceRange at) {
  for (const Operand* part : {&first, &second})
    if (!part->is<RegisterOperand>() && !part->is<SinkOperand>())
      fail(at, "both sides of '|' must be registers or '_'");
  DualOperand dual;
  dual.parts.push_back(std::move(first));
  dual.parts.push_back(std::move(second));
  return dual;
}

} // namespace ocelot::ir::detail
