#pragma once

#include "ir/Statement.h"

#include <memory>
#include <vector>

namespace ocelot::ir {

class Function;

/// A maximal straight-line run of statements. The parser starts a block at every label (unless
/// the current block holds no instruction or label yet) and after every terminator (bra, brx, ret,
/// exit, trap). Blocks are in layout order: a block without a terminator falls through to the
/// next. Declarations, `.loc`, pragmas and scope braces stay where they were written.
class BasicBlock {
public:
  using StatementList = std::vector<std::unique_ptr<Statement>>;

  explicit BasicBlock(Function& parent) : parent_(&parent) {}
  BasicBlock(const BasicBlock&) = delete;
  BasicBlock& operator=(const BasicBlock&) = delete;

  // Blocks of a parsed module live in its arena, like its statements (see Arena).
  static void* operator new(std::size_t size) { return Arena::allocate(size); }
  static void operator delete(void* memory) noexcept { Arena::deallocate(memory); }

  Function& parent() const { return *parent_; }

  StatementList& statements() { return statements_; }
  const StatementList& statements() const { return statements_; }
  bool empty() const { return statements_.empty(); }

  /// The first label of the block, if any (a branch to it enters this block).
  const Label* label() const;
  /// The last instruction when it is a terminator, else nullptr.
  const Instruction* terminator() const;
  Instruction* terminator();
  /// True when the block contains at least one instruction.
  bool hasInstructions() const;

  /// Appends `statement` and returns it.
  template <class T> T& append(std::unique_ptr<T> statement) {
    T& ref = *statement;
    statements_.push_back(std::move(statement));
    return ref;
  }
  /// Inserts `statement` before position `index` (== size appends) and returns it.
  template <class T> T& insert(size_t index, std::unique_ptr<T> statement) {
    T& ref = *statement;
    statements_.insert(statements_.begin() + static_cast<std::ptrdiff_t>(index),
                       std::move(statement));
    return ref;
  }

  /// Calls fn(Instruction&) for each instruction in order.
  template <class Fn> void forEachInstruction(Fn&& fn) {
    for (auto& s : statements_)
      if (s->kind() == Statement::Kind::Instruction)
        fn(static_cast<Instruction&>(*s));
  }
  template <class Fn> void forEachInstruction(Fn&& fn) const {
    for (const auto& s : statements_)
      if (s->kind() == Statement::Kind::Instruction)
        fn(static_cast<const Instruction&>(*s));
  }

private:
  Function* parent_;
  StatementList statements_;
};

} // namespace ocelot::ir
