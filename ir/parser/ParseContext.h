#pragma once

#include "ir/Module.h"
#include "ir/PtxVersion.h"
#include "ir/SourceLocation.h"
#include "ir/parser/GrammarTypes.h"

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ocelot::ir::detail {

class Lexer;

/// Builds a Module while the grammar reduces rules. Grammar actions only hand over token texts and
/// numbers; everything under construction (the operands of the current instruction, the words and
/// declarators of the current declaration, open initializer lists, the current function header)
/// accumulates here. It resolves registers and labels through the scope stack, forms basic blocks
/// and attaches `.loc` to instructions. All state of one parse lives here: nothing is global.
class ParseContext {
public:
  ParseContext(Module& module, std::string_view fileName);

  Module& module() { return module_; }
  std::string_view fileName() const { return fileName_; }

  /// Records an error at `at` (the parser calls this for every syntax error it reports).
  void report(const SourceRange& at, const std::string& message);
  std::vector<Diagnostic>& diagnostics() { return diagnostics_; }
  /// Reports a semantic error (undefined label, undeclared register ...) as a syntax error at
  /// `at`: parsing stops with that message.
  [[noreturn]] void fail(SourceRange at, const std::string& message,
                         DiagnosticKind kind = DiagnosticKind::Syntax) const;
  /// `.version` texts newer than this are refused; nullopt accepts every version.
  void setNewestVersion(std::optional<PtxVersion> newest) { newestVersion_ = newest; }

  uint64_t unsignedValue(const ImmediateOperand& imm, SourceRange at) const;
  int64_t signedValue(const ImmediateOperand& imm, bool negate, SourceRange at) const;
  /// signedValue as two's-complement bits (to travel in SemanticValue::magnitude).
  uint64_t offsetBits(const ImmediateOperand& imm, bool negate, SourceRange at) const {
    return static_cast<uint64_t>(signedValue(imm, negate, at));
  }
  /// `a op b` on offsets (two's-complement bits), op one of + - * /; overflow and division by zero
  /// are errors at `at`.
  uint64_t foldOffset(char op, uint64_t a, uint64_t b, SourceRange at) const;
  std::string_view intern(std::string_view text) { return module_.intern(text); }

  // --- Module level ---------------------------------------------------------------------------
  void setVersion(std::string_view text, SourceRange at);
  void addTarget(std::string_view target);
  void finishTargets(SourceRange at);
  void setAddressSize(uint64_t size, SourceRange at);
  void addFile(const ImmediateOperand& index, std::string_view path,
               std::optional<ImmediateOperand> timestamp, std::optional<ImmediateOperand> size,
               SourceRange at);
  void addAlias(std::string_view alias, std::string_view aliasee, SourceRange at);
  void addGlobal(SourceRange at);

  void beginSection(std::string_view name, SourceRange at);
  void addSectionLabel(std::string_view name);
  void setSectionDirective(std::string_view directive);
  void addSectionInteger(const ImmediateOperand& value, bool negative, SourceRange at);
  void addSectionSymbol(std::string_view symbol, std::optional<ImmediateOperand> offset,
                        SourceRange at);
  void addSectionSymbolDifference(std::string_view symbol, std::string_view subtrahend);
  // The same for values the lexer read by hand (Lexer::scanSectionLines).
  void addSectionIntegerValue(uint64_t magnitude, bool negative, bool hexadecimal) {
    SectionItem item;
    item.value = magnitude;
    item.negative = negative;
    item.hexadecimal = hexadecimal;
    addSectionItem(item);
  }
  void addSectionSymbolValue(std::string_view symbol, uint64_t offset);
  /// Where the section being parsed stands: the lexer takes back a line it read only in part.
  struct SectionMark {
    size_t items = 0;
    size_t names = 0;
    size_t knownDirectives = 0;
    std::string_view directive;
    uint32_t directiveName = SectionItem::kNoName;
    bool directiveUsed = false;
  };
  SectionMark sectionMark() const {
    return SectionMark{section_->items().size(), section_->nameCount(), knownDirectives_,
                       sectionDirective_,        sectionDirectiveName_, sectionDirectiveUsed_};
  }
  void rewindSection(const SectionMark& mark);
  void reserveSectionItems(size_t count) { section_->items().reserve(count); }
  void endSection();

  // --- Function headers and call prototypes ---------------------------------------------------
  /// `.entry`/`.func` was read: the declaration words so far were its prefix (`.visible`).
  void beginFunctionHeader(bool isEntry, SourceRange at);
  void finishParameter(SourceRange at);
  void finishReturnList();
  void finishParameterList();
  void addFunctionDirective(std::string_view name);
  void addFunctionDirectiveValue(const ImmediateOperand& value, SourceRange at);
  /// The header is complete: creates the function.
  void beginFunction(std::string_view name);
  /// The function has no body: `;` at `at` ends its declaration.
  void endDeclaration(SourceRange at);
  void beginBody(SourceRange at);
  void endBody(SourceRange at);

  // --- Declarations ---------------------------------------------------------------------------
  void addWord(std::string_view word);
  void setWordValue(const ImmediateOperand& value, SourceRange at);
  void addWordArgument(std::string_view argument);
  void addDimension(std::optional<ImmediateOperand> size, SourceRange at);
  void addDeclarator(std::string_view name, SourceRange at);
  void addRegisterRange(std::string_view name, const ImmediateOperand& count, SourceRange at);

  void addInitializerValue(Operand value, SourceRange at);
  /// INTEGER_RUN `text` ("1, 2, -3"): the lexer put its values in pendingIntegers(); they are
  /// elements of the innermost open initializer list.
  void addInitializerIntegers(std::string_view text, SourceRange at);
  /// FLOAT_RUN `text` ("0f3F800000, 0f40000000"): the same with pendingScalars().
  void addInitializerScalars(std::string_view text, SourceRange at);
  IntegerValues& pendingIntegers() { return pendingIntegers_; }
  std::vector<Initializer>& pendingScalars() { return pendingScalars_; }
  void beginInitializerList(SourceRange at);
  void endInitializerList();

  // --- Function bodies ------------------------------------------------------------------------
  void openScope(SourceRange at);
  void closeScope(SourceRange at);
  void addLabel(std::string_view name, SourceRange at);
  void addDeclaration(SourceRange at);
  void addLoc(const ImmediateOperand& file, const ImmediateOperand& line,
              const ImmediateOperand& column, SourceRange at);
  /// `.loc F L C` scanned as one token (the common case).
  void addLocNumbers(std::string_view text, SourceRange at);
  void addInlinedLocNumbers(std::string_view text, std::string_view functionNameKeyword,
                            std::string_view functionName, std::string_view inlinedAtKeyword,
                            const ImmediateOperand& inlinedFile,
                            const ImmediateOperand& inlinedLine,
                            const ImmediateOperand& inlinedColumn, SourceRange at);
  void addInlinedLoc(const ImmediateOperand& file, const ImmediateOperand& line,
                     const ImmediateOperand& column, std::string_view functionNameKeyword,
                     std::string_view functionName, std::string_view inlinedAtKeyword,
                     const ImmediateOperand& inlinedFile, const ImmediateOperand& inlinedLine,
                     const ImmediateOperand& inlinedColumn, SourceRange at);
  void addPragmaString(std::string_view text);
  void addPragma(SourceRange at);
  void addName(std::string_view name, SourceRange at);
  void beginCallPrototype();
  void addCallPrototype(std::string_view name, SourceRange at);
  void addBranchTargets(std::string_view name, SourceRange at);
  void addCallTargets(std::string_view name, SourceRange at);
  void setGuard(std::string_view predicate, bool negated, SourceRange at);
  /// An instruction the scanner read as one token (its text matched the scanner's rule for
  /// simple one-line instructions): takes it apart and adds it exactly as the grammar would.
  void addSimpleInstruction(std::string_view text, SourceRange at, const Lexer& lexer);
  /// Completes an instruction from the operands pushed since the last one. `operandsLine` is the
  /// line the operands start on (nvcc sometimes puts them below the mnemonic).
  void addInstruction(std::string_view mnemonic, SourceRange at, uint32_t operandsLine);

  // --- Operands -------------------------------------------------------------------------------
  template <class T> void push(T&& operand) { operands_.emplace_back(std::forward<T>(operand)); }
  /// `%r1`, `%tid.x`, `!%p1`.
  void pushRegister(std::string_view text, bool negated, SourceRange at);
  /// `[base+offset]` scanned as one token: `base` is a register or a variable.
  void pushSimpleAddress(std::string_view base, bool hasOffset, int64_t offset, SourceRange at);
  /// `x`: a register declared without '%' in scope, else a symbol (or later a label).
  void pushIdentifier(std::string_view name, bool negated, SourceRange at);
  /// `t.b1`: a register named without '%' (inline asm) with a video selector; the lexer reads the
  /// dotted word as an instruction mnemonic, so only a declared register is accepted here.
  void pushBareRegister(std::string_view text, SourceRange at);
  /// `sym` or `sym+N` (the offset is kept as written, even when N is 0).
  Operand symbol(std::string_view name, std::optional<ImmediateOperand> offset, SourceRange at);
  /// `generic(sym)`, `generic(sym)+N`.
  Operand generic(std::string_view keyword, std::string_view name,
                  std::optional<ImmediateOperand> offset, SourceRange at);
  /// Replaces the last two operands by `first|second`.
  void makeDual(SourceRange at);
  /// Starts a `{...}`, `[...]` or `(...)` operand: what is pushed until its end belongs to it.
  void beginList();
  void endVector();
  void endAddress(bool hasOffset, int64_t offset, SourceRange at);
  void endArgumentList();

private:
  // Nesting limits: far beyond what compilers write (nvcc nests a few inline-asm scopes and writes
  // initializers flat) and beyond ptxas for scopes (its parser gives up at about 1,660), while a
  // hostile module cannot make the initializer trees (destroyed, emitted and loaded recursively)
  // deeper than a thread's stack allows.
  static constexpr unsigned kMaxScopeDepth = 4096;
  static constexpr unsigned kMaxInitializerDepth = 256;

  struct PendingLabel {
    Operand* operand;
    std::string_view name;
    SourceRange location;
  };
  struct OpenScope {
    ScopeId id = 0;
    /// Labels defined in the scope; scopes with many labels (function bodies) also index them.
    std::vector<std::pair<std::string_view, LabelId>> labels;
    std::unordered_map<std::string_view, LabelId> labelIndex;
    std::optional<LabelId> findLabel(std::string_view name) const;
    std::vector<PendingLabel> pending;
    std::vector<std::string_view> namedRegisters;
    std::vector<std::string_view> registerRanges;
  };

  BasicBlock& blockForStatement(bool isLabel);
  /// The block being filled is complete.
  void finishBlock();
  template <class T> T& append(std::unique_ptr<T> statement, SourceRange at);
  void requireFunctionBody(SourceRange at, std::string_view what) const {
    if (function_ == nullptr || scopes_.empty())
      failOutsideFunction(at, what);
  }
  [[noreturn]] void failOutsideFunction(SourceRange at, std::string_view what) const;
  std::optional<RegisterRef> lookupRegister(std::string_view name) const;
  std::optional<RegisterRef> lookupRegisterUncached(std::string_view name) const;
  const InstructionForm& formOf(std::string_view spelling);
  /// The innermost `%prefix<N>` range declarator visible now.
  std::optional<uint32_t> findRange(std::string_view prefix) const;
  void registersChanged() { packedRanges_.fill({}); }
  void declareRegisters(const DeclarationSpec& spec, SourceRange at, std::vector<uint32_t>& ids);
  void resolveScopeLabels(OpenScope& scope);
  DeclarationSpec takeDeclaration();
  [[noreturn]] void failMissingStateSpace(const DeclarationSpec& spec, SourceRange at,
                                          std::string_view expected) const;
  void deliverInitializer(Initializer init);
  std::vector<Operand> takeListOperands();
  void addSectionItem(SectionItem item) {
    item.continuation = sectionDirectiveUsed_;
    if (!sectionDirectiveUsed_)
      item.directive = sectionDirectiveName_;
    sectionDirectiveUsed_ = true;
    section_->items().push_back(item);
  }
  /// The three numbers of a `.loc F L C` token.
  std::array<ImmediateOperand, 3> locNumbers(std::string_view text, SourceRange at) const;

  Module& module_;
  std::string fileName_;
  std::vector<Diagnostic> diagnostics_;
  std::optional<PtxVersion> newestVersion_ = kNewestPtxVersion;
  /// The kind of the diagnostic the next report() records: fail() sets it before throwing, the
  /// grammar catches the exception and reports it.
  mutable DiagnosticKind pendingKind_ = DiagnosticKind::Syntax;

  // What is being built right now.
  std::vector<Operand> operands_;
  std::vector<size_t> listStarts_;
  std::vector<DeclarationWord> words_;
  std::vector<Declarator> declarators_;
  std::vector<std::optional<uint64_t>> dimensions_;
  std::optional<Initializer> initializer_;
  std::vector<InitializerListBuilder> openInitializers_;
  IntegerValues pendingIntegers_;
  std::vector<Initializer> pendingScalars_;
  std::vector<DeclarationSpec> parameters_;
  FunctionSignature signature_;
  std::vector<FunctionDirective> directives_;
  std::vector<std::string_view> prefixWords_;
  bool headerIsEntry_ = false;
  SourceRange headerAt_;
  std::vector<std::string_view> targets_;
  std::vector<std::string_view> strings_;
  std::vector<NameSyntax> names_;
  GuardSyntax guard_;

  // The function whose body is being parsed.
  Function* function_ = nullptr;
  BasicBlock* block_ = nullptr;
  bool startNewBlock_ = true;
  bool blockHasCode_ = false;
  SourceLoc currentLoc_;
  std::vector<OpenScope> scopes_;
  std::unordered_map<std::string_view, std::vector<uint32_t>> namedRegisters_;
  std::unordered_map<std::string_view, std::vector<uint32_t>> registerRanges_;
  /// Named registers in scope whose names end in digits (and could shadow a range element).
  size_t indexedNamedRegisters_ = 0;
  /// Registers in scope whose names do not start with '%' (named or ranges).
  size_t bareRegisterNames_ = 0;

  /// The ranges (`%r<N>`, `%rd<N>` ...) used last, their prefix packed into one word (up to 8
  /// characters, zero-padded): what lookupRegister's fast path compares against.
  struct PackedRange {
    uint64_t key = ~uint64_t{0}; ///< never matches a masked word: unused entries
    uint64_t mask = 0;           ///< the prefix's bytes
    uint32_t declarator = 0;
    uint32_t count = 0;
    uint32_t length = 0; ///< of the prefix
  };
  mutable std::array<PackedRange, 8> packedRanges_{};
  mutable size_t packedRangesNext_ = 0;

  std::array<const InstructionForm*, 256> formCache_{};

  // The debug section being parsed.
  DebugSection* section_ = nullptr;
  std::string_view sectionDirective_;
  uint32_t sectionDirectiveName_ = SectionItem::kNoName;
  bool sectionDirectiveUsed_ = false;
  /// The section's first directives (`.b8`, `.b32`, `.b64` ...) and their name indices: debug
  /// sections switch between a few of them on every other line.
  std::array<std::pair<std::string_view, uint32_t>, 8> knownDirectiveNames_{};
  size_t knownDirectives_ = 0;
};

} // namespace ocelot::ir::detail
