#include "ir/parser/ParseContext.h"

#include "PtxGrammar.hpp"
#include "ir/Casting.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <tuple>

namespace ocelot::ir::detail {

namespace {

// Nesting limits: far beyond what compilers write (nvcc nests a few inline-asm scopes and writes
// initializers flat) and beyond ptxas for scopes (its parser gives up at about 1,660), while a
// hostile module cannot make the initializer trees (destroyed, emitted and loaded recursively)
// deeper than a thread's stack allows.
constexpr unsigned kMaxScopeDepth = 4096;
constexpr unsigned kMaxInitializerDepth = 256;

/// Splits `%r12` into {"%r", 12}; nullopt when the name does not end in a canonical number.
std::optional<std::pair<std::string_view, uint32_t>> splitIndexedName(std::string_view name) {
  size_t end = name.size();
  size_t start = end;
  while (start > 0 && name[start - 1] >= '0' && name[start - 1] <= '9')
    --start;
  size_t digits = end - start;
  if (digits == 0 || start == 0 || digits > 9)
    return std::nullopt;
  if (digits > 1 && name[start] == '0')
    return std::nullopt; // %r01 is not an element of %r<N>
  uint32_t index = 0;
  for (size_t i = start; i < end; ++i)
    index = index * 10 + static_cast<uint32_t>(name[i] - '0');
  return std::make_pair(name.substr(0, start), index);
}

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

/// `%tid.x` -> {"%tid", X}; `%r1` -> {"%r1", None}.
std::pair<std::string_view, VectorComponent> splitComponent(std::string_view text) {
  for (size_t dot = 0; dot < text.size(); ++dot) // names are short: no library call
    if (text[dot] == '.')
      return {text.substr(0, dot), vectorComponentFromName(text.substr(dot + 1))};
  return {text, VectorComponent::None};
}

/// Up to 8 characters packed into one word, zero-padded (what PackedRange keys are).
uint64_t packPrefix(const char* text, size_t length) {
  uint64_t key = 0;
  for (size_t i = 0; i < length; ++i)
    key |= static_cast<uint64_t>(static_cast<unsigned char>(text[i])) << (8 * i);
  return key;
}

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

} // namespace

ParseContext::ParseContext(Module& module, std::string_view fileName)
    : module_(module), fileName_(fileName) {}

void ParseContext::report(const SourceRange& at, const std::string& message) {
  diagnostics_.push_back(Diagnostic{fileName_, at.begin, message, pendingKind_});
  pendingKind_ = DiagnosticKind::Syntax;
}

void ParseContext::fail(SourceRange at, const std::string& message, DiagnosticKind kind) const {
  pendingKind_ = kind;
  throw PtxParser::syntax_error(at, message);
}

uint64_t ParseContext::unsignedValue(const ImmediateOperand& imm, SourceRange at) const {
  if (imm.isFloat() || imm.negative)
    fail(at, "expected a non-negative integer");
  return imm.magnitude;
}

int64_t ParseContext::signedValue(const ImmediateOperand& imm, bool negate, SourceRange at) const {
  if (imm.isFloat())
    fail(at, "expected an integer offset");
  if (imm.magnitude > static_cast<uint64_t>(INT64_MAX))
    fail(at, "offset does not fit in 64 bits");
  int64_t value = static_cast<int64_t>(imm.magnitude);
  return (negate != imm.negative) ? -value : value;
}

uint64_t ParseContext::foldOffset(char op, uint64_t a, uint64_t b, SourceRange at) const {
  const auto x = static_cast<int64_t>(a), y = static_cast<int64_t>(b);
  int64_t result = 0;
  bool overflow = false;
  switch (op) {
  case '+':
    overflow = __builtin_add_overflow(x, y, &result);
    break;
  case '-':
    overflow = __builtin_sub_overflow(x, y, &result);
    break;
  case '*':
    overflow = __builtin_mul_overflow(x, y, &result);
    break;
  default:
    if (y == 0)
      fail(at, "division by zero in an address offset");
    overflow = x == INT64_MIN && y == -1;
    result = overflow ? 0 : x / y;
    break;
  }
  if (overflow)
    fail(at, "address offset does not fit in 64 bits");
  return static_cast<uint64_t>(result);
}

// --- Module level -----------------------------------------------------------------------------

void ParseContext::setVersion(std::string_view text, SourceRange at) {
  if (!module_.version().empty())
    fail(at, "duplicate .version directive");
  std::optional<PtxVersion> version = parsePtxVersion(text);
  if (!version)
    fail(at, "malformed .version '" + std::string(text) + "': expected MAJOR.MINOR");
  if (newestVersion_ && *version > *newestVersion_)
    fail(at,
         "unsupported PTX ISA version " + version->toString() + ": the newest Ocelot knows is " +
             newestVersion_->toString() + " (CUDA 13.0); compile for an older PTX version",
         DiagnosticKind::UnsupportedPtxVersion);
  module_.setVersion(text);
  module_.headerLines().version = at.begin.line;
}

void ParseContext::addTarget(std::string_view target) {
  targets_.push_back(target);
}

void ParseContext::finishTargets(SourceRange at) {
  std::vector<std::string_view> all = module_.targets();
  all.insert(all.end(), targets_.begin(), targets_.end());
  targets_.clear();
  module_.setTargets(std::move(all));
  module_.headerLines().target = at.begin.line;
}

void ParseContext::setAddressSize(uint64_t size, SourceRange at) {
  if (size != 32 && size != 64)
    fail(at, ".address_size must be 32 or 64, not " + std::to_string(size));
  module_.setAddressSize(static_cast<uint32_t>(size));
  module_.headerLines().addressSize = at.begin.line;
}

void ParseContext::addFile(const ImmediateOperand& index, std::string_view path,
                           std::optional<ImmediateOperand> timestamp,
                           std::optional<ImmediateOperand> size, SourceRange at) {
  uint64_t number = unsignedValue(index, at);
  if (number > UINT32_MAX)
    fail(at, ".file index " + std::to_string(number) + " is too large");
  std::optional<uint64_t> stamp, bytes;
  if (timestamp)
    stamp = unsignedValue(*timestamp, at);
  if (size)
    bytes = unsignedValue(*size, at);
  auto& file = module_.append(
      std::make_unique<FileDirective>(static_cast<uint32_t>(number), intern(path), stamp, bytes));
  file.setLine(at.begin.line);
}

void ParseContext::addAlias(std::string_view alias, std::string_view aliasee, SourceRange at) {
  auto& item = module_.append(std::make_unique<AliasDirective>(intern(alias), intern(aliasee)));
  item.setLine(at.begin.line);
}

DeclarationSpec ParseContext::takeDeclaration() {
  DeclarationSpec spec;
  spec.words = std::move(words_);
  spec.declarators = std::move(declarators_);
  words_.clear();
  declarators_.clear();
  internDeclaration(spec, module_);
  return spec;
}

void ParseContext::addGlobal(SourceRange at) {
  DeclarationSpec spec = takeDeclaration();
  StateSpace space = spec.stateSpace();
  if (space == StateSpace::None)
    failMissingStateSpace(spec, at, ".global, .const or .shared");
  if (space == StateSpace::Reg)
    fail(at, ".reg declarations are only allowed inside function bodies");
  for (const auto& d : spec.declarators)
    if (d.parameterized)
      fail(at, "'" + std::string(d.name) + "<N>' ranges are only allowed for .reg declarations");
  auto& global = module_.append(std::make_unique<GlobalVariable>(std::move(spec)));
  global.setLine(at.begin.line);
}

void ParseContext::failMissingStateSpace(const DeclarationSpec& spec, SourceRange at,
                                         std::string_view expected) const {
  // A first word that is neither a linkage nor a type is most likely a directive Ocelot does not
  // know (or a typo): say so rather than talk about state spaces.
  if (!spec.words.empty()) {
    std::string_view first = spec.words.front().word;
    if (!linkageFromName(first) && !scalarTypeFromName(first))
      fail(at, "unknown directive '" + std::string(first) + "'");
  }
  fail(at, "a declaration needs a state space such as " + std::string(expected));
}

// --- Debug sections ---------------------------------------------------------------------------

void ParseContext::beginSection(std::string_view name, SourceRange at) {
  section_ = &module_.append(std::make_unique<DebugSection>(intern(name)));
  // Name indices are per section: the next directive is added to this section's table.
  sectionDirective_ = {};
  sectionDirectiveName_ = SectionItem::kNoName;
  knownDirectives_ = 0;
  section_->setLine(at.begin.line);
}

void ParseContext::addSectionLabel(std::string_view name) {
  SectionItem item;
  item.kind = SectionItem::Kind::Label;
  item.symbol = section_->addName(intern(name));
  section_->items().push_back(item);
}

void ParseContext::setSectionDirective(std::string_view directive) {
  sectionDirectiveUsed_ = false;
  if (directive == sectionDirective_) // consecutive items mostly repeat `.b8`
    return;
  for (size_t i = 0; i < knownDirectives_; ++i)
    if (knownDirectiveNames_[i].first == directive) {
      std::tie(sectionDirective_, sectionDirectiveName_) = knownDirectiveNames_[i];
      return;
    }
  sectionDirective_ = intern(directive);
  sectionDirectiveName_ = section_->addName(sectionDirective_);
  if (knownDirectives_ < knownDirectiveNames_.size())
    knownDirectiveNames_[knownDirectives_++] = {sectionDirective_, sectionDirectiveName_};
}

void ParseContext::rewindSection(const SectionMark& mark) {
  section_->items().resize(mark.items);
  section_->truncateNames(mark.names);
  knownDirectives_ = mark.knownDirectives;
  sectionDirective_ = mark.directive;
  sectionDirectiveName_ = mark.directiveName;
  sectionDirectiveUsed_ = mark.directiveUsed;
}

void ParseContext::addSectionInteger(const ImmediateOperand& value, bool negative, SourceRange at) {
  if (value.isFloat())
    fail(at, "debug section values must be integers");
  SectionItem item;
  item.value = value.magnitude;
  item.negative = negative != value.negative;
  item.hexadecimal = value.format == ImmediateOperand::Format::Hexadecimal;
  addSectionItem(item);
}

void ParseContext::addSectionSymbol(std::string_view symbol, std::optional<ImmediateOperand> offset,
                                    SourceRange at) {
  SectionItem item;
  item.symbol = section_->addName(intern(symbol));
  if (offset)
    item.value = unsignedValue(*offset, at);
  addSectionItem(item);
}

void ParseContext::addSectionSymbolValue(std::string_view symbol, uint64_t offset) {
  SectionItem item;
  item.symbol = section_->addName(intern(symbol));
  item.value = offset;
  addSectionItem(item);
}

void ParseContext::addSectionSymbolDifference(std::string_view symbol,
                                              std::string_view subtrahend) {
  SectionItem item;
  item.symbol = section_->addName(intern(symbol));
  item.subtrahend = section_->addName(intern(subtrahend));
  addSectionItem(item);
}

void ParseContext::endSection() {
  section_ = nullptr;
}

// --- Function headers -------------------------------------------------------------------------

void ParseContext::beginFunctionHeader(bool isEntry, SourceRange at) {
  prefixWords_.clear();
  for (const auto& word : words_) {
    if (!linkageFromName(word.word) || word.value || !word.arguments.empty())
      fail(at, "'" + std::string(word.word) + "' cannot precede " + (isEntry ? ".entry" : ".func") +
                   "; expected .visible, .extern or .weak");
    prefixWords_.push_back(intern(word.word));
  }
  words_.clear();
  headerIsEntry_ = isEntry;
  headerAt_ = at;
  signature_ = FunctionSignature{};
  directives_.clear();
  parameters_.clear();
}

void ParseContext::finishParameter(SourceRange at) {
  DeclarationSpec spec = takeDeclaration();
  if (spec.declarators.size() != 1 || spec.declarators.front().initializer)
    fail(at, "a parameter declares exactly one name, without an initializer");
  parameters_.push_back(std::move(spec));
}

void ParseContext::finishReturnList() {
  signature_.hasReturnList = true;
  signature_.returns = std::move(parameters_);
  parameters_.clear();
}

void ParseContext::finishParameterList() {
  signature_.hasParameterList = true;
  signature_.parameters = std::move(parameters_);
  parameters_.clear();
}

void ParseContext::addFunctionDirective(std::string_view name) {
  directives_.push_back(FunctionDirective{intern(name), {}});
}

void ParseContext::addFunctionDirectiveValue(const ImmediateOperand& value, SourceRange at) {
  directives_.back().values.push_back(unsignedValue(value, at));
}

void ParseContext::beginFunction(std::string_view name) {
  if (headerIsEntry_ && signature_.hasReturnList)
    fail(headerAt_, ".entry kernels cannot return values");
  auto function = std::make_unique<Function>(module_, headerIsEntry_, intern(name));
  function->setPrefixWords(std::move(prefixWords_));
  function->signature() = std::move(signature_);
  function->directives() = std::move(directives_);
  function->setLine(headerAt_.begin.line);
  prefixWords_.clear();
  signature_ = FunctionSignature{};
  directives_.clear();
  function_ = &module_.append(std::move(function));
}

void ParseContext::endDeclaration(SourceRange at) {
  function_->setBodyLine(at.begin.line);
  function_ = nullptr;
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
  indexedNamedRegisters_ = 0;
  bareRegisterNames_ = 0;
  registersChanged();
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
  finishBlock();
  function_ = nullptr;
  block_ = nullptr;
}

void ParseContext::finishBlock() {
  // The statement list grew by doubling: give back what the block will not use (up to half of
  // it, 8 bytes a statement; passes that add statements grow it again).
  if (block_ != nullptr && block_->statements().capacity() > block_->statements().size() + 4)
    block_->statements().shrink_to_fit();
}

// --- Declarations -----------------------------------------------------------------------------

void ParseContext::addWord(std::string_view word) {
  words_.push_back(DeclarationWord{word, {}, {}});
}

void ParseContext::setWordValue(const ImmediateOperand& value, SourceRange at) {
  words_.back().value = unsignedValue(value, at);
}

void ParseContext::addWordArgument(std::string_view argument) {
  words_.back().arguments.push_back(argument);
}

void ParseContext::addDimension(std::optional<ImmediateOperand> size, SourceRange at) {
  if (size)
    dimensions_.push_back(unsignedValue(*size, at));
  else
    dimensions_.push_back(std::nullopt);
}

void ParseContext::addDeclarator(std::string_view name, SourceRange) {
  Declarator d;
  d.name = name;
  d.dimensions = std::move(dimensions_);
  d.initializer = std::move(initializer_);
  dimensions_.clear();
  initializer_.reset();
  declarators_.push_back(std::move(d));
}

void ParseContext::addRegisterRange(std::string_view name, const ImmediateOperand& count,
                                    SourceRange at) {
  uint64_t n = unsignedValue(count, at);
  if (n > UINT32_MAX)
    fail(at, "register range is too large");
  Declarator d;
  d.name = name;
  d.parameterized = true;
  d.registerCount = static_cast<uint32_t>(n);
  declarators_.push_back(std::move(d));
}

void ParseContext::deliverInitializer(Initializer init) {
  if (openInitializers_.empty())
    initializer_ = std::move(init);
  else
    openInitializers_.back().add(std::move(init));
}

void ParseContext::addInitializerValue(Operand value, SourceRange) {
  if (auto* imm = value.getIf<ImmediateOperand>();
      imm && !openInitializers_.empty() && isPlainDecimal(*imm)) {
    openInitializers_.back().addInteger(imm->integerValue());
    return;
  }
  deliverInitializer(Initializer::value(std::move(value)));
}

void ParseContext::addInitializerIntegers(std::string_view text, SourceRange at) {
  if (openInitializers_.empty())
    fail(at, "a list of values needs braces: '{" + std::string(text.substr(0, 20)) + "...}'");
  openInitializers_.back().addIntegers(std::move(pendingIntegers_));
  pendingIntegers_.clear();
}

void ParseContext::addInitializerScalars(std::string_view text, SourceRange at) {
  if (openInitializers_.empty())
    fail(at, "a list of values needs braces: '{" + std::string(text.substr(0, 20)) + "...}'");
  openInitializers_.back().addScalars(std::move(pendingScalars_));
  pendingScalars_.clear();
}

void ParseContext::beginInitializerList(SourceRange at) {
  if (openInitializers_.size() >= kMaxInitializerDepth)
    fail(at, "initializer nested deeper than " + std::to_string(kMaxInitializerDepth) + " levels");
  openInitializers_.emplace_back();
}

void ParseContext::endInitializerList() {
  Initializer list = openInitializers_.back().finish();
  openInitializers_.pop_back();
  deliverInitializer(std::move(list));
}

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

// --- Operands ---------------------------------------------------------------------------------

std::optional<uint32_t> ParseContext::findRange(std::string_view prefix) const {
  auto it = registerRanges_.find(prefix);
  if (it == registerRanges_.end() || it->second.empty())
    return std::nullopt;
  return it->second.back();
}

namespace {

/// The first min(8, size) characters of `name`, packed into one word (no read past the name).
uint64_t firstEight(std::string_view name) {
  uint64_t word = 0;
  const char* p = name.data();
  switch (std::min<size_t>(name.size(), 8)) {
  case 8:
    std::memcpy(&word, p, 8);
    break;
  case 7:
    std::memcpy(&word, p, 7);
    break;
  case 6:
    std::memcpy(&word, p, 6);
    break;
  case 5:
    std::memcpy(&word, p, 5);
    break;
  case 4:
    std::memcpy(&word, p, 4);
    break;
  case 3:
    std::memcpy(&word, p, 3);
    break;
  case 2:
    std::memcpy(&word, p, 2);
    break;
  case 1:
    std::memcpy(&word, p, 1);
    break;
  default:
    break;
  }
  return word;
}

} // namespace

std::optional<RegisterRef> ParseContext::lookupRegister(std::string_view name) const {
  // Fast path for the common case, an element of a `%r<N>` range with a short prefix and no named
  // register that could shadow it: the name's first eight characters in one word, compared with
  // the prefixes of the ranges seen last; what follows the prefix must be the index (1 to 9
  // digits, no leading zero). The cached prefixes end in a non-digit, so the index is the name's
  // whole trailing digit run, as in lookupRegisterUncached. Everything else takes that route.
  if (indexedNamedRegisters_ == 0) {
    uint64_t word = firstEight(name);
    for (size_t i = 0; i < packedRanges_.size(); ++i) {
      const PackedRange& range = packedRanges_[i];
      if ((word & range.mask) != range.key || range.length >= name.size())
        continue;
      const char* digit = name.data() + range.length;
      const char* end = name.data() + name.size();
      if (end - digit > 9 || (*digit == '0' && end - digit > 1))
        continue;
      uint32_t index = 0;
      for (; digit < end; ++digit) {
        unsigned value = static_cast<unsigned char>(*digit) - '0';
        if (value > 9)
          break;
        index = index * 10 + value;
      }
      if (digit != end)
        continue; // another prefix may fit (`%r` and `%rd`)
      if (index >= range.count)
        break;
      RegisterRef found{range.declarator, index};
      if (i > 0) // the ranges used most move to the front
        std::swap(packedRanges_[i], packedRanges_[i - 1]);
      return found;
    }
  }
  std::optional<RegisterRef> found = lookupRegisterUncached(name);
  if (found && indexedNamedRegisters_ == 0) {
    const RegisterDeclarator& d = function_->registerDeclarators()[found->declarator];
    if (d.parameterized && !d.name.empty() && d.name.size() <= 8 && d.count > 0 &&
        (d.name.back() < '0' || d.name.back() > '9')) {
      uint64_t mask = d.name.size() == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * d.name.size())) - 1;
      packedRanges_[packedRangesNext_++ % packedRanges_.size()] =
          PackedRange{packPrefix(d.name.data(), d.name.size()), mask, found->declarator, d.count,
                      static_cast<uint32_t>(d.name.size())};
    }
  }
  return found;
}

std::optional<RegisterRef> ParseContext::lookupRegisterUncached(std::string_view name) const {
  // Most registers are elements of a %r<N> range: look there first.
  if (auto split = splitIndexedName(name)) {
    if (auto id = findRange(split->first);
        id && split->second < function_->registerDeclarators()[*id].count) {
      if (indexedNamedRegisters_ > 0) {
        // A named register of an inner scope shadows the range element of the same name.
        auto named = namedRegisters_.find(name);
        if (named != namedRegisters_.end() && !named->second.empty() &&
            function_->registerDeclarators()[named->second.back()].scope >=
                function_->registerDeclarators()[*id].scope)
          return RegisterRef{named->second.back(), 0};
      }
      return RegisterRef{*id, split->second};
    }
  }
  if (auto it = namedRegisters_.find(name); it != namedRegisters_.end() && !it->second.empty())
    return RegisterRef{it->second.back(), 0};
  return std::nullopt;
}

void ParseContext::pushRegister(std::string_view text, bool negated, SourceRange at) {
  requireFunctionBody(at, "a register");
  auto [name, component] = splitComponent(text);
  // Selectors with digits are the video instructions' (.b0-.b3, .h0, .h1); the SIMD forms' other
  // selectors and masks (.b3210, .h10...) have no representation, so they are not dropped silently.
  if (component == VectorComponent::None && name.size() < text.size() &&
      std::any_of(text.begin() + static_cast<std::ptrdiff_t>(name.size()), text.end(),
                  [](char c) { return c >= '0' && c <= '9'; }))
    fail(at, "register selector '" + std::string(text.substr(name.size())) +
                 "' is not supported (only .b0-.b3, .h0 and .h1)");
  if (auto reg = lookupRegister(name)) {
    operands_.emplace_back(RegisterOperand{*reg, component, negated});
    return;
  }
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
  operands_.emplace_back(SpecialRegisterOperand{intern(name), component, negated});
}

void ParseContext::pushSimpleAddress(std::string_view base, bool hasOffset, int64_t offset,
                                     SourceRange at) {
  beginList();
  if (!base.empty() && base.front() == '%') {
    pushRegister(base, false, at);
    if (operands_.back().is<SpecialRegisterOperand>())
      fail(at, "'" + std::string(base) + "' is not a declared register and cannot be an address");
  } else {
    pushIdentifier(base, false, at);
  }
  endAddress(hasOffset, offset, at);
}

void ParseContext::pushIdentifier(std::string_view name, bool negated, SourceRange at) {
  // Registers without '%' (`p` in inline asm) are rare: without one in scope, a name is a symbol.
  if (function_ != nullptr && !scopes_.empty() && (bareRegisterNames_ > 0 || name[0] == '%')) {
    if (auto reg = lookupRegister(name)) {
      operands_.emplace_back(RegisterOperand{*reg, VectorComponent::None, negated});
      return;
    }
  }
  if (negated)
    fail(at, "'!' must be followed by a predicate register, not '" + std::string(name) + "'");
  operands_.emplace_back(SymbolOperand{intern(name), 0, false, false});
}

void ParseContext::pushBareRegister(std::string_view text, SourceRange at) {
  // Trailing blanks belong to the token.
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
    text.remove_suffix(1);
  auto [name, component] = splitComponent(text);
  if (function_ == nullptr || scopes_.empty() || component == VectorComponent::None ||
      !lookupRegister(name))
    fail(at, "unexpected '" + std::string(text) +
                 "' as an operand (expected a register, a symbol or a value)");
  pushRegister(text, false, at);
}

Operand ParseContext::symbol(std::string_view name, std::optional<ImmediateOperand> offset,
                             SourceRange at) {
  if (!offset)
    return SymbolOperand{intern(name), 0, false, false};
  return SymbolOperand{intern(name), signedValue(*offset, false, at), false, true};
}

Operand ParseContext::generic(std::string_view keyword, std::string_view name,
                              std::optional<ImmediateOperand> offset, SourceRange at) {
  if (keyword != "generic")
    fail(at, "expected 'generic(symbol)', found '" + std::string(keyword) + "(...)'");
  SymbolOperand symbolOperand{intern(name), 0, true, offset.has_value()};
  if (offset)
    symbolOperand.offset = signedValue(*offset, false, at);
  return symbolOperand;
}

void ParseContext::makeDual(SourceRange at) {
  Operand second = std::move(operands_.back());
  operands_.pop_back();
  Operand first = std::move(operands_.back());
  operands_.pop_back();
  for (const Operand* part : {&first, &second})
    if (!part->is<RegisterOperand>() && !part->is<SinkOperand>())
      fail(at, "both sides of '|' must be registers or '_'");
  DualOperand dual;
  dual.parts.reserve(2);
  dual.parts.push_back(std::move(first));
  dual.parts.push_back(std::move(second));
  operands_.push_back(std::move(dual));
}

void ParseContext::beginList() {
  listStarts_.push_back(operands_.size());
}

std::vector<Operand> ParseContext::takeListOperands() {
  size_t start = listStarts_.back();
  listStarts_.pop_back();
  std::vector<Operand> elements(
      std::make_move_iterator(operands_.begin() + static_cast<std::ptrdiff_t>(start)),
      std::make_move_iterator(operands_.end()));
  operands_.resize(start);
  return elements;
}

void ParseContext::endVector() {
  operands_.push_back(VectorOperand{takeListOperands()});
}

void ParseContext::endArgumentList() {
  operands_.push_back(ArgumentListOperand{takeListOperands()});
}

void ParseContext::endAddress(bool hasOffset, int64_t offset, SourceRange at) {
  // The parts are the operands pushed since beginList: the base, then any extra parts. They are
  // replaced in place by the address (no temporary list: most addresses are `[%rd4+8]`).
  size_t start = listStarts_.back();
  listStarts_.pop_back();
  AddressOperand address;
  address.offset = offset;
  address.explicitOffset = hasOffset;
  const Operand& base = operands_[start];
  if (auto* reg = base.getIf<RegisterOperand>()) {
    address.base = *reg;
  } else if (auto* sym = base.getIf<SymbolOperand>()) {
    address.base = *sym;
  } else if (auto* imm = base.getIf<ImmediateOperand>(); imm && !imm->isFloat() && !imm->negative) {
    address.base = AddressOperand::Absolute{imm->magnitude};
  } else {
    fail(at, "an address must start with a register, a variable or a non-negative integer");
  }
  auto extra = operands_.begin() + static_cast<std::ptrdiff_t>(start + 1);
  address.extra.assign(std::make_move_iterator(extra), std::make_move_iterator(operands_.end()));
  operands_.resize(start);
  operands_.push_back(std::move(address));
}

} // namespace ocelot::ir::detail
