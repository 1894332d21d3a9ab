#pragma once

#include "ir/Function.h"
#include "ir/Module.h"

#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace ocelot::ir {

/// What a change to a function's body can invalidate, from least to most.
enum class IRChange : uint8_t {
  Registers,    ///< registers were declared: register numbering and data flow
  Instructions, ///< straight-line code changed; blocks, labels and edges did not
  ControlFlow,  ///< blocks, labels, branches or terminators changed: everything
};

/// Told about every change the builder makes, so that cached analyses can be invalidated at the
/// moment the IR changes (the pass manager's AnalysisManager implements it). The IR library does
/// not know about analyses; this is its only hook.
class IRChangeListener {
public:
  virtual ~IRChangeListener() = default;
  virtual void irChanged(Function& function, IRChange change) = 0;
};

/// Inserts PTX into a function at an insertion point and keeps the function's tables (registers,
/// labels, declarations) consistent. Each common sequence is one readable call:
///
///     IRBuilder b(block, &analyses);                       // at the block's start
///     RegisterRef base = b.load(StateSpace::Global, ScalarType::U64, b.symbol("counters"));
///     RegisterRef cta = b.readSpecial("%ctaid", VectorComponent::X);
///     RegisterRef slot = b.elementAddress(b.reg(base), b.reg(cta), 8);
///     b.atomic("add", StateSpace::Global, ScalarType::U64, b.reg(slot), b.imm(1));
///
/// New registers come from one range per register width (`.reg .b32 %ocl_r<N>`), declared at the
/// start of the body and grown as registers are handed out; names never collide with the
/// function's own. Instructions are inserted in order: each insertion moves the point past the
/// new instruction. Every change is reported to the listener, if there is one.
class IRBuilder {
public:
  /// At the start of the function's first block (created if the body is empty).
  explicit IRBuilder(Function& function, IRChangeListener* listener = nullptr);
  /// At the start of `block` (see atStart).
  explicit IRBuilder(BasicBlock& block, IRChangeListener* listener = nullptr);

  Function& function() const { return *function_; }
  Module& module() const { return function_->module(); }
  BasicBlock* block() const { return block_; }
  size_t index() const { return index_; }

  // --- Insertion point --------------------------------------------------------------------------
  /// After the block's labels and the declarations, `.loc` and `.pragma` lines that precede its
  /// first instruction: code put here runs whenever the block is entered.
  IRBuilder& atStart(BasicBlock& block);
  /// Before the block's terminator, or at its end when it has none (falls through).
  IRBuilder& atEnd(BasicBlock& block);
  /// Before statement `index` of `block` (index == size: after the last statement).
  IRBuilder& at(BasicBlock& block, size_t index);
  /// Before / after `statement`, which must be in `block`; the point is unchanged when it is not.
  IRBuilder& before(BasicBlock& block, const Statement& statement);
  IRBuilder& after(BasicBlock& block, const Statement& statement);

  /// The scope a statement inserted before statement `index` of `block` belongs to.
  static ScopeId scopeAt(const Function& function, const BasicBlock& block, size_t index);
  /// The statement index `atStart` / `atEnd` would choose.
  static size_t startIndex(const BasicBlock& block);
  static size_t endIndex(const BasicBlock& block);

  // --- Registers --------------------------------------------------------------------------------
  /// A fresh register wide enough for `type` (bit-size types are compatible with every type of
  /// their width: a `.b32` register serves `.u32`, `.s32` and `.f32` instructions).
  RegisterRef createRegister(ScalarType type);
  /// `count` fresh registers of the exact type word (".f32", ".pred") from the range `prefix<N>`
  /// (created if needed, renamed if `prefix` would collide with the function's registers); returns
  /// the first, the others follow at consecutive indices.
  RegisterRef createRegisters(std::string_view typeWord, std::string_view prefix, uint32_t count);
  /// The width class of a register (Pred, B16, B32, B64, B128), or nullopt for unknown types.
  static std::optional<ScalarType> bitType(ScalarType type);

  // --- Operands ---------------------------------------------------------------------------------
  static Operand reg(RegisterRef ref) { return RegisterOperand{ref}; }
  static Operand imm(int64_t value) { return ImmediateOperand::integer(value); }
  Operand symbol(std::string_view name, int64_t offset = 0);
  Operand special(std::string_view name, VectorComponent component = VectorComponent::None);
  static Operand address(RegisterRef base, int64_t offset = 0);
  Operand address(std::string_view symbolName, int64_t offset = 0);
  Operand label(LabelId id) const { return LabelOperand{id}; }

  // --- Raw instructions -------------------------------------------------------------------------
  /// Inserts `spelling operands;` (guarded by `guard` if given) at the insertion point.
  Instruction& insert(std::string_view spelling, std::vector<Operand> operands,
                      std::optional<Guard> guard = std::nullopt);
  /// Inserts `statement` at the insertion point, giving it the scope of that point.
  template <class T> T& insertStatement(std::unique_ptr<T> statement) {
    statement->setScope(scopeAtPoint());
    T& ref = block_->insert(index_++, std::move(statement));
    return ref;
  }
  /// Removes statement `index` of `block`; the insertion point stays before the same statement.
  void erase(BasicBlock& block, size_t index);

  // --- Common sequences: each returns the register it defines -----------------------------------
  /// `mov.u32 %r, %tid.x`; 64-bit for %clock64, %globaltimer and %gridid.
  RegisterRef readSpecial(std::string_view name, VectorComponent component = VectorComponent::None);
  RegisterRef mov(ScalarType type, Operand source);
  /// `add.type d, a, b` and the like for any two-source opcode ("add", "sub", "and", "min" ...).
  RegisterRef binary(std::string_view opcode, ScalarType type, Operand a, Operand b);
  RegisterRef add(ScalarType type, Operand a, Operand b) { return binary("add", type, a, b); }
  RegisterRef sub(ScalarType type, Operand a, Operand b) { return binary("sub", type, a, b); }
  /// `mul.lo` for integers, `mul` for floats.
  RegisterRef mul(ScalarType type, Operand a, Operand b);
  /// `mad.lo` for integers, `fma.rn` for floats: a * b + c.
  RegisterRef mad(ScalarType type, Operand a, Operand b, Operand c);
  /// `mul.wide.u32 / .s32`: the 64-bit product of 32-bit operands.
  RegisterRef mulWide(ScalarType type, Operand a, Operand b);
  /// `cvt.to.from d, a` (with `.rn`/`.rzi` rounding where PTX requires one).
  RegisterRef convert(ScalarType to, ScalarType from, Operand source);
  /// `setp.cmp.type p, a, b`.
  RegisterRef compare(std::string_view comparison, ScalarType type, Operand a, Operand b);
  /// `mov.u64 %rd, sym` (`.u32` under `.address_size 32`): the generic address of a variable.
  RegisterRef addressOf(std::string_view symbolName);
  /// `base + index * elementBytes` as a pointer-sized register; a 32-bit index is widened with
  /// `mul.wide.u32`, a 64-bit one multiplied with `mad.lo.u64`.
  RegisterRef elementAddress(Operand base, Operand index, uint32_t elementBytes);
  /// `ld.space.type d, [address]`; `address` is a register (its value is the address), a symbol,
  /// or an address operand.
  RegisterRef load(StateSpace space, ScalarType type, Operand address);
  void store(StateSpace space, ScalarType type, Operand address, Operand value);
  /// `atom.space.op.type d, [address], value`: returns the old value.
  RegisterRef atomic(std::string_view op, StateSpace space, ScalarType type, Operand address,
                     Operand value);
  /// `red.space.op.type [address], value`: the atomic without a result.
  void reduce(std::string_view op, StateSpace space, ScalarType type, Operand address,
              Operand value);
  /// `bra.uni label` (or a guarded `@p bra`).
  Instruction& branch(LabelId target, std::optional<Guard> guard = std::nullopt);

  // --- Blocks and labels ------------------------------------------------------------------------
  /// A new, empty block at layout position `index` (0 = first). The caller fills it.
  BasicBlock& createBlock(size_t index);
  /// A new label, named `$L__ocl_<hint><N>` (unique in the function), put at the insertion point.
  Label& insertLabel(std::string_view hint = "");

  /// Reports a change made to the function directly, not through the builder (an operand
  /// rewritten in place), to the listener.
  void reportChange(IRChange change);

private:
  ScopeId scopeAtPoint() const;
  Operand asAddress(Operand operand);
  std::string_view pointerType() const;
  std::string spelling(std::string_view opcode, std::initializer_list<std::string_view> words);
  DeclarationStatement* findDeclaration(uint32_t declarator) const;
  std::optional<uint32_t> findRange(std::string_view name, std::string_view typeWord) const;
  /// True when registers named `name<N>` could clash with a declarator other than `except`.
  bool collides(std::string_view name, std::optional<uint32_t> except = std::nullopt) const;
  uint32_t rangeFor(std::string_view typeWord, std::string_view prefix);

  Function* function_;
  IRChangeListener* listener_;
  BasicBlock* block_ = nullptr;
  size_t index_ = 0;
  std::unordered_set<std::string_view> labelNames_; ///< names of the first labelsSeen_ labels
  size_t labelsSeen_ = 0;
};

} // namespace ocelot::ir
