#pragma once

#include "ir/Module.h"
#include "ir/SourceLocation.h"
#include "ir/parser/GrammarTypes.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ocelot::ir::detail {

/// Builds a Module while the grammar reduces rules: resolves registers and labels through the
/// scope stack, forms basic blocks, attaches `.loc` to instructions. All state of one parse lives
/// here (the parser is reentrant; nothing is global).
class ParseContext {
public:
  ParseContext(Module& module, std::string_view fileName);

  Module& module() { return module_; }
  std::string_view fileName() const { return fileName_; }

  /// Records an error at `at` (the parser calls this for every syntax error it reports).
  void report(const SourceRange& at, const std::string& message);
  std::vector<Diagnostic>& diagnostics() { return diagnostics_; }

  // --- Module level ---------------------------------------------------------------------------
  void setVersion(std::string_view text, SourceRange at);
  void setTargets(std::vector<std::string_view> targets, SourceRange at);
  void setAddressSize(uint64_t size, SourceRange at);
  void addFile(uint64_t index, std::string_view path, std::optional<uint64_t> timestamp,
               std::optional<uint64_t> size, SourceRange at);
  void beginSection(std::string_view name, SourceRange at);
  void addSectionItems(std::vector<SectionItem> items);
  void addSectionLabel(std::string_view name);
  void endSection();
  void addAlias(std::string_view alias, std::string_view aliasee, SourceRange at);
  void addGlobal(DeclarationSpec spec, SourceRange at);

  void beginFunction(std::vector<DeclarationWord> prefix, bool isEntry, NameSyntax name,
                     FunctionSignature signature, std::vector<FunctionDirective> directives,
                     SourceRange at);
  void beginBody(SourceRange at);
  void endBody(SourceRange at);

  // --- Function bodies ------------------------------------------------------------------------
  void openScope(SourceRange at);
  void closeScope(SourceRange at);
  void addLabel(NameSyntax name);
  void addDeclaration(DeclarationSpec spec, SourceRange at);
  void addLoc(uint64_t file, uint64_t line, uint64_t column,
              std::optional<LocDirective::InlinedAt> inlinedAt, SourceRange at);
  void addPragma(std::vector<std::string_view> strings, SourceRange at);
  void addCallPrototype(NameSyntax name, FunctionSignature signature,
                        std::vector<FunctionDirective> directives, SourceRange at);
  void addBranchTargets(NameSyntax name, std::vector<NameSyntax> targets, SourceRange at);
  void addCallTargets(NameSyntax name, std::vector<std::string_view> functions, SourceRange at);
  void addInstruction(const GuardSyntax& guard, std::string_view mnemonic,
                      std::vector<Operand> operands, SourceRange at);

  // --- Operands -------------------------------------------------------------------------------
  /// `%r1`, `%tid.x`, `!%p1`.
  Operand registerOperand(std::string_view text, bool negated, SourceRange at);
  /// `x`: a register declared without '%' in scope, else a symbol (or later a label).
  Operand identifierOperand(std::string_view name, bool negated, SourceRange at);
  /// `sym` (no offset) or `sym+N` (offset written, even when N is 0).
  Operand symbolOperand(std::string_view name, std::optional<int64_t> offset, SourceRange at);
  /// `generic(sym)`.
  Operand genericOperand(std::string_view keyword, std::string_view name, SourceRange at);
  Operand addressOperand(Operand base, std::optional<int64_t> offset, std::vector<Operand> extra,
                         SourceRange at);
  Operand dualOperand(Operand first, Operand second, SourceRange at);

  // --- Helpers for declarations ---------------------------------------------------------------
  std::string_view intern(std::string_view text) { return module_.intern(text); }
  /// Reports a semantic error (undefined label, undeclared register ...) as a syntax error at
  /// `at`: parsing stops with that message.
  [[noreturn]] void fail(SourceRange at, const std::string& message) const;

private:
  struct PendingLabel {
    Operand* operand;
    std::string_view name;
    SourceRange location;
  };
  struct OpenScope {
    ScopeId id = 0;
    std::vector<std::pair<std::string_view, LabelId>> labels;
    std::vector<PendingLabel> pending;
    std::vector<std::string_view> namedRegisters;
    std::vector<std::string_view> registerRanges;
  };

  BasicBlock& blockForStatement(bool isLabel);
  template <class T> T& append(std::unique_ptr<T> statement, SourceRange at);
  void requireFunctionBody(SourceRange at, std::string_view what) const;
  std::optional<RegisterRef> lookupRegister(std::string_view name) const;
  void declareRegisters(const DeclarationSpec& spec, SourceRange at, std::vector<uint32_t>& ids);
  void resolveScopeLabels(OpenScope& scope);

  Module& module_;
  std::string fileName_;

  // State of the function whose body is being parsed.
  Function* function_ = nullptr;
  BasicBlock* block_ = nullptr;
  bool startNewBlock_ = true;
  bool blockHasCode_ = false;
  SourceLoc currentLoc_;
  std::vector<OpenScope> scopes_;
  std::unordered_map<std::string_view, std::vector<uint32_t>> namedRegisters_;
  std::unordered_map<std::string_view, std::vector<uint32_t>> registerRanges_;
  DebugSection* section_ = nullptr;
  std::vector<Diagnostic> diagnostics_;
};

} // namespace ocelot::ir::detail
