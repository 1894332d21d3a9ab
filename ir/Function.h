#pragma once

#include "ir/BasicBlock.h"
#include "ir/ModuleItem.h"
#include "ir/Statement.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ocelot::ir {

class Module;

/// One entry of a function's register table: a named register (`%SP`, `p` in inline asm) or a
/// parameterized range (`%r<123>`), declared in `scope`.
struct RegisterDeclarator {
  std::string_view name;      ///< for ranges, the prefix ("%r")
  uint32_t count = 0;         ///< number of registers of a range; 0 for a named register
  bool parameterized = false; ///< a `<N>` range
  std::string_view typeWord;  ///< ".b32", ".pred", or a future type as written
  std::optional<ScalarType> type;
  unsigned vectorWidth = 1;
  ScopeId scope = 0;
};

struct LabelInfo {
  std::string_view name;
  ScopeId scope = 0;
  const Label* statement = nullptr; ///< where it is defined
};

struct ScopeInfo {
  ScopeId parent = 0; ///< the body scope (0) is its own parent
};

/// A kernel (`.entry`) or device function (`.func`): its header, and, when defined, its body as
/// basic blocks together with the tables that give registers, labels and scopes their identity.
class Function final : public ModuleItem {
public:
  Function(Module& module, bool isEntry, std::string_view name);

  Module& module() const { return *module_; }

  // --- Header -------------------------------------------------------------------------------
  bool isEntry() const { return isEntry_; }
  std::string_view name() const { return name_; }
  /// Words before `.entry`/`.func` as written (`.visible`, `.weak`, `.extern`).
  const std::vector<std::string_view>& prefixWords() const { return prefixWords_; }
  void setPrefixWords(std::vector<std::string_view> words) { prefixWords_ = std::move(words); }
  Linkage linkage() const;
  const FunctionSignature& signature() const { return signature_; }
  FunctionSignature& signature() { return signature_; }
  const std::vector<FunctionDirective>& directives() const { return directives_; }
  std::vector<FunctionDirective>& directives() { return directives_; }
  /// The values of a performance directive such as `.maxntid`, if present.
  const FunctionDirective* directive(std::string_view name) const;
  bool isNoReturn() const { return directive(".noreturn") != nullptr; }

  // --- Body ---------------------------------------------------------------------------------
  /// False for declarations (`.extern .func vprintf(...);`).
  bool hasBody() const { return hasBody_; }
  void setHasBody(bool hasBody) { hasBody_ = hasBody; }
  /// Line of the body's '{', or of the ';' that ends a declaration.
  uint32_t bodyLine() const { return bodyLine_; }
  void setBodyLine(uint32_t line) { bodyLine_ = line; }
  uint32_t bodyEndLine() const { return bodyEndLine_; } ///< line of the body's '}'
  void setBodyEndLine(uint32_t line) { bodyEndLine_ = line; }

  std::vector<std::unique_ptr<BasicBlock>>& blocks() { return blocks_; }
  const std::vector<std::unique_ptr<BasicBlock>>& blocks() const { return blocks_; }
  BasicBlock& appendBlock();
  /// Inserts a new, empty block before position `index`.
  BasicBlock& insertBlock(size_t index);
  size_t instructionCount() const;

  // --- Tables -------------------------------------------------------------------------------
  const std::vector<RegisterDeclarator>& registerDeclarators() const { return registers_; }
  uint32_t addRegisterDeclarator(RegisterDeclarator declarator);
  /// `%r12` for {range %r, 12}; `%SP` for a named register.
  std::string registerName(RegisterRef ref) const;
  const RegisterDeclarator& declaratorOf(RegisterRef ref) const {
    return registers_[ref.declarator];
  }
  /// Grows (or shrinks) the range `%r<N>` of a parameterized declarator. The IR builder uses it to
  /// hand out fresh registers from one range per type; the caller keeps the declaring statement's
  /// `<N>` in step.
  void setRegisterCount(uint32_t declarator, uint32_t count) {
    registers_[declarator].count = count;
  }

  const std::vector<LabelInfo>& labels() const { return labels_; }
  LabelId addLabel(LabelInfo info);
  void setLabelStatement(LabelId id, const Label* statement) { labels_[id].statement = statement; }

  const std::vector<ScopeInfo>& scopes() const { return scopes_; }
  ScopeId addScope(ScopeId parent);
  /// Nesting depth of `scope` (the body is 0).
  unsigned scopeDepth(ScopeId scope) const;

  /// Structural equality of header and body (source lines do not matter).
  bool equals(const Function& other) const;

  static bool classof(const ModuleItem* item) { return item->kind() == Kind::Function; }

private:
  Module* module_;
  bool isEntry_;
  std::string_view name_;
  std::vector<std::string_view> prefixWords_;
  FunctionSignature signature_;
  std::vector<FunctionDirective> directives_;
  bool hasBody_ = false;
  uint32_t bodyLine_ = 0;
  uint32_t bodyEndLine_ = 0;
  std::vector<std::unique_ptr<BasicBlock>> blocks_;
  std::vector<RegisterDeclarator> registers_;
  std::vector<LabelInfo> labels_;
  std::vector<ScopeInfo> scopes_;
};

} // namespace ocelot::ir
