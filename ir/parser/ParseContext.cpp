// The parser's semantic actions (see ParseContext.h), one file per part of a module; here: values,
// errors, module-level directives and debug sections.

#include "ir/parser/ParseContext.h"

#include "PtxGrammar.hpp"
#include "ir/Casting.h"

#include <tuple>

namespace ocelot::ir::detail {

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

} // namespace ocelot::ir::detail
