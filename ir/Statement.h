#pragma once

#include "ir/Arena.h"
#include "ir/Declaration.h"
#include "ir/Operand.h"
#include "ir/OperandList.h"

#include <cstdint>
#include <new>
#include <optional>
#include <string_view>
#include <vector>

namespace ocelot::ir {

class InstructionForm;

/// Anything that can appear in a function body, in source order. Statements live in basic blocks;
/// the kinds form a closed hierarchy with LLVM-style `classof` for isa/dyn_cast.
class Statement {
public:
  enum class Kind : uint8_t {
    Instruction,
    Label,
    Declaration,   ///< .reg / .local / .shared / .param inside a body
    Loc,           ///< .loc
    Pragma,        ///< .pragma "...";
    ScopeBegin,    ///< {
    ScopeEnd,      ///< }
    CallPrototype, ///< name: .callprototype ...;
    BranchTargets, ///< name: .branchtargets L1, L2;
    CallTargets,   ///< name: .calltargets f, g;
  };

  virtual ~Statement() = default;
  /// A copy has its own memory: it keeps where that came from, not where the original's did.
  Statement(const Statement& other)
      : scope_(other.scope_), line_(other.line_), kind_(other.kind_),
        fromArena_(allocatedInArena_) {}
  Statement& operator=(const Statement& other) {
    scope_ = other.scope_;
    line_ = other.line_;
    kind_ = other.kind_;
    return *this;
  }

  // Statements of a parsed module live in its arena (see Arena); all others on the heap. The
  // memory has no header: the statement keeps where it came from, which operator new tells the
  // constructor through allocatedInArena_ (new allocates, then constructs, on one thread).
  static void* operator new(std::size_t size) {
    return Arena::allocateUntagged(size, allocatedInArena_);
  }
  static void operator delete(Statement* statement, std::destroying_delete_t) noexcept {
    const bool fromArena = statement->fromArena_;
    statement->~Statement();
    Arena::deallocateUntagged(statement, fromArena);
  }

  Kind kind() const { return kind_; }
  /// The scope the statement is in (for ScopeBegin/ScopeEnd: the scope they open/close).
  ScopeId scope() const { return scope_; }
  void setScope(ScopeId scope) { scope_ = scope; }
  /// The source line the statement starts on; 0 for statements created by passes.
  uint32_t line() const { return line_; }
  void setLine(uint32_t line) { line_ = line; }

  /// Structural equality: same kind, scope and contents; source lines do not matter.
  bool equals(const Statement& other) const;

protected:
  Statement(Kind kind, ScopeId scope) : scope_(scope), kind_(kind), fromArena_(allocatedInArena_) {}
  bool sameHeader(const Statement& other) const {
    return kind_ == other.kind_ && scope_ == other.scope_;
  }

private:
  // The kind last: derived statements put their small members in the bytes after it.
  ScopeId scope_;
  uint32_t line_ = 0;
  Kind kind_;
  bool fromArena_;
  static thread_local bool allocatedInArena_;
};

/// `.loc file line column` with the optional `, function_name L, inlined_at f l c` tail.
struct SourceLoc {
  uint32_t file = 0; ///< 0: no location
  uint32_t line = 0;
  uint32_t column = 0;
  friend bool operator==(const SourceLoc&, const SourceLoc&) = default;
};

/// Guard predicate `@%p` / `@!%p`.
struct Guard {
  RegisterRef predicate;
  bool negated = false;
  friend bool operator==(const Guard&, const Guard&) = default;
};

/// An instruction: 72 bytes, without a header in the arena (what most of a parsed module is made
/// of): the guard is stored as its parts, the operands in an OperandList.
class Instruction final : public Statement {
public:
  Instruction(const InstructionForm& form, OperandList operands, ScopeId scope)
      : Statement(Kind::Instruction, scope), form_(&form), operands_(std::move(operands)) {}
  Instruction(const InstructionForm& form, std::vector<Operand> operands, ScopeId scope)
      : Statement(Kind::Instruction, scope), form_(&form),
        operands_(std::make_move_iterator(operands.begin()),
                  std::make_move_iterator(operands.end())) {}

  const InstructionForm& form() const { return *form_; }
  void setForm(const InstructionForm& form) { form_ = &form; }

  std::optional<Guard> guard() const {
    return hasGuard_ ? std::optional<Guard>(Guard{guardPredicate_, guardNegated_}) : std::nullopt;
  }
  void setGuard(std::optional<Guard> guard) {
    hasGuard_ = guard.has_value();
    guardNegated_ = guard && guard->negated;
    guardPredicate_ = guard ? guard->predicate : RegisterRef{};
  }

  const OperandList& operands() const { return operands_; }
  OperandList& operands() { return operands_; }

  /// The source location from the last `.loc` before the instruction, if any.
  const SourceLoc& sourceLoc() const { return loc_; }
  void setSourceLoc(SourceLoc loc) { loc_ = loc; }

  /// How many lines below the mnemonic the operands started in the source (nvcc splits calls
  /// over several lines). ptxas -G attributes an instruction to the line of its first operand,
  /// so the emitter reproduces the break to keep the line table identical.
  uint16_t operandLineOffset() const { return operandLineOffset_; }
  void setOperandLineOffset(uint16_t offset) { operandLineOffset_ = offset; }

  static bool classof(const Statement* s) { return s->kind() == Kind::Instruction; }

private:
  bool hasGuard_ = false;
  bool guardNegated_ = false;
  uint16_t operandLineOffset_ = 0;
  RegisterRef guardPredicate_;
  SourceLoc loc_;
  const InstructionForm* form_;
  OperandList operands_;
};

class Label final : public Statement {
public:
  Label(LabelId id, std::string_view name, ScopeId scope)
      : Statement(Kind::Label, scope), id_(id), name_(name) {}
  LabelId id() const { return id_; }
  std::string_view name() const { return name_; }
  static bool classof(const Statement* s) { return s->kind() == Kind::Label; }

private:
  LabelId id_;
  std::string_view name_;
};

class DeclarationStatement final : public Statement {
public:
  DeclarationStatement(DeclarationSpec spec, ScopeId scope)
      : Statement(Kind::Declaration, scope), spec_(std::move(spec)) {}
  const DeclarationSpec& spec() const { return spec_; }
  DeclarationSpec& spec() { return spec_; }
  /// For `.reg` declarations: the register-table index of each declarator, in order.
  const std::vector<uint32_t>& registerDeclarators() const { return registers_; }
  void setRegisterDeclarators(std::vector<uint32_t> ids) { registers_ = std::move(ids); }
  static bool classof(const Statement* s) { return s->kind() == Kind::Declaration; }

private:
  DeclarationSpec spec_;
  std::vector<uint32_t> registers_;
};

class LocDirective final : public Statement {
public:
  struct InlinedAt {
    std::string_view functionName; ///< the debug-string label after `function_name`
    SourceLoc location;
    friend bool operator==(const InlinedAt&, const InlinedAt&) = default;
  };
  LocDirective(SourceLoc loc, std::optional<InlinedAt> inlinedAt, ScopeId scope)
      : Statement(Kind::Loc, scope), loc_(loc), inlinedAt_(inlinedAt) {}
  const SourceLoc& location() const { return loc_; }
  const std::optional<InlinedAt>& inlinedAt() const { return inlinedAt_; }
  static bool classof(const Statement* s) { return s->kind() == Kind::Loc; }

private:
  SourceLoc loc_;
  std::optional<InlinedAt> inlinedAt_;
};

class PragmaDirective final : public Statement {
public:
  PragmaDirective(std::vector<std::string_view> strings, ScopeId scope)
      : Statement(Kind::Pragma, scope), strings_(std::move(strings)) {}
  /// The string literals as written, without quotes and with escapes kept.
  const std::vector<std::string_view>& strings() const { return strings_; }
  static bool classof(const Statement* s) { return s->kind() == Kind::Pragma; }

private:
  std::vector<std::string_view> strings_;
};

class ScopeBegin final : public Statement {
public:
  explicit ScopeBegin(ScopeId scope) : Statement(Kind::ScopeBegin, scope) {}
  static bool classof(const Statement* s) { return s->kind() == Kind::ScopeBegin; }
};

class ScopeEnd final : public Statement {
public:
  explicit ScopeEnd(ScopeId scope) : Statement(Kind::ScopeEnd, scope) {}
  static bool classof(const Statement* s) { return s->kind() == Kind::ScopeEnd; }
};

/// Parameter lists and attributes shared by functions and call prototypes.
struct FunctionSignature {
  bool hasReturnList = false;    ///< written `(...)` before the name
  bool hasParameterList = false; ///< written `(...)` after the name (possibly empty)
  std::vector<DeclarationSpec> returns;
  std::vector<DeclarationSpec> parameters;
  friend bool operator==(const FunctionSignature&, const FunctionSignature&) = default;
};

/// `.maxntid 256, 1, 1`, `.noreturn`, `.explicitcluster`: any dot-word after the parameter list
/// with optional integer arguments, kept in order.
struct FunctionDirective {
  std::string_view name; ///< with the leading dot
  std::vector<uint64_t> values;
  friend bool operator==(const FunctionDirective&, const FunctionDirective&) = default;
};

/// `prototype_0 : .callprototype (.param .b32 _) _ (.param .b64 _);`
class CallPrototype final : public Statement {
public:
  CallPrototype(std::string_view name, FunctionSignature signature,
                std::vector<FunctionDirective> directives, ScopeId scope)
      : Statement(Kind::CallPrototype, scope), name_(name), signature_(std::move(signature)),
        directives_(std::move(directives)) {}
  std::string_view name() const { return name_; }
  const FunctionSignature& signature() const { return signature_; }
  const std::vector<FunctionDirective>& directives() const { return directives_; }
  static bool classof(const Statement* s) { return s->kind() == Kind::CallPrototype; }

private:
  std::string_view name_;
  FunctionSignature signature_;
  std::vector<FunctionDirective> directives_;
};

/// `ts: .branchtargets L1, L2;` (the table of `brx.idx`). Targets resolve like branch labels.
class BranchTargets final : public Statement {
public:
  BranchTargets(std::string_view name, std::vector<Operand> targets, ScopeId scope)
      : Statement(Kind::BranchTargets, scope), name_(name), targets_(std::move(targets)) {}
  std::string_view name() const { return name_; }
  /// LabelOperands once the enclosing scope is complete.
  const std::vector<Operand>& targets() const { return targets_; }
  std::vector<Operand>& targets() { return targets_; }
  static bool classof(const Statement* s) { return s->kind() == Kind::BranchTargets; }

private:
  std::string_view name_;
  std::vector<Operand> targets_;
};

/// `ct: .calltargets f, g;` (possible targets of an indirect call).
class CallTargets final : public Statement {
public:
  CallTargets(std::string_view name, std::vector<std::string_view> functions, ScopeId scope)
      : Statement(Kind::CallTargets, scope), name_(name), functions_(std::move(functions)) {}
  std::string_view name() const { return name_; }
  const std::vector<std::string_view>& functions() const { return functions_; }
  static bool classof(const Statement* s) { return s->kind() == Kind::CallTargets; }

private:
  std::string_view name_;
  std::vector<std::string_view> functions_;
};

} // namespace ocelot::ir
