// Semantic actions inside function bodies: blocks, scopes, labels, register declarations,
// debug locations, pragmas and instructions.

#include "ir/parser/IndexedName.h"
#include "ir/parser/ParseContext.h"

#include <algorithm>
#include <charconv>
#include <cstring>

namespace ocelot::ir::detail {

namespace {

/// Eight characters at a time: cheap for the short spellings of opcodes.
size_t shortNameHash(std::string_view name) {
  constexpr uint64_t kMultiplier = 0x9e3779b97f4a7c15ull;
  uint64_t hash = name.size();
  size_t i = 0;
  for (; i + 8 <= name.size(); i += 8) {
    uint64_t word;
    std::memcpy(&word, name.data() + i, 8);
    hash = (hash ^ word) * kMultiplier;
  }
  uint64_t tail = 0;
  for (size_t k = 0; i + k < name.size(); ++k)
    tail |= static_cast<uint64_t>(static_cast<unsigned char>(name[i + k])) << (8 * k);
  hash = (hash ^ tail) * kMultiplier;
  return static_cast<size_t>(hash >> 40);
}

} // namespace

// --- Function bodies --------------------------------------------------------------------------

void ParseContext::failOutsideFunction(SourceRange at, std::string_view what) const {
  fail(at, std::string(what) + " is only allowed inside a function body");
}

BasicBlock& ParseContext::blockForStatement(bool isLabel) {
  if (block_ == nullptr || startNewBlock_ || (isLabel && blockHasCode_)) {
    finishBlock();
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
  for (std::string_view name : scope.namedRegisters) {
    namedRegisters_[name].pop_back();
    if (splitIndexedName(name))
      --indexedNamedRegisters_;
    if (name.front() != '%')
      --bareRegisterNames_;
  }
  for (std::string_view name : scope.registerRanges)
    registerRanges_[name].pop_back();
  for (std::string_view name : scope.registerRanges)
    if (name.front() != '%')
      --bareRegisterNames_;
  registersChanged();
  append(std::make_unique<ScopeEnd>(scope.id), at);
}

std::optional<LabelId> ParseContext::OpenScope::findLabel(std::string_view name) const {
  if (!labelIndex.empty()) {
    auto it = labelIndex.find(name);
    return it == labelIndex.end() ? std::nullopt : std::optional<LabelId>(it->second);
  }
  for (const auto& [label, labelId] : labels)
    if (label == name)
      return labelId;
  return std::nullopt;
}

void ParseContext::resolveScopeLabels(OpenScope& scope) {
  if (scope.pending.empty() || scope.labels.empty())
    return;
  std::vector<PendingLabel> unresolved;
  for (auto& pending : scope.pending) {
    if (auto id = scope.findLabel(pending.name))
      *pending.operand = LabelOperand{*id};
    else
      unresolved.push_back(pending);
  }
  scope.pending = std::move(unresolved);
}

void ParseContext::addLabel(std::string_view name, SourceRange at) {
  requireFunctionBody(at, "a label");
  OpenScope& scope = scopes_.back();
  if (auto existing = scope.findLabel(name))
    fail(at, "label '" + std::string(name) + "' is already defined in this scope (line " +
                 std::to_string(function_->labels()[*existing].statement->line()) + ")");
  std::string_view interned = intern(name);
  LabelId id = function_->addLabel(LabelInfo{interned, scope.id, nullptr});
  auto& label = append(std::make_unique<Label>(id, interned, scope.id), at);
  function_->setLabelStatement(id, &label);
  scope.labels.emplace_back(interned, id);
  // Small scopes (inline asm) search linearly; large ones switch to a hash index.
  constexpr size_t kIndexThreshold = 8;
  if (scope.labels.size() > kIndexThreshold) {
    if (scope.labelIndex.empty())
      scope.labelIndex.insert(scope.labels.begin(), scope.labels.end());
    else
      scope.labelIndex.emplace(interned, id);
  }
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
    if (!d.parameterized && splitIndexedName(d.name))
      ++indexedNamedRegisters_;
    if (d.name.front() != '%')
      ++bareRegisterNames_;
    ids.push_back(id);
  }
  registersChanged();
}

void ParseContext::addDeclaration(SourceRange at) {
  requireFunctionBody(at, "a declaration");
  DeclarationSpec spec = takeDeclaration();
  StateSpace space = spec.stateSpace();
  if (space == StateSpace::None)
    failMissingStateSpace(spec, at, ".reg, .local, .shared or .param");
  std::vector<uint32_t> ids;
  if (space == StateSpace::Reg) {
    declareRegisters(spec, at, ids);
  } else {
    for (const auto& d : spec.declarators)
      if (d.parameterized)
        fail(at, "'" + std::string(d.name) + "<N>' ranges are only allowed for .reg");
  }
  auto statement = std::make_unique<DeclarationStatement>(std::move(spec), scopes_.back().id);
  statement->setRegisterDeclarators(std::move(ids));
  append(std::move(statement), at);
}

namespace {

uint32_t locNumber(const ParseContext& ctx, const ImmediateOperand& value, SourceRange at) {
  uint64_t number = ctx.unsignedValue(value, at);
  if (number > UINT32_MAX)
    ctx.fail(at, ".loc numbers must fit in 32 bits");
  return static_cast<uint32_t>(number);
}

} // namespace

void ParseContext::addLoc(const ImmediateOperand& file, const ImmediateOperand& line,
                          const ImmediateOperand& column, SourceRange at) {
  requireFunctionBody(at, ".loc");
  SourceLoc loc{locNumber(*this, file, at), locNumber(*this, line, at),
                locNumber(*this, column, at)};
  currentLoc_ = loc;
  append(std::make_unique<LocDirective>(loc, std::nullopt, scopes_.back().id), at);
}

void ParseContext::addInlinedLoc(const ImmediateOperand& file, const ImmediateOperand& line,
                                 const ImmediateOperand& column,
                                 std::string_view functionNameKeyword,
                                 std::string_view functionName, std::string_view inlinedAtKeyword,
                                 const ImmediateOperand& inlinedFile,
                                 const ImmediateOperand& inlinedLine,
                                 const ImmediateOperand& inlinedColumn, SourceRange at) {
  requireFunctionBody(at, ".loc");
  if (functionNameKeyword != "function_name")
    fail(at, "expected 'function_name' after ',' in .loc");
  if (inlinedAtKeyword != "inlined_at")
    fail(at, "expected 'inlined_at' in .loc");
  SourceLoc loc{locNumber(*this, file, at), locNumber(*this, line, at),
                locNumber(*this, column, at)};
  LocDirective::InlinedAt inlined;
  inlined.functionName = intern(functionName);
  inlined.location = SourceLoc{locNumber(*this, inlinedFile, at), locNumber(*this, inlinedLine, at),
                               locNumber(*this, inlinedColumn, at)};
  currentLoc_ = loc;
  append(std::make_unique<LocDirective>(loc, inlined, scopes_.back().id), at);
}

std::array<ImmediateOperand, 3> ParseContext::locNumbers(std::string_view text,
                                                         SourceRange at) const {
  std::array<ImmediateOperand, 3> numbers;
  size_t position = 4; // after ".loc"
  for (auto& number : numbers) {
    while (position < text.size() && (text[position] < '0' || text[position] > '9'))
      ++position;
    uint64_t value = 0;
    auto [end, ec] = std::from_chars(text.data() + position, text.data() + text.size(), value);
    if (ec != std::errc())
      fail(at, ".loc number does not fit in 64 bits");
    position = static_cast<size_t>(end - text.data());
    number.magnitude = value;
  }
  return numbers;
}

void ParseContext::addLocNumbers(std::string_view text, SourceRange at) {
  auto numbers = locNumbers(text, at);
  addLoc(numbers[0], numbers[1], numbers[2], at);
}

void ParseContext::addInlinedLocNumbers(std::string_view text, std::string_view functionNameKeyword,
                                        std::string_view functionName,
                                        std::string_view inlinedAtKeyword,
                                        const ImmediateOperand& inlinedFile,
                                        const ImmediateOperand& inlinedLine,
                                        const ImmediateOperand& inlinedColumn, SourceRange at) {
  auto numbers = locNumbers(text, at);
  addInlinedLoc(numbers[0], numbers[1], numbers[2], functionNameKeyword, functionName,
                inlinedAtKeyword, inlinedFile, inlinedLine, inlinedColumn, at);
}

void ParseContext::addPragmaString(std::string_view text) {
  strings_.push_back(intern(text));
}

void ParseContext::addPragma(SourceRange at) {
  requireFunctionBody(at, ".pragma");
  std::vector<std::string_view> strings = std::move(strings_);
  strings_.clear();
  append(std::make_unique<PragmaDirective>(std::move(strings), scopes_.back().id), at);
}

void ParseContext::addName(std::string_view name, SourceRange at) {
  names_.push_back(NameSyntax{intern(name), at});
}

void ParseContext::beginCallPrototype() {
  signature_ = FunctionSignature{};
  directives_.clear();
  parameters_.clear();
}

void ParseContext::addCallPrototype(std::string_view name, SourceRange at) {
  requireFunctionBody(at, ".callprototype");
  append(std::make_unique<CallPrototype>(intern(name), std::move(signature_),
                                         std::move(directives_), scopes_.back().id),
         at);
  signature_ = FunctionSignature{};
  directives_.clear();
}

void ParseContext::addBranchTargets(std::string_view name, SourceRange at) {
  requireFunctionBody(at, ".branchtargets");
  std::vector<NameSyntax> targets = std::move(names_);
  names_.clear();
  std::vector<Operand> operands;
  operands.reserve(targets.size());
  for (const auto& target : targets)
    operands.push_back(SymbolOperand{target.name, 0, false, false});
  auto& statement = append(
      std::make_unique<BranchTargets>(intern(name), std::move(operands), scopes_.back().id), at);
  // Targets are labels, possibly defined later in this or an enclosing scope.
  for (size_t i = 0; i < targets.size(); ++i)
    scopes_.back().pending.push_back(
        PendingLabel{&statement.targets()[i], targets[i].name, targets[i].location});
}

void ParseContext::addCallTargets(std::string_view name, SourceRange at) {
  requireFunctionBody(at, ".calltargets");
  std::vector<std::string_view> functions;
  for (const auto& n : names_)
    functions.push_back(n.name);
  names_.clear();
  append(std::make_unique<CallTargets>(intern(name), std::move(functions), scopes_.back().id), at);
}

void ParseContext::setGuard(std::string_view predicate, bool negated, SourceRange at) {
  guard_ = GuardSyntax{true, negated, predicate, at};
}

void ParseContext::addInstruction(std::string_view mnemonic, SourceRange at,
                                  uint32_t operandsLine) {
  requireFunctionBody(at, "an instruction");
  const InstructionForm& form = formOf(mnemonic);
  // Exactly-sized storage (from the module's arena): the operand buffer is reused for the next
  // instruction.
  OperandList operands(std::make_move_iterator(operands_.begin()),
                       std::make_move_iterator(operands_.end()));
  operands_.clear();
  auto instruction = std::make_unique<Instruction>(form, std::move(operands), scopes_.back().id);
  if (guard_.present) {
    GuardSyntax guard = guard_;
    guard_ = GuardSyntax{};
    auto reg = lookupRegister(guard.name);
    if (!reg)
      fail(guard.location,
           "guard predicate '" + std::string(guard.name) + "' is not a declared register");
    instruction->setGuard(Guard{*reg, guard.negated});
  }
  instruction->setSourceLoc(currentLoc_);
  if (!instruction->operands().empty() && operandsLine > at.begin.line)
    instruction->setOperandLineOffset(
        static_cast<uint16_t>(std::min<uint32_t>(operandsLine - at.begin.line, UINT16_MAX)));
  Instruction& inst = append(std::move(instruction), at);
  if (form.isTerminator())
    startNewBlock_ = true;
  // Branch targets are labels; they may be defined later in this or an enclosing scope.
  if (form.traits().operands.shape == OperandShape::Label) {
    for (auto& operand : inst.operands())
      if (auto* symbol = operand.getIf<SymbolOperand>();
          symbol && !symbol->generic && !symbol->explicitOffset)
        scopes_.back().pending.push_back(PendingLabel{&operand, symbol->name, at});
  }
}

const InstructionForm& ParseContext::formOf(std::string_view spelling) {
  // A module has a few hundred spellings used over and over: a small direct-mapped cache in
  // front of the module's hash map.
  size_t slot = shortNameHash(spelling) % formCache_.size();
  const InstructionForm* cached = formCache_[slot];
  if (cached != nullptr && cached->spelling() == spelling)
    return *cached;
  const InstructionForm& form = module_.form(spelling);
  formCache_[slot] = &form;
  return form;
}

} // namespace ocelot::ir::detail
