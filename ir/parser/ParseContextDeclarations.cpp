// Semantic actions for function headers and for declarations (their words, declarators and
// initializers).

#include "ir/parser/ParseContext.h"

namespace ocelot::ir::detail {

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

} // namespace ocelot::ir::detail
