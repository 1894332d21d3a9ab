#include "ir/Emitter.h"

#include "ir/PtxWriter.h"

namespace ocelot::ir {

namespace detail {

void PtxWriter::immediate(const ImmediateOperand& imm) {
  if (imm.negative)
    character('-');
  switch (imm.format) {
  case ImmediateOperand::Format::Decimal:
    unsignedNumber(imm.magnitude);
    break;
  case ImmediateOperand::Format::Hexadecimal:
    text("0x");
    unsignedNumber(imm.magnitude, 16, true);
    break;
  case ImmediateOperand::Format::Octal:
    character('0');
    unsignedNumber(imm.magnitude, 8);
    break;
  case ImmediateOperand::Format::Binary:
    text("0b");
    unsignedNumber(imm.magnitude, 2);
    break;
  case ImmediateOperand::Format::Float32Bits:
    text("0f");
    unsignedNumber(imm.magnitude, 16, true, 8);
    break;
  case ImmediateOperand::Format::Float64Bits:
    text("0d");
    unsignedNumber(imm.magnitude, 16, true, 16);
    break;
  case ImmediateOperand::Format::DecimalFloat:
    text(imm.text);
    break;
  }
  if (imm.unsignedSuffix)
    character('U');
}

void PtxWriter::symbol(const SymbolOperand& sym) {
  if (sym.generic) {
    text("generic(");
    text(sym.name);
    character(')');
  } else {
    text(sym.name);
  }
  if (sym.offset != 0 || sym.explicitOffset) {
    character('+');
    signedNumber(sym.offset);
  }
}

void PtxWriter::registerName(const Function& f, RegisterRef ref) {
  const RegisterDeclarator& d = f.declaratorOf(ref);
  text(d.name);
  if (d.parameterized)
    unsignedNumber(ref.index);
}

void PtxWriter::operand(const Function& f, const Operand& op) {
  op.visit([&](const auto& value) {
    using T = std::decay_t<decltype(value)>;
    if constexpr (std::is_same_v<T, RegisterOperand>) {
      if (value.negated)
        character('!');
      registerName(f, value.reg);
      if (value.component != VectorComponent::None) {
        character('.');
        text(vectorComponentName(value.component));
      }
    } else if constexpr (std::is_same_v<T, SpecialRegisterOperand>) {
      if (value.negated)
        character('!');
      text(value.name);
      if (value.component != VectorComponent::None) {
        character('.');
        text(vectorComponentName(value.component));
      }
    } else if constexpr (std::is_same_v<T, ImmediateOperand>) {
      immediate(value);
    } else if constexpr (std::is_same_v<T, SymbolOperand>) {
      symbol(value);
    } else if constexpr (std::is_same_v<T, LabelOperand>) {
      text(f.labels()[value.label].name);
    } else if constexpr (std::is_same_v<T, SinkOperand>) {
      character('_');
    } else if constexpr (std::is_same_v<T, AddressOperand>) {
      character('[');
      if (const auto* reg = std::get_if<RegisterOperand>(&value.base))
        registerName(f, reg->reg);
      else if (const auto* sym = std::get_if<SymbolOperand>(&value.base))
        symbol(*sym);
      else
        unsignedNumber(std::get<AddressOperand::Absolute>(value.base).value);
      if (value.offset != 0 || value.explicitOffset) {
        character('+');
        signedNumber(value.offset);
      }
      for (const auto& part : value.extra) {
        text(", ");
        operand(f, part);
      }
      character(']');
    } else if constexpr (std::is_same_v<T, VectorOperand>) {
      character('{');
      joined(value.elements, ", ", [&](const Operand& e) { operand(f, e); });
      character('}');
    } else if constexpr (std::is_same_v<T, DualOperand>) {
      joined(value.parts, "|", [&](const Operand& e) { operand(f, e); });
    } else if constexpr (std::is_same_v<T, ArgumentListOperand>) {
      character('(');
      joined(value.arguments, ", ", [&](const Operand& e) { operand(f, e); });
      character(')');
    }
  });
}

void PtxWriter::instruction(const Function& f, const Instruction& inst) {
  if (const auto& guard = inst.guard()) {
    text(guard->negated ? "@!" : "@");
    registerName(f, guard->predicate);
    character(' ');
  }
  text(inst.form().spelling());
  if (!inst.operands().empty()) {
    if (options_.preserveLines && inst.line() != 0)
      for (uint16_t i = 0; i < inst.operandLineOffset(); ++i)
        newline();
    text(" \t");
    joined(inst.operands(), ", ", [&](const Operand& op) { operand(f, op); });
  }
  character(';');
}

void PtxWriter::statement(const Function& f, const Statement& s) {
  startLine(s.line());
  wrote(&s, s.line());
  unsigned depth = f.scopeDepth(s.scope());
  switch (s.kind()) {
  case Statement::Kind::Instruction:
    indent(depth);
    instruction(f, *cast<Instruction>(&s));
    break;
  case Statement::Kind::Label:
    text(cast<Label>(&s)->name());
    character(':');
    break;
  case Statement::Kind::Declaration:
    indent(depth);
    declaration(cast<DeclarationStatement>(&s)->spec());
    character(';');
    break;
  case Statement::Kind::Loc: {
    const auto* loc = cast<LocDirective>(&s);
    indent(depth);
    text(".loc\t");
    unsignedNumber(loc->location().file);
    character(' ');
    unsignedNumber(loc->location().line);
    character(' ');
    unsignedNumber(loc->location().column);
    if (const auto& inlined = loc->inlinedAt()) {
      text(", function_name ");
      text(inlined->functionName);
      text(", inlined_at ");
      unsignedNumber(inlined->location.file);
      character(' ');
      unsignedNumber(inlined->location.line);
      character(' ');
      unsignedNumber(inlined->location.column);
    }
    break;
  }
  case Statement::Kind::Pragma:
    indent(depth);
    text(".pragma ");
    joined(cast<PragmaDirective>(&s)->strings(), ", ", [&](std::string_view str) {
      character('"');
      text(str);
      character('"');
    });
    character(';');
    break;
  case Statement::Kind::ScopeBegin:
    indent(depth - 1);
    character('{');
    break;
  case Statement::Kind::ScopeEnd:
    indent(depth - 1);
    character('}');
    break;
  case Statement::Kind::CallPrototype: {
    const auto* proto = cast<CallPrototype>(&s);
    text(proto->name());
    text(" : .callprototype ");
    if (proto->signature().hasReturnList) {
      parameterList(proto->signature().returns, false);
      character(' ');
    }
    character('_');
    if (proto->signature().hasParameterList) {
      character(' ');
      parameterList(proto->signature().parameters, false);
    }
    directives(proto->directives(), false);
    character(';');
    break;
  }
  case Statement::Kind::BranchTargets: {
    const auto* targets = cast<BranchTargets>(&s);
    text(targets->name());
    text(": .branchtargets ");
    joined(targets->targets(), ", ", [&](const Operand& op) { operand(f, op); });
    character(';');
    break;
  }
  case Statement::Kind::CallTargets: {
    const auto* targets = cast<CallTargets>(&s);
    text(targets->name());
    text(": .calltargets ");
    joined(targets->functions(), ", ", [&](std::string_view name) { text(name); });
    character(';');
    break;
  }
  }
}

void PtxWriter::function(const Function& f) {
  startLine(f.line());
  wrote(&f, f.line());
  for (std::string_view word : f.prefixWords()) {
    text(word);
    character(' ');
  }
  text(f.isEntry() ? ".entry " : ".func ");
  const auto& sig = f.signature();
  if (sig.hasReturnList) {
    parameterList(sig.returns, false);
    character(' ');
  }
  text(f.name());
  // nvcc's layout: one parameter per line, `)` and each directive on lines of their own.
  size_t needed = (sig.parameters.empty() ? 0 : sig.parameters.size() + 1) + f.directives().size();
  bool multiline = fitsLines(f.line(), f.bodyLine(), needed + 1);
  if (sig.hasParameterList)
    parameterList(sig.parameters, multiline && !sig.parameters.empty());
  directives(f.directives(), multiline);
  if (!f.hasBody()) {
    if (multiline)
      startLine(f.bodyLine());
    if (written_ != nullptr && line_ != f.bodyLine())
      written_->bodyLines.emplace(&f, line_);
    character(';');
    return;
  }
  startLine(f.bodyLine());
  if (written_ != nullptr && line_ != f.bodyLine())
    written_->bodyLines.emplace(&f, line_);
  character('{');
  for (const auto& block : f.blocks())
    for (const auto& s : block->statements())
      statement(f, *s);
  startLine(f.bodyEndLine());
  if (written_ != nullptr && line_ != f.bodyEndLine())
    written_->bodyEndLines.emplace(&f, line_);
  character('}');
}

} // namespace detail

using detail::PtxWriter;

namespace {

/// More than the module's text will take (a statement rarely takes 64 bytes): reserved up front,
/// the output string never moves while it grows, and what it does not use is never touched.
size_t estimatedSize(const Module& module) {
  size_t estimate = 4096;
  for (const auto& item : module.items()) {
    estimate += 256;
    if (const auto* f = dyn_cast<Function>(item.get()))
      for (const auto& block : f->blocks())
        estimate += 64 * block->statements().size() + 64;
    else if (const auto* section = dyn_cast<DebugSection>(item.get()))
      estimate += 16 * section->items().size();
    else if (const auto* global = dyn_cast<GlobalVariable>(item.get()))
      estimate += global->line() == 0 ? 4096 : 1 << 16; // initializers are not counted
  }
  return estimate;
}

} // namespace

void emitPtx(const Module& module, std::string& out, const EmitOptions& options) {
  out.reserve(out.size() + estimatedSize(module));
  PtxWriter writer(out, options); // out holds only the text once the writer is gone
  writer.module(module);
}

std::string emitPtx(const Module& module, const EmitOptions& options) {
  std::string out;
  emitPtx(module, out, options);
  return out;
}

std::string emitPtxNumberingLines(Module& module) {
  std::string out;
  out.reserve(estimatedSize(module));
  const EmitOptions options;
  PtxWriter::WrittenLines written;
  {
    PtxWriter writer(out, options);
    writer.recordLines(&written);
    writer.module(module);
  }
  if (written.lines.empty() && written.bodyLines.empty() && written.bodyEndLines.empty())
    return out; // everything is on its line already
  auto lineOf = [&](const void* thing, uint32_t line) {
    auto it = written.lines.find(thing);
    return it == written.lines.end() ? line : it->second;
  };
  for (const auto& item : module.items()) {
    item->setLine(lineOf(item.get(), item->line()));
    auto* f = dyn_cast<Function>(item.get());
    if (f == nullptr)
      continue;
    if (auto it = written.bodyLines.find(f); it != written.bodyLines.end())
      f->setBodyLine(it->second);
    if (auto it = written.bodyEndLines.find(f); it != written.bodyEndLines.end())
      f->setBodyEndLine(it->second);
    for (auto& block : f->blocks())
      for (auto& statement : block->statements())
        statement->setLine(lineOf(statement.get(), statement->line()));
  }
  return out;
}

struct StreamingEmitter::State {
  State(const Module& emitted, std::function<void(std::string_view)> pieces,
        const EmitOptions& emitOptions)
      : module(emitted), sink(std::move(pieces)), options(emitOptions), writer(buffer, options) {}
  void drain() {
    writer.drain([&](std::string_view text) {
      if (!text.empty())
        sink(text);
    });
  }
  const Module& module;
  std::function<void(std::string_view)> sink;
  EmitOptions options; ///< the writer keeps a reference
  std::string buffer;
  PtxWriter writer;
  size_t written = 0; ///< items written
  const ModuleItem* last = nullptr;
};

StreamingEmitter::StreamingEmitter(const Module& module, std::function<void(std::string_view)> sink,
                                   const EmitOptions& options)
    : state_(std::make_unique<State>(module, std::move(sink), options)) {
  state_->writer.header(module);
}

StreamingEmitter::~StreamingEmitter() = default;

bool StreamingEmitter::writeThrough(const ModuleItem& item) {
  State& s = *state_;
  const auto& items = s.module.items();
  // Items inserted before those already written would be lost: refuse.
  if (s.written > 0 && (s.written > items.size() || items[s.written - 1].get() != s.last))
    return false;
  size_t end = s.written;
  while (end < items.size() && items[end].get() != &item)
    ++end;
  if (end == items.size())
    return false;
  for (; s.written <= end; ++s.written)
    s.writer.item(*items[s.written]);
  s.last = &item;
  s.drain();
  return true;
}

void StreamingEmitter::finish() {
  State& s = *state_;
  const auto& items = s.module.items();
  for (; s.written < items.size(); ++s.written)
    s.writer.item(*items[s.written]);
  s.writer.end();
  s.drain();
}

std::string operandToString(const Function& function, const Operand& operand) {
  std::string out;
  EmitOptions options{false};
  {
    PtxWriter writer(out, options);
    writer.operand(function, operand);
  }
  return out;
}

std::string instructionToString(const Function& function, const Instruction& instruction) {
  std::string out;
  EmitOptions options{false};
  {
    PtxWriter writer(out, options);
    writer.instruction(function, instruction);
  }
  return out;
}

} // namespace ocelot::ir
