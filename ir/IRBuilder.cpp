#include "ir/IRBuilder.h"

#include "ir/Casting.h"

#include <algorithm>

namespace ocelot::ir {

namespace {

/// True when `a` followed by a (possibly empty) run of digits spells `b`: then the ranges
/// `a<N>`/`b<N>` or the names could denote the same register.
bool digitExtension(std::string_view a, std::string_view b) {
  if (b.size() < a.size() || b.substr(0, a.size()) != a)
    return false;
  return std::all_of(b.begin() + static_cast<std::ptrdiff_t>(a.size()), b.end(),
                     [](char c) { return c >= '0' && c <= '9'; });
}

bool isIntegerType(ScalarType type) {
  return !isFloatType(type) && type != ScalarType::Pred;
}

std::string_view typeWordOf(ScalarType type) {
  switch (type) {
  case ScalarType::Pred:
    return ".pred";
  case ScalarType::B16:
    return ".b16";
  case ScalarType::B32:
    return ".b32";
  case ScalarType::B64:
    return ".b64";
  default:
    return ".b128";
  }
}

std::string_view prefixOf(ScalarType bitType) {
  switch (bitType) {
  case ScalarType::Pred:
    return "%ocl_p";
  case ScalarType::B16:
    return "%ocl_rs";
  case ScalarType::B32:
    return "%ocl_r";
  case ScalarType::B64:
    return "%ocl_rd";
  default:
    return "%ocl_rq";
  }
}

} // namespace

IRBuilder::IRBuilder(Function& function, IRChangeListener* listener)
    : function_(&function), listener_(listener) {
  if (function.blocks().empty())
    function.appendBlock();
  atStart(*function.blocks().front());
}

IRBuilder::IRBuilder(BasicBlock& block, IRChangeListener* listener)
    : function_(&block.parent()), listener_(listener) {
  atStart(block);
}

// --- Insertion point ----------------------------------------------------------------------------

size_t IRBuilder::startIndex(const BasicBlock& block) {
  const auto& statements = block.statements();
  // A block may start with the `}` of an inline-asm scope and then its label: code must go after
  // the last label before the first instruction, where branches enter the block.
  size_t i = 0;
  for (size_t j = 0; j < statements.size(); ++j) {
    Statement::Kind kind = statements[j]->kind();
    if (kind == Statement::Kind::Instruction)
      break;
    if (kind == Statement::Kind::Label)
      i = j + 1;
  }
  while (i < statements.size()) {
    Statement::Kind kind = statements[i]->kind();
    if (kind != Statement::Kind::Label && kind != Statement::Kind::Declaration &&
        kind != Statement::Kind::Loc && kind != Statement::Kind::Pragma)
      break;
    ++i;
  }
  return i;
}

size_t IRBuilder::endIndex(const BasicBlock& block) {
  const auto& statements = block.statements();
  for (size_t i = statements.size(); i-- > 0;) {
    if (const auto* inst = dyn_cast<Instruction>(statements[i].get()))
      return inst->form().isTerminator() ? i : statements.size();
  }
  return statements.size();
}

IRBuilder& IRBuilder::atStart(BasicBlock& block) {
  return at(block, startIndex(block));
}

IRBuilder& IRBuilder::atEnd(BasicBlock& block) {
  return at(block, endIndex(block));
}

IRBuilder& IRBuilder::at(BasicBlock& block, size_t index) {
  block_ = &block;
  index_ = std::min(index, block.statements().size());
  return *this;
}

IRBuilder& IRBuilder::before(BasicBlock& block, const Statement& statement) {
  const auto& statements = block.statements();
  for (size_t i = 0; i < statements.size(); ++i)
    if (statements[i].get() == &statement)
      return at(block, i);
  return *this;
}

IRBuilder& IRBuilder::after(BasicBlock& block, const Statement& statement) {
  const auto& statements = block.statements();
  for (size_t i = 0; i < statements.size(); ++i)
    if (statements[i].get() == &statement)
      return at(block, i + 1);
  return *this;
}

ScopeId IRBuilder::scopeAtPoint() const {
  return scopeAt(*function_, *block_, index_);
}

ScopeId IRBuilder::scopeAt(const Function& function, const BasicBlock& block, size_t index) {
  const auto& scopes = function.scopes();
  auto parentOf = [&](ScopeId scope) { return scope < scopes.size() ? scopes[scope].parent : 0; };
  // The statement the new one will precede decides, else the one it follows: a `{` opens its
  // scope after itself, a `}` closes it.
  auto scopeBefore = [&](const Statement& next) {
    return next.kind() == Statement::Kind::ScopeBegin ? parentOf(next.scope()) : next.scope();
  };
  auto scopeAfter = [&](const Statement& previous) {
    return previous.kind() == Statement::Kind::ScopeEnd ? parentOf(previous.scope())
                                                        : previous.scope();
  };
  const auto& statements = block.statements();
  if (index < statements.size())
    return scopeBefore(*statements[index]);
  if (index > 0 && !statements.empty())
    return scopeAfter(*statements[std::min(index, statements.size()) - 1]);
  // An empty block: look at the neighbours in layout order.
  const auto& blocks = function.blocks();
  size_t position = 0;
  while (position < blocks.size() && blocks[position].get() != &block)
    ++position;
  for (size_t b = position; b-- > 0;)
    if (!blocks[b]->statements().empty())
      return scopeAfter(*blocks[b]->statements().back());
  for (size_t b = position + 1; b < blocks.size(); ++b)
    if (!blocks[b]->statements().empty())
      return scopeBefore(*blocks[b]->statements().front());
  return 0;
}

void IRBuilder::reportChange(IRChange change) {
  if (listener_ != nullptr)
    listener_->irChanged(*function_, change);
}

// --- Registers ----------------------------------------------------------------------------------

std::optional<ScalarType> IRBuilder::bitType(ScalarType type) {
  unsigned bits = scalarTypeBits(type);
  if (type == ScalarType::Pred)
    return ScalarType::Pred;
  if (bits <= 16)
    return ScalarType::B16; // PTX has no 8-bit registers: ld.u8 and friends write 16 bits or more
  if (bits == 32)
    return ScalarType::B32;
  if (bits == 64)
    return ScalarType::B64;
  if (bits == 128)
    return ScalarType::B128;
  return std::nullopt;
}

RegisterRef IRBuilder::createRegister(ScalarType type) {
  ScalarType width = bitType(type).value_or(ScalarType::B32);
  return createRegisters(typeWordOf(width), prefixOf(width), 1);
}

DeclarationStatement* IRBuilder::findDeclaration(uint32_t declarator) const {
  auto declares = [&](Statement& s) {
    auto* declaration = dyn_cast<DeclarationStatement>(&s);
    if (declaration == nullptr)
      return false;
    const auto& ids = declaration->registerDeclarators();
    return std::find(ids.begin(), ids.end(), declarator) != ids.end();
  };
  // The builder puts its declarations among the leading declarations of the first block; look
  // there first, then everywhere.
  if (!function_->blocks().empty())
    for (auto& s : function_->blocks().front()->statements()) {
      if (s->kind() != Statement::Kind::Declaration)
        break;
      if (declares(*s))
        return cast<DeclarationStatement>(s.get());
    }
  for (auto& block : function_->blocks())
    for (auto& s : block->statements())
      if (declares(*s))
        return cast<DeclarationStatement>(s.get());
  return nullptr;
}

std::optional<uint32_t> IRBuilder::findRange(std::string_view name,
                                             std::string_view typeWord) const {
  const auto& declarators = function_->registerDeclarators();
  for (uint32_t id = 0; id < declarators.size(); ++id) {
    const auto& d = declarators[id];
    if (d.name == name && d.parameterized && d.scope == 0 && d.vectorWidth == 1 &&
        d.typeWord == typeWord)
      return id;
  }
  return std::nullopt;
}

bool IRBuilder::collides(std::string_view name, std::optional<uint32_t> except) const {
  const auto& declarators = function_->registerDeclarators();
  for (uint32_t id = 0; id < declarators.size(); ++id)
    if (id != except &&
        (digitExtension(name, declarators[id].name) || digitExtension(declarators[id].name, name)))
      return true;
  return false;
}

uint32_t IRBuilder::rangeFor(std::string_view typeWord, std::string_view prefix) {
  // Candidates in order: `prefix`, `prefix_0x`, `prefix_1x` ... (a suffix ending in a letter keeps
  // `candidate<N>` apart from digit-extended names). The first that is already a body-scope range
  // of this type is grown (indices past its count are unused, even when the function declared
  // it); the first that collides with nothing is created.
  for (unsigned attempt = 0;; ++attempt) {
    std::string candidate(prefix);
    if (attempt > 0)
      candidate += "_" + std::to_string(attempt - 1) + "x";
    if (auto existing = findRange(candidate, typeWord); existing && !collides(candidate, existing))
      return *existing;
    if (collides(candidate))
      continue;
    // A new range `.reg <type> <name><0>;` among the leading declarations of the body.
    std::string_view name = module().intern(candidate);
    RegisterDeclarator declarator;
    declarator.name = name;
    declarator.count = 0;
    declarator.parameterized = true;
    declarator.typeWord = typeWord;
    declarator.type = scalarTypeFromName(typeWord);
    declarator.scope = 0;
    uint32_t id = function_->addRegisterDeclarator(declarator);
    DeclarationSpec spec;
    spec.words.push_back(DeclarationWord{module().intern(".reg"), std::nullopt, {}});
    spec.words.push_back(DeclarationWord{typeWord, std::nullopt, {}});
    Declarator d;
    d.name = name;
    d.parameterized = true;
    d.registerCount = 0;
    spec.declarators.push_back(d);
    auto statement = std::make_unique<DeclarationStatement>(std::move(spec), 0);
    statement->setRegisterDeclarators({id});
    BasicBlock& entry = *function_->blocks().front();
    size_t position = 0;
    while (position < entry.statements().size() &&
           entry.statements()[position]->kind() == Statement::Kind::Declaration)
      ++position;
    entry.insert(position, std::move(statement));
    if (block_ == &entry && index_ >= position)
      ++index_; // keep pointing before the same statement
    return id;
  }
}

RegisterRef IRBuilder::createRegisters(std::string_view typeWord, std::string_view prefix,
                                       uint32_t count) {
  typeWord = module().intern(typeWord);
  if (function_->blocks().empty())
    function_->appendBlock();
  uint32_t range = rangeFor(typeWord, prefix);
  uint32_t first = function_->registerDeclarators()[range].count;
  function_->setRegisterCount(range, first + count);
  if (DeclarationStatement* declaration = findDeclaration(range))
    for (auto& d : declaration->spec().declarators)
      if (d.name == function_->registerDeclarators()[range].name)
        d.registerCount = first + count;
  reportChange(IRChange::Registers);
  return RegisterRef{range, first};
}

// --- Operands -----------------------------------------------------------------------------------

Operand IRBuilder::symbol(std::string_view name, int64_t offset) {
  return SymbolOperand{module().intern(name), offset, false, false};
}

Operand IRBuilder::special(std::string_view name, VectorComponent component) {
  return SpecialRegisterOperand{module().intern(name), component, false};
}

Operand IRBuilder::address(RegisterRef base, int64_t offset) {
  AddressOperand a;
  a.base = RegisterOperand{base};
  a.offset = offset;
  return a;
}

Operand IRBuilder::address(std::string_view symbolName, int64_t offset) {
  AddressOperand a;
  a.base = SymbolOperand{module().intern(symbolName), 0, false, false};
  a.offset = offset;
  return a;
}

Operand IRBuilder::asAddress(Operand operand) {
  if (operand.is<AddressOperand>())
    return operand;
  AddressOperand a;
  if (auto* reg = operand.getIf<RegisterOperand>())
    a.base = *reg;
  else if (auto* sym = operand.getIf<SymbolOperand>())
    a.base = SymbolOperand{sym->name, 0, false, false}, a.offset = sym->offset;
  else if (auto* imm = operand.getIf<ImmediateOperand>())
    a.base = AddressOperand::Absolute{imm->magnitude};
  else
    return operand; // not an address: the verifier will say so
  return a;
}

std::string_view IRBuilder::pointerType() const {
  return module().addressSize().value_or(64) == 32 ? "u32" : "u64";
}

std::string IRBuilder::spelling(std::string_view opcode,
                                std::initializer_list<std::string_view> words) {
  std::string text(opcode);
  for (std::string_view word : words) {
    if (word.empty())
      continue;
    text += '.';
    text += word;
  }
  return text;
}

// --- Raw instructions ---------------------------------------------------------------------------

Instruction& IRBuilder::insert(std::string_view text, std::vector<Operand> operands,
                               std::optional<Guard> guard) {
  const InstructionForm& form = module().form(text);
  auto instruction = std::make_unique<Instruction>(form, std::move(operands), scopeAtPoint());
  instruction->setGuard(guard);
  Instruction& inserted = block_->insert(index_++, std::move(instruction));
  reportChange(form.isTerminator() ? IRChange::ControlFlow : IRChange::Instructions);
  return inserted;
}

void IRBuilder::erase(BasicBlock& block, size_t index) {
  auto& statements = block.statements();
  if (index >= statements.size())
    return;
  bool controlFlow = true;
  if (const auto* inst = dyn_cast<Instruction>(statements[index].get()))
    controlFlow = inst->form().isTerminator();
  else if (statements[index]->kind() == Statement::Kind::Loc ||
           statements[index]->kind() == Statement::Kind::Pragma)
    controlFlow = false;
  if (const auto* label = dyn_cast<Label>(statements[index].get()))
    if (label->id() < function_->labels().size() &&
        function_->labels()[label->id()].statement == label)
      function_->setLabelStatement(label->id(),
                                   nullptr); // the table must not point at freed memory
  statements.erase(statements.begin() + static_cast<std::ptrdiff_t>(index));
  if (&block == block_ && index_ > index)
    --index_;
  reportChange(controlFlow ? IRChange::ControlFlow : IRChange::Instructions);
}

// --- Common sequences ---------------------------------------------------------------------------

RegisterRef IRBuilder::readSpecial(std::string_view name, VectorComponent component) {
  bool wide = name == "%clock64" || name == "%globaltimer" || name == "%gridid";
  ScalarType type = wide ? ScalarType::U64 : ScalarType::U32;
  return mov(type, special(name, component));
}

RegisterRef IRBuilder::mov(ScalarType type, Operand source) {
  RegisterRef d = createRegister(type);
  insert(spelling("mov", {scalarTypeName(type)}), {reg(d), std::move(source)});
  return d;
}

RegisterRef IRBuilder::binary(std::string_view opcode, ScalarType type, Operand a, Operand b) {
  RegisterRef d = createRegister(type);
  insert(spelling(opcode, {scalarTypeName(type)}), {reg(d), std::move(a), std::move(b)});
  return d;
}

RegisterRef IRBuilder::mul(ScalarType type, Operand a, Operand b) {
  RegisterRef d = createRegister(type);
  insert(spelling("mul", {isIntegerType(type) ? "lo" : "", scalarTypeName(type)}),
         {reg(d), std::move(a), std::move(b)});
  return d;
}

RegisterRef IRBuilder::mad(ScalarType type, Operand a, Operand b, Operand c) {
  RegisterRef d = createRegister(type);
  if (isIntegerType(type))
    insert(spelling("mad", {"lo", scalarTypeName(type)}),
           {reg(d), std::move(a), std::move(b), std::move(c)});
  else
    insert(spelling("fma", {"rn", scalarTypeName(type)}),
           {reg(d), std::move(a), std::move(b), std::move(c)});
  return d;
}

RegisterRef IRBuilder::mulWide(ScalarType type, Operand a, Operand b) {
  bool isSigned = isSignedIntegerType(type);
  RegisterRef d = createRegister(isSigned ? ScalarType::S64 : ScalarType::U64);
  insert(spelling("mul", {"wide", scalarTypeName(type)}), {reg(d), std::move(a), std::move(b)});
  return d;
}

RegisterRef IRBuilder::convert(ScalarType to, ScalarType from, Operand source) {
  std::string_view rounding;
  if (isFloatType(to) && !isFloatType(from))
    rounding = "rn";
  else if (!isFloatType(to) && isFloatType(from))
    rounding = "rzi";
  else if (isFloatType(to) && isFloatType(from) && scalarTypeBits(to) < scalarTypeBits(from))
    rounding = "rn";
  RegisterRef d = createRegister(to);
  insert(spelling("cvt", {rounding, scalarTypeName(to), scalarTypeName(from)}),
         {reg(d), std::move(source)});
  return d;
}

RegisterRef IRBuilder::compare(std::string_view comparison, ScalarType type, Operand a, Operand b) {
  RegisterRef p = createRegister(ScalarType::Pred);
  insert(spelling("setp", {comparison, scalarTypeName(type)}),
         {reg(p), std::move(a), std::move(b)});
  return p;
}

RegisterRef IRBuilder::addressOf(std::string_view symbolName) {
  ScalarType type = pointerType() == "u32" ? ScalarType::U32 : ScalarType::U64;
  return mov(type, symbol(symbolName));
}

RegisterRef IRBuilder::elementAddress(Operand base, Operand index, uint32_t elementBytes) {
  bool narrowAddresses = pointerType() == "u32";
  ScalarType pointer = narrowAddresses ? ScalarType::U32 : ScalarType::U64;
  if (index.is<SpecialRegisterOperand>()) {
    const auto& sreg = index.as<SpecialRegisterOperand>();
    index = reg(readSpecial(sreg.name, sreg.component));
  }
  if (const auto* constant = index.getIf<ImmediateOperand>())
    return add(pointer, std::move(base), imm(constant->integerValue() * elementBytes));
  unsigned indexBits = 32;
  if (const auto* r = index.getIf<RegisterOperand>();
      r && r->reg.declarator < function_->registerDeclarators().size()) {
    const auto& d = function_->declaratorOf(r->reg);
    if (d.type)
      indexBits = scalarTypeBits(*d.type);
  }
  Operand bytes = imm(elementBytes);
  if (narrowAddresses || indexBits == 64)
    return mad(pointer, std::move(index), std::move(bytes), std::move(base));
  RegisterRef offset = mulWide(ScalarType::U32, std::move(index), std::move(bytes));
  return add(ScalarType::U64, std::move(base), reg(offset));
}

RegisterRef IRBuilder::load(StateSpace space, ScalarType type, Operand addressOperand) {
  RegisterRef d = createRegister(type);
  std::string_view spaceName = space == StateSpace::Generic ? "" : stateSpaceName(space);
  insert(spelling("ld", {spaceName, scalarTypeName(type)}),
         {reg(d), asAddress(std::move(addressOperand))});
  return d;
}

void IRBuilder::store(StateSpace space, ScalarType type, Operand addressOperand, Operand value) {
  std::string_view spaceName = space == StateSpace::Generic ? "" : stateSpaceName(space);
  insert(spelling("st", {spaceName, scalarTypeName(type)}),
         {asAddress(std::move(addressOperand)), std::move(value)});
}

RegisterRef IRBuilder::atomic(std::string_view op, StateSpace space, ScalarType type,
                              Operand addressOperand, Operand value) {
  RegisterRef d = createRegister(type);
  std::string_view spaceName = space == StateSpace::Generic ? "" : stateSpaceName(space);
  insert(spelling("atom", {spaceName, op, scalarTypeName(type)}),
         {reg(d), asAddress(std::move(addressOperand)), std::move(value)});
  return d;
}

void IRBuilder::reduce(std::string_view op, StateSpace space, ScalarType type,
                       Operand addressOperand, Operand value) {
  std::string_view spaceName = space == StateSpace::Generic ? "" : stateSpaceName(space);
  insert(spelling("red", {spaceName, op, scalarTypeName(type)}),
         {asAddress(std::move(addressOperand)), std::move(value)});
}

Instruction& IRBuilder::branch(LabelId target, std::optional<Guard> guard) {
  return insert(guard ? "bra" : "bra.uni", {LabelOperand{target}}, guard);
}

// --- Blocks and labels --------------------------------------------------------------------------

BasicBlock& IRBuilder::createBlock(size_t index) {
  index = std::min(index, function_->blocks().size());
  BasicBlock& block = function_->insertBlock(index);
  reportChange(IRChange::ControlFlow);
  return block;
}

Label& IRBuilder::insertLabel(std::string_view hint) {
  // The label table only grows: catch up with labels added since the last call.
  for (; labelsSeen_ < function_->labels().size(); ++labelsSeen_)
    labelNames_.insert(function_->labels()[labelsSeen_].name);
  std::string base = "$L__ocl_" + std::string(hint);
  std::string name;
  for (size_t n = function_->labels().size();; ++n) {
    name = base + std::to_string(n);
    if (!labelNames_.contains(name))
      break;
  }
  std::string_view interned = module().intern(name);
  ScopeId scope = scopeAtPoint();
  LabelId id = function_->addLabel(LabelInfo{interned, scope, nullptr});
  Label& label = block_->insert(index_++, std::make_unique<Label>(id, interned, scope));
  function_->setLabelStatement(id, &label);
  reportChange(IRChange::ControlFlow);
  return label;
}

} // namespace ocelot::ir
