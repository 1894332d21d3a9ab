#include "ir/Emitter.h"

#include "ir/Casting.h"

#include <charconv>

namespace ocelot::ir {

namespace {

class PtxWriter {
public:
  PtxWriter(std::string& out, const EmitOptions& options) : out_(out), options_(options) {}

  void module(const Module& m);
  void function(const Function& f);
  void statement(const Function& f, const Statement& s);
  void instruction(const Function& f, const Instruction& inst);
  void operand(const Function& f, const Operand& op);

private:
  // --- Layout -------------------------------------------------------------------------------
  /// Starts the text of something that was on `line` of the source.
  void startLine(uint32_t line) {
    uint32_t previous = lastSourceLine_;
    lastSourceLine_ = line;
    if (options_.preserveLines && line != 0 && line == previous && line == line_ && !atLineStart_) {
      character(' '); // several statements shared this source line: keep them together
      return;
    }
    if (!atLineStart_)
      newline();
    if (options_.preserveLines)
      while (line_ < line)
        newline();
  }
  /// True when a construct that takes `needed` lines starting at source line `from` fits before
  /// source line `until` (or when lines are not preserved): nvcc's multi-line layout is used when
  /// it does not push later statements off their lines.
  bool fitsLines(uint32_t from, uint32_t until, size_t needed) const {
    if (!options_.preserveLines || from == 0 || until == 0)
      return true;
    return until > from && until - from >= needed;
  }
  void newline() {
    out_ += '\n';
    ++line_;
    atLineStart_ = true;
  }
  void text(std::string_view s) {
    out_ += s;
    atLineStart_ = false;
  }
  void character(char c) {
    out_ += c;
    atLineStart_ = false;
  }
  void unsignedNumber(uint64_t value, int base = 10, bool upper = false, int width = 0);
  void signedNumber(int64_t value) {
    if (value < 0) {
      character('-');
      unsignedNumber(static_cast<uint64_t>(0) - static_cast<uint64_t>(value));
    } else {
      unsignedNumber(static_cast<uint64_t>(value));
    }
  }
  void indent(unsigned depth) {
    for (unsigned i = 0; i <= depth; ++i)
      character('\t');
  }

  // --- Pieces -------------------------------------------------------------------------------
  void declarationWords(const std::vector<DeclarationWord>& words);
  void declaration(const DeclarationSpec& spec);
  void initializer(const Initializer& init);
  void immediate(const ImmediateOperand& imm);
  void symbol(const SymbolOperand& sym);
  void registerName(const Function& f, RegisterRef ref);
  void parameterList(const std::vector<DeclarationSpec>& params, bool multiline);
  void directives(const std::vector<FunctionDirective>& list, bool ownLines);
  template <class T, class Fn>
  void joined(const std::vector<T>& items, std::string_view sep, Fn&& fn) {
    for (size_t i = 0; i < items.size(); ++i) {
      if (i > 0)
        text(sep);
      fn(items[i]);
    }
  }

  std::string& out_;
  const EmitOptions& options_;
  uint32_t line_ = 1;
  bool atLineStart_ = true;
  uint32_t lastSourceLine_ = 0; ///< source line of the last statement started
};

void PtxWriter::unsignedNumber(uint64_t value, int base, bool upper, int width) {
  char buffer[72];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value, base);
  (void)ec;
  size_t length = static_cast<size_t>(end - buffer);
  for (size_t i = length; i < static_cast<size_t>(width); ++i)
    character('0');
  if (upper)
    for (char* c = buffer; c != end; ++c)
      if (*c >= 'a' && *c <= 'f')
        *c = static_cast<char>(*c - 'a' + 'A');
  text(std::string_view(buffer, length));
}

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
  std::visit(
      [&](const auto& value) {
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
      },
      op.value());
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

void PtxWriter::declarationWords(const std::vector<DeclarationWord>& words) {
  for (size_t i = 0; i < words.size(); ++i) {
    if (i > 0)
      character(' ');
    text(words[i].word);
    if (words[i].value) {
      character(' ');
      unsignedNumber(*words[i].value);
    }
    if (!words[i].arguments.empty()) {
      character('(');
      joined(words[i].arguments, ", ", [&](std::string_view a) { text(a); });
      character(')');
    }
  }
}

void PtxWriter::initializer(const Initializer& init) {
  switch (init.kind()) {
  case Initializer::Kind::Value:
    if (const auto* imm = init.scalar().getIf<ImmediateOperand>())
      immediate(*imm);
    else if (const auto* sym = init.scalar().getIf<SymbolOperand>())
      symbol(*sym);
    break;
  case Initializer::Kind::List:
    character('{');
    joined(init.elements(), ", ", [&](const Initializer& e) { initializer(e); });
    character('}');
    break;
  case Initializer::Kind::IntegerList:
    character('{');
    joined(init.integerValues(), ", ", [&](int64_t v) { signedNumber(v); });
    character('}');
    break;
  }
}

void PtxWriter::declaration(const DeclarationSpec& spec) {
  declarationWords(spec.words);
  if (!spec.words.empty())
    character(' ');
  joined(spec.declarators, ", ", [&](const Declarator& d) {
    text(d.name);
    if (d.parameterized) {
      character('<');
      unsignedNumber(d.registerCount);
      character('>');
    }
    for (const auto& dim : d.dimensions) {
      character('[');
      if (dim)
        unsignedNumber(*dim);
      character(']');
    }
    if (d.initializer) {
      text(" = ");
      initializer(*d.initializer);
    }
  });
}

void PtxWriter::parameterList(const std::vector<DeclarationSpec>& params, bool multiline) {
  if (!multiline) {
    character('(');
    joined(params, ", ", [&](const DeclarationSpec& p) { declaration(p); });
    character(')');
    return;
  }
  character('(');
  for (size_t i = 0; i < params.size(); ++i) {
    newline();
    character('\t');
    declaration(params[i]);
    if (i + 1 < params.size())
      character(',');
  }
  newline();
  character(')');
}

void PtxWriter::directives(const std::vector<FunctionDirective>& list, bool ownLines) {
  for (const auto& d : list) {
    if (ownLines)
      newline();
    else
      character(' ');
    text(d.name);
    if (!d.values.empty()) {
      character(' ');
      joined(d.values, ", ", [&](uint64_t v) { unsignedNumber(v); });
    }
  }
}

void PtxWriter::statement(const Function& f, const Statement& s) {
  startLine(s.line());
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
    character(';');
    return;
  }
  startLine(f.bodyLine());
  character('{');
  for (const auto& block : f.blocks())
    for (const auto& s : block->statements())
      statement(f, *s);
  startLine(f.bodyEndLine());
  character('}');
}

void PtxWriter::module(const Module& m) {
  if (!m.version().empty()) {
    startLine(m.headerLines().version);
    text(".version ");
    text(m.version());
  }
  if (!m.targets().empty()) {
    startLine(m.headerLines().target);
    text(".target ");
    joined(m.targets(), ", ", [&](std::string_view t) { text(t); });
  }
  if (m.addressSize()) {
    startLine(m.headerLines().addressSize);
    text(".address_size ");
    unsignedNumber(*m.addressSize());
  }
  for (const auto& item : m.items()) {
    if (!options_.preserveLines || item->line() == 0) {
      // A blank line between items, as nvcc writes them.
      if (!atLineStart_)
        newline();
      newline();
    }
    switch (item->kind()) {
    case ModuleItem::Kind::GlobalVariable:
      startLine(item->line());
      declaration(cast<GlobalVariable>(item.get())->spec());
      character(';');
      break;
    case ModuleItem::Kind::Function:
      function(*cast<Function>(item.get()));
      break;
    case ModuleItem::Kind::File: {
      const auto* file = cast<FileDirective>(item.get());
      startLine(file->line());
      text("\t.file\t");
      unsignedNumber(file->index());
      text(" \"");
      text(file->path());
      character('"');
      if (file->timestamp()) {
        text(", ");
        unsignedNumber(*file->timestamp());
        text(", ");
        unsignedNumber(file->size().value_or(0));
      }
      break;
    }
    case ModuleItem::Kind::DebugSection: {
      const auto* section = cast<DebugSection>(item.get());
      startLine(section->line());
      text("\t.section\t");
      text(section->name());
      newline();
      text("\t{");
      for (const auto& entry : section->items()) {
        if (entry.kind == SectionItem::Kind::Label) {
          newline();
          text(section->text(entry.symbol));
          character(':');
          continue;
        }
        if (entry.continuation) {
          text(", ");
        } else {
          newline();
          text(section->text(entry.directive));
          character(' ');
        }
        if (entry.symbol != SectionItem::kNoName) {
          text(section->text(entry.symbol));
          if (entry.subtrahend != SectionItem::kNoName) {
            character('-');
            text(section->text(entry.subtrahend));
          }
          if (entry.value != 0) {
            character('+');
            unsignedNumber(entry.value);
          }
        } else {
          if (entry.negative)
            character('-');
          if (entry.hexadecimal) {
            text("0x");
            unsignedNumber(entry.value, 16, true);
          } else {
            unsignedNumber(entry.value);
          }
        }
      }
      newline();
      text("\t}");
      break;
    }
    case ModuleItem::Kind::Alias: {
      const auto* alias = cast<AliasDirective>(item.get());
      startLine(alias->line());
      text(".alias ");
      text(alias->alias());
      text(", ");
      text(alias->aliasee());
      character(';');
      break;
    }
    }
  }
  newline();
}

} // namespace

void emitPtx(const Module& module, std::string& out, const EmitOptions& options) {
  PtxWriter writer(out, options);
  writer.module(module);
}

std::string emitPtx(const Module& module, const EmitOptions& options) {
  std::string out;
  emitPtx(module, out, options);
  return out;
}

std::string operandToString(const Function& function, const Operand& operand) {
  std::string out;
  EmitOptions options{false};
  PtxWriter writer(out, options);
  writer.operand(function, operand);
  return out;
}

std::string instructionToString(const Function& function, const Instruction& instruction) {
  std::string out;
  EmitOptions options{false};
  PtxWriter writer(out, options);
  writer.instruction(function, instruction);
  return out;
}

} // namespace ocelot::ir
