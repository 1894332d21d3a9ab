#include "ir/Verifier.h"

#include "ir/Casting.h"
#include "ir/Emitter.h"
#include "ir/RegisterAccess.h"

#include <algorithm>
#include <map>
#include <unordered_map>
#include <unordered_set>

namespace ocelot::ir {

std::string VerifierDiagnostic::format() const {
  std::string text = severity == Severity::Error ? "error: " : "warning: ";
  bool hasPlace = false;
  if (!function.empty()) {
    text += "function '" + function + "'";
    hasPlace = true;
  }
  if (block != kNoIndex) {
    text += (hasPlace ? ", block " : "block ") + std::to_string(block);
    hasPlace = true;
  }
  if (statement != kNoIndex)
    text += ", statement " + std::to_string(statement);
  if (line != 0)
    text += " (line " + std::to_string(line) + ")";
  if (hasPlace)
    text += ": ";
  return text + message;
}

bool hasErrors(const std::vector<VerifierDiagnostic>& diagnostics) {
  return std::any_of(diagnostics.begin(), diagnostics.end(), [](const auto& d) {
    return d.severity == VerifierDiagnostic::Severity::Error;
  });
}

namespace {

using Severity = VerifierDiagnostic::Severity;

class FunctionVerifier {
public:
  FunctionVerifier(const Function& function, std::vector<VerifierDiagnostic>& out)
      : f_(function), out_(out) {}

  void run();

private:
  void report(Severity severity, std::string message) {
    VerifierDiagnostic d;
    d.severity = severity;
    d.function = std::string(f_.name());
    d.block = block_;
    d.statement = statement_;
    d.line = line_;
    d.message = std::move(message);
    out_.push_back(std::move(d));
  }
  void error(std::string message) { report(Severity::Error, std::move(message)); }

  bool validScope(ScopeId scope) const { return scope < f_.scopes().size(); }
  /// True when `inner` is `outer` or nested in it (false for invalid scopes).
  bool within(ScopeId inner, ScopeId outer) const;
  bool validRegister(RegisterRef ref) const;
  std::optional<unsigned> registerBits(RegisterRef ref) const;

  void checkTables();
  void checkStatement(const Statement& s, bool& seenInstruction, bool isLastInstruction);
  void checkInstruction(const Instruction& inst, bool isLastInstruction);
  bool checkRegisters(const Instruction& inst);
  void checkTypes(const Instruction& inst);
  void checkLabelOperand(const Operand& operand, ScopeId from, std::string_view what);
  void checkRegisterWidth(const Operand& operand, unsigned bits, bool predicate,
                          std::string_view role, const Instruction& inst);

  const Function& f_;
  std::vector<VerifierDiagnostic>& out_;
  size_t block_ = VerifierDiagnostic::kNoIndex;
  size_t statement_ = VerifierDiagnostic::kNoIndex;
  uint32_t line_ = 0;
  std::vector<bool> scopeTreeOk_;
  std::vector<uint32_t> labelDefinitions_;
  std::vector<bool> declared_; ///< per declarator: a `.reg` statement or the signature declares it
  std::unordered_map<std::string_view, std::vector<ScopeId>> branchTables_;
  std::unordered_set<std::string_view> prototypes_;
};

bool FunctionVerifier::within(ScopeId inner, ScopeId outer) const {
  if (!validScope(inner) || !validScope(outer) || !scopeTreeOk_[inner])
    return false;
  for (size_t steps = 0; steps <= f_.scopes().size(); ++steps) {
    if (inner == outer)
      return true;
    if (inner == 0)
      return false;
    inner = f_.scopes()[inner].parent;
  }
  return false;
}

bool FunctionVerifier::validRegister(RegisterRef ref) const {
  if (ref.declarator >= f_.registerDeclarators().size())
    return false;
  const auto& d = f_.registerDeclarators()[ref.declarator];
  return d.parameterized ? ref.index < d.count : ref.index == 0;
}

std::optional<unsigned> FunctionVerifier::registerBits(RegisterRef ref) const {
  if (!validRegister(ref))
    return std::nullopt;
  const auto& d = f_.registerDeclarators()[ref.declarator];
  if (!d.type || d.vectorWidth != 1)
    return std::nullopt;
  return scalarTypeBits(*d.type);
}

void FunctionVerifier::checkTables() {
  const auto& scopes = f_.scopes();
  scopeTreeOk_.assign(scopes.size(), false);
  if (!scopes.empty())
    scopeTreeOk_[0] = true;
  for (ScopeId s = 1; s < scopes.size(); ++s) {
    // Parents are created before their children; a later or self parent is a cycle.
    if (scopes[s].parent >= s)
      error("scope " + std::to_string(s) + " has parent " + std::to_string(scopes[s].parent) +
            ", which does not enclose it");
    else
      scopeTreeOk_[s] = scopeTreeOk_[scopes[s].parent];
  }

  const auto& declarators = f_.registerDeclarators();
  declared_.assign(declarators.size(), false);
  std::map<std::pair<std::string_view, ScopeId>, uint32_t> names;
  for (uint32_t id = 0; id < declarators.size(); ++id) {
    const auto& d = declarators[id];
    if (!validScope(d.scope))
      error("register " + std::string(d.name) + " is declared in scope " + std::to_string(d.scope) +
            ", which does not exist");
    auto [it, inserted] = names.emplace(std::make_pair(d.name, d.scope), id);
    if (!inserted && declarators[it->second].parameterized == d.parameterized)
      error("register " + std::string(d.name) + (d.parameterized ? "<N>" : "") +
            " is declared twice in one scope");
  }
  // `.reg` parameters of a `.func` are declared by the signature, not by a statement.
  for (const auto* list : {&f_.signature().returns, &f_.signature().parameters})
    for (const auto& spec : *list)
      if (spec.stateSpace() == StateSpace::Reg)
        for (const auto& d : spec.declarators)
          for (uint32_t id = 0; id < declarators.size(); ++id)
            if (declarators[id].scope == 0 && declarators[id].name == d.name)
              declared_[id] = true;

  std::map<std::pair<std::string_view, ScopeId>, LabelId> labels;
  for (LabelId id = 0; id < f_.labels().size(); ++id) {
    const auto& info = f_.labels()[id];
    if (!validScope(info.scope))
      error("label " + std::string(info.name) + " is in scope " + std::to_string(info.scope) +
            ", which does not exist");
    auto [it, inserted] = labels.emplace(std::make_pair(info.name, info.scope), id);
    if (!inserted)
      error("label " + std::string(info.name) + " is defined twice in scope " +
            std::to_string(info.scope));
  }
  labelDefinitions_.assign(f_.labels().size(), 0);

  // Tables that instructions refer to by name.
  for (const auto& block : f_.blocks()) {
    if (!block)
      continue;
    for (const auto& s : block->statements()) {
      if (!s)
        continue;
      if (const auto* targets = dyn_cast<BranchTargets>(s.get()))
        branchTables_[targets->name()].push_back(targets->scope());
      else if (const auto* proto = dyn_cast<CallPrototype>(s.get()))
        prototypes_.insert(proto->name());
      else if (const auto* decl = dyn_cast<DeclarationStatement>(s.get()))
        for (uint32_t id : decl->registerDeclarators())
          if (id < declared_.size())
            declared_[id] = true;
    }
  }
}

void FunctionVerifier::run() {
  checkTables();
  std::vector<ScopeId> open{0};
  const auto& blocks = f_.blocks();
  bool lastFallsThrough = true;
  for (size_t b = 0; b < blocks.size(); ++b) {
    block_ = b;
    statement_ = VerifierDiagnostic::kNoIndex;
    line_ = 0;
    if (!blocks[b]) {
      error("block is null");
      continue;
    }
    if (&blocks[b]->parent() != &f_)
      error("block belongs to another function");
    const auto& statements = blocks[b]->statements();
    if (statements.empty())
      report(Severity::Warning, "block is empty");
    size_t lastInstruction = statements.size();
    for (size_t i = statements.size(); i-- > 0;)
      if (statements[i] && statements[i]->kind() == Statement::Kind::Instruction) {
        lastInstruction = i;
        break;
      }
    bool seenInstruction = false;
    for (size_t i = 0; i < statements.size(); ++i) {
      statement_ = i;
      const Statement* s = statements[i].get();
      if (s == nullptr) {
        line_ = 0;
        error("statement is null");
        continue;
      }
      line_ = s->line();
      if (!validScope(s->scope())) {
        error("statement is in scope " + std::to_string(s->scope()) + ", which does not exist");
        continue;
      }
      if (s->kind() == Statement::Kind::ScopeBegin) {
        if (f_.scopes()[s->scope()].parent != open.back() || s->scope() == 0)
          error("'{' opens scope " + std::to_string(s->scope()) + " inside scope " +
                std::to_string(open.back()) + ", which is not its parent");
        open.push_back(s->scope());
      } else if (s->kind() == Statement::Kind::ScopeEnd) {
        if (open.size() <= 1 || open.back() != s->scope())
          error("'}' closes scope " + std::to_string(s->scope()) + ", which is not open");
        else
          open.pop_back();
      } else if (s->scope() != open.back()) {
        error("statement claims scope " + std::to_string(s->scope()) + " but is written in scope " +
              std::to_string(open.back()));
      }
      checkStatement(*s, seenInstruction, i == lastInstruction);
    }
    if (lastInstruction < statements.size()) {
      const auto* last = cast<Instruction>(statements[lastInstruction].get());
      lastFallsThrough = !(last->form().isTerminator() && !last->guard());
    } else if (blocks[b]->label() != nullptr) {
      lastFallsThrough = true; // a branch may enter it, and nothing ends it
    }
  }
  block_ = blocks.empty() ? VerifierDiagnostic::kNoIndex : blocks.size() - 1;
  statement_ = VerifierDiagnostic::kNoIndex;
  line_ = 0;
  if (open.size() > 1)
    error("scope " + std::to_string(open.back()) + " is never closed with '}'");
  if (lastFallsThrough)
    report(Severity::Warning, "the last block has no terminator: control falls off the end of the "
                              "function (end it with ret, exit or bra)");
  block_ = VerifierDiagnostic::kNoIndex;
  for (LabelId id = 0; id < labelDefinitions_.size(); ++id)
    if (labelDefinitions_[id] != 1)
      error("label " + std::string(f_.labels()[id].name) + " is defined " +
            std::to_string(labelDefinitions_[id]) + " times in the body (expected once)");
}

void FunctionVerifier::checkStatement(const Statement& s, bool& seenInstruction,
                                      bool isLastInstruction) {
  switch (s.kind()) {
  case Statement::Kind::Label: {
    const auto& label = *cast<Label>(&s);
    if (label.id() >= f_.labels().size()) {
      error("label " + std::string(label.name()) + " has no entry in the label table");
      return;
    }
    ++labelDefinitions_[label.id()];
    const auto& info = f_.labels()[label.id()];
    if (info.statement != &label)
      error("the label table does not point at this definition of " + std::string(label.name()));
    if (info.name != label.name() || info.scope != label.scope())
      error("label " + std::string(label.name()) + " disagrees with its table entry");
    if (seenInstruction)
      error("label " + std::string(label.name()) +
            " follows instructions of its block: a branch to it would enter the block in the "
            "middle (start a new block at every label)");
    return;
  }
  case Statement::Kind::Instruction:
    seenInstruction = true;
    checkInstruction(*cast<Instruction>(&s), isLastInstruction);
    return;
  case Statement::Kind::Declaration: {
    for (uint32_t id : cast<DeclarationStatement>(&s)->registerDeclarators())
      if (id >= f_.registerDeclarators().size())
        error("declaration refers to register table entry " + std::to_string(id) +
              ", which does not exist");
    return;
  }
  case Statement::Kind::BranchTargets: {
    for (const auto& target : cast<BranchTargets>(&s)->targets())
      checkLabelOperand(target, s.scope(), ".branchtargets entry");
    return;
  }
  default:
    return;
  }
}

void FunctionVerifier::checkLabelOperand(const Operand& operand, ScopeId from,
                                         std::string_view what) {
  if (const auto* symbol = operand.getIf<SymbolOperand>()) {
    error(std::string(what) + " '" + std::string(symbol->name) +
          "' is not a label of this function (dangling label)");
    return;
  }
  const auto* label = operand.getIf<LabelOperand>();
  if (label == nullptr) {
    error(std::string(what) + " must be a label");
    return;
  }
  if (label->label >= f_.labels().size()) {
    error(std::string(what) + " refers to label #" + std::to_string(label->label) +
          ", which does not exist (dangling label)");
    return;
  }
  const auto& info = f_.labels()[label->label];
  if (info.statement == nullptr)
    error(std::string(what) + " " + std::string(info.name) +
          " is never defined in the body (dangling label)");
  else if (!within(from, info.scope))
    error(std::string(what) + " " + std::string(info.name) +
          " is defined in a scope that is not visible from here");
}

bool FunctionVerifier::checkRegisters(const Instruction& inst) {
  bool ok = true;
  forEachRegisterAccess(inst, [&](const RegisterRef& ref, const RegisterAccess&) {
    if (!validRegister(ref)) {
      ok = false;
      if (ref.declarator >= f_.registerDeclarators().size()) {
        error("register #" + std::to_string(ref.declarator) +
              " is not declared (no entry in "
              "the register table)");
      } else {
        const auto& d = f_.registerDeclarators()[ref.declarator];
        error("register " + f_.registerName(ref) + " is not declared: " + std::string(d.name) +
              (d.parameterized ? "<" + std::to_string(d.count) + "> declares only " +
                                     std::to_string(d.count) + " registers"
                               : " is not a range"));
      }
      return;
    }
    const auto& d = f_.registerDeclarators()[ref.declarator];
    if (!declared_[ref.declarator])
      error("register " + f_.registerName(ref) + " has no .reg declaration in the body");
    if (!within(inst.scope(), d.scope))
      error("register " + f_.registerName(ref) + " is declared in scope " +
            std::to_string(d.scope) + ", which is not visible from here");
  });
  return ok;
}

/// Whether every label an operand names has a table entry (the emitter looks names up there).
bool labelsExist(const Function& f, const Operand& operand) {
  if (const auto* label = operand.getIf<LabelOperand>())
    return label->label < f.labels().size();
  const std::vector<Operand>* parts = nullptr;
  if (const auto* vector = operand.getIf<VectorOperand>())
    parts = &vector->elements;
  else if (const auto* dual = operand.getIf<DualOperand>())
    parts = &dual->parts;
  else if (const auto* list = operand.getIf<ArgumentListOperand>())
    parts = &list->arguments;
  else if (const auto* address = operand.getIf<AddressOperand>())
    parts = &address->extra;
  if (parts != nullptr)
    for (const auto& part : *parts)
      if (!labelsExist(f, part))
        return false;
  return true;
}

void FunctionVerifier::checkInstruction(const Instruction& inst, bool isLastInstruction) {
  bool registersOk = checkRegisters(inst);
  const InstructionForm& form = inst.form();
  // Quote the instruction only when it can be printed without reading past a table.
  bool printable =
      registersOk && std::all_of(inst.operands().begin(), inst.operands().end(),
                                 [&](const Operand& op) { return labelsExist(f_, op); });
  std::string text = printable ? "`" + instructionToString(f_, inst) + "`: " : "";

  if (form.isTerminator() && !isLastInstruction)
    error(text + "terminator is not the last instruction of its block");

  if (const auto& guard = inst.guard(); guard && registersOk) {
    const auto& d = f_.registerDeclarators()[guard->predicate.declarator];
    if (d.type && *d.type != ScalarType::Pred)
      error(text + "guard " + f_.registerName(guard->predicate) + " is not a .pred register");
  }

  // The operands that name labels, tables and functions (what the table's rule says they are).
  const auto& operands = inst.operands();
  switch (form.traits().operands.shape) {
  case OperandShape::Label:
    if (operands.size() != 1)
      error(text + std::string(form.opcodeName()) + " takes exactly one label");
    else
      checkLabelOperand(operands[0], inst.scope(), "branch target");
    break;
  case OperandShape::BranchTable: {
    const SymbolOperand* table =
        operands.size() == 2 ? operands[1].getIf<SymbolOperand>() : nullptr;
    if (table == nullptr) {
      error(text + "brx.idx takes an index and the name of a .branchtargets table");
    } else {
      auto it = branchTables_.find(table->name);
      bool visible = it != branchTables_.end() &&
                     std::any_of(it->second.begin(), it->second.end(),
                                 [&](ScopeId scope) { return within(inst.scope(), scope); });
      if (!visible)
        error(text + "no .branchtargets table '" + std::string(table->name) + "' is visible here");
    }
    break;
  }
  case OperandShape::Call: {
    // call [(ret)], target, [(args)], [prototype]
    size_t targetIndex = !operands.empty() && operands[0].is<ArgumentListOperand>() ? 1 : 0;
    if (targetIndex >= operands.size()) {
      error(text + "call has no target");
    } else if (const auto* target = operands[targetIndex].getIf<SymbolOperand>()) {
      if (f_.module().findFunction(target->name) == nullptr)
        error(text + "call target '" + std::string(target->name) +
              "' is not a function of the module");
    } else if (operands[targetIndex].is<RegisterOperand>()) {
      const auto* proto = operands.back().getIf<SymbolOperand>();
      if (proto == nullptr || !prototypes_.contains(proto->name))
        report(Severity::Warning, text + "indirect call without a visible .callprototype");
    }
    break;
  }
  default:
    break;
  }
  if (printable)
    checkTypes(inst);
}

void FunctionVerifier::checkRegisterWidth(const Operand& operand, unsigned bits, bool predicate,
                                          std::string_view role, const Instruction& inst) {
  const auto* reg = operand.getIf<RegisterOperand>();
  if (reg == nullptr || reg->component != VectorComponent::None)
    return;
  auto actual = registerBits(reg->reg);
  if (!actual)
    return;
  const auto& d = f_.registerDeclarators()[reg->reg.declarator];
  bool isPredicate = d.type == ScalarType::Pred;
  if (predicate != isPredicate || (!predicate && *actual != bits))
    error("`" + instructionToString(f_, inst) + "`: " + std::string(role) + " " +
          f_.registerName(reg->reg) + " is " + std::string(d.typeWord) + ", but " +
          std::string(inst.form().spelling()) + " needs " +
          (predicate ? std::string(".pred") : std::to_string(bits) + "-bit") + " here");
}

void FunctionVerifier::checkTypes(const Instruction& inst) {
  const InstructionForm& form = inst.form();
  const auto& operands = inst.operands();
  auto type = form.lastType();

  // Address registers hold 32- or 64-bit addresses.
  for (const auto& operand : operands)
    if (const auto* address = operand.getIf<AddressOperand>())
      if (const auto* base = std::get_if<RegisterOperand>(&address->base))
        if (auto bits = registerBits(base->reg); bits && *bits != 32 && *bits != 64)
          error("`" + instructionToString(f_, inst) + "`: address register " +
                f_.registerName(base->reg) + " is " + std::to_string(*bits) +
                "-bit; addresses are 32 or 64 bits");

  // The operand count and types, as the instruction table's rule for this form says.
  const OperandRule rule = form.traits().operands;
  if (rule.countChecked() &&
      (operands.size() < rule.minOperands || operands.size() > rule.maxOperands)) {
    std::string expected =
        rule.minOperands == rule.maxOperands
            ? std::to_string(rule.minOperands) + " operands, not " + std::to_string(operands.size())
            : std::to_string(rule.minOperands) + " or " + std::to_string(rule.maxOperands) +
                  " operands";
    error("`" + instructionToString(f_, inst) + "`: " + std::string(form.opcodeName()) + " takes " +
          expected);
    return;
  }
  switch (rule.shape) {
  case OperandShape::Comparison:
    if (const auto* dual = operands[0].getIf<DualOperand>()) {
      for (const auto& part : dual->parts)
        checkRegisterWidth(part, 1, true, "destination", inst);
    } else {
      checkRegisterWidth(operands[0], 1, true, "destination", inst);
    }
    if (type && *type != ScalarType::Pred) {
      checkRegisterWidth(operands[1], scalarTypeBits(*type), false, "source", inst);
      checkRegisterWidth(operands[2], scalarTypeBits(*type), false, "source", inst);
    }
    if (operands.size() == 4)
      checkRegisterWidth(operands[3], 1, true, "source", inst);
    return;
  case OperandShape::Conversion: {
    if (operands.size() != 2)
      return;
    // ld, st and cvt accept registers wider than their types.
    auto to = form.firstType();
    for (size_t i = 0; i < 2; ++i) {
      auto t = i == 0 ? to : type;
      const auto* reg = operands[i].getIf<RegisterOperand>();
      if (!t || reg == nullptr || reg->component != VectorComponent::None)
        continue;
      auto bits = registerBits(reg->reg);
      const auto& d = f_.registerDeclarators()[reg->reg.declarator];
      bool isPredicate = d.type == ScalarType::Pred;
      if (bits && (isPredicate || *bits < scalarTypeBits(*t)))
        error("`" + instructionToString(f_, inst) + "`: " + (i == 0 ? "destination " : "source ") +
              f_.registerName(reg->reg) + " is " + std::string(d.typeWord) + ", too narrow for ." +
              std::string(scalarTypeName(*t)));
    }
    return;
  }
  case OperandShape::Uniform:
  case OperandShape::Selection: {
    if (!type)
      return;
    bool predicate = *type == ScalarType::Pred;
    unsigned bits = scalarTypeBits(*type);
    for (size_t i = 0; i < operands.size(); ++i) {
      bool selector = rule.shape == OperandShape::Selection && i + 1 == operands.size();
      checkRegisterWidth(operands[i], selector ? 1 : bits, selector || predicate,
                         i == 0 ? "destination" : "source", inst);
    }
    return;
  }
  default:
    return;
  }
}

} // namespace

std::vector<VerifierDiagnostic> verifyFunction(const Function& function) {
  std::vector<VerifierDiagnostic> diagnostics;
  if (!function.hasBody())
    return diagnostics;
  FunctionVerifier(function, diagnostics).run();
  return diagnostics;
}

std::vector<VerifierDiagnostic> verifyModule(const Module& module) {
  std::vector<VerifierDiagnostic> diagnostics;
  std::unordered_map<std::string_view, const Function*> definitions;
  for (const Function* f : module.functions()) {
    if (f == nullptr || !f->hasBody())
      continue;
    if (!definitions.emplace(f->name(), f).second) {
      VerifierDiagnostic d;
      d.function = std::string(f->name());
      d.line = f->line();
      d.message = "function is defined twice in the module";
      diagnostics.push_back(std::move(d));
    }
    auto more = verifyFunction(*f);
    diagnostics.insert(diagnostics.end(), std::make_move_iterator(more.begin()),
                       std::make_move_iterator(more.end()));
  }
  return diagnostics;
}

} // namespace ocelot::ir
