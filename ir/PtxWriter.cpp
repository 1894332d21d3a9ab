#include "ir/PtxWriter.h"

#include "ir/Casting.h"

#include <algorithm>
#include <charconv>
#include <cstring>

namespace ocelot::ir {

void PtxWriter::unsignedNumber(uint64_t value, int base, bool upper, int width) {
  if (base == 10 && width == 0) {
    advance(writeDecimal(room(20), value));
    return;
  }
  if (base == 16) {
    advance(writeHexadecimal(room(static_cast<size_t>(std::max(width, 16))), value, upper, width));
    return;
  }
  char buffer[72];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value, base);
  (void)ec;
  size_t length = static_cast<size_t>(end - buffer);
  for (size_t i = length; i < static_cast<size_t>(width); ++i)
    character('0');
  text(std::string_view(buffer, length));
}

void PtxWriter::sectionItems(const DebugSection& section) {
  // Millions of items in -G modules: each is written straight into the buffer.
  auto put = [](char* p, std::string_view s) {
    std::memcpy(p, s.data(), s.size());
    return p + s.size();
  };
  for (const SectionItem& entry : section.items()) {
    std::string_view symbol = section.text(entry.symbol);
    std::string_view subtrahend = section.text(entry.subtrahend);
    std::string_view directive =
        entry.continuation ? std::string_view() : section.text(entry.directive);
    char* p = room(symbol.size() + subtrahend.size() + directive.size() + 48);
    if (entry.kind == SectionItem::Kind::Label) {
      *p++ = '\n';
      p = put(p, symbol);
      *p++ = ':';
      ++line_;
      advance(p);
      continue;
    }
    if (entry.continuation) {
      *p++ = ',';
      *p++ = ' ';
    } else {
      *p++ = '\n';
      ++line_;
      p = put(p, directive);
      *p++ = ' ';
    }
    if (entry.symbol != SectionItem::kNoName) {
      p = put(p, symbol);
      if (entry.subtrahend != SectionItem::kNoName) {
        *p++ = '-';
        p = put(p, subtrahend);
      }
      if (entry.value != 0) {
        *p++ = '+';
        p = writeDecimal(p, entry.value);
      }
    } else {
      if (entry.negative)
        *p++ = '-';
      if (entry.hexadecimal) {
        *p++ = '0';
        *p++ = 'x';
        p = writeHexadecimal(p, entry.value, true, 0);
      } else {
        p = writeDecimal(p, entry.value);
      }
    }
    advance(p);
  }
}

void PtxWriter::integerList(const IntegerValues& values) {
  // "v, v, ..., v": every value is written with its ", ", the last one's is taken back.
  size_t count = values.size();
  if (count == 0)
    return;
  constexpr size_t kBlock = 4096;
  if (values.width() == 1) {
    const uint8_t* bytes = values.data();
    for (size_t start = 0; start < count; start += kBlock) {
      size_t end = std::min(count, start + kBlock);
      char* p = room((end - start) * 5 + 8);
      for (size_t i = start; i < end; ++i) {
        std::memcpy(p, kByteTexts.text[bytes[i]].data(), 8);
        p += kByteTexts.length[bytes[i]];
      }
      advance(p);
    }
  } else {
    for (size_t start = 0; start < count; start += kBlock) {
      size_t end = std::min(count, start + kBlock);
      char* p = room((end - start) * 23);
      for (size_t i = start; i < end; ++i) {
        int64_t value = values[i];
        if (value < 0) {
          *p++ = '-';
          p = writeDecimal(p, static_cast<uint64_t>(0) - static_cast<uint64_t>(value));
        } else {
          p = writeDecimal(p, static_cast<uint64_t>(value));
        }
        *p++ = ',';
        *p++ = ' ';
      }
      advance(p);
    }
  }
  size_ -= 2;
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
    integerList(init.integerValues());
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

void PtxWriter::header(const Module& m) {
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
}

void PtxWriter::item(const ModuleItem& item) {
  if (!options_.preserveLines || item.line() == 0) {
    // A blank line between items, as nvcc writes them.
    if (!atLineStart_)
      newline();
    newline();
  }
  switch (item.kind()) {
  case ModuleItem::Kind::GlobalVariable:
    startLine(item.line());
    wrote(&item, item.line());
    declaration(cast<GlobalVariable>(&item)->spec());
    character(';');
    break;
  case ModuleItem::Kind::Function:
    function(*cast<Function>(&item));
    break;
  case ModuleItem::Kind::File: {
    const auto* file = cast<FileDirective>(&item);
    startLine(file->line());
    wrote(file, file->line());
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
    const auto* section = cast<DebugSection>(&item);
    startLine(section->line());
    wrote(section, section->line());
    text("\t.section\t");
    text(section->name());
    newline();
    text("\t{");
    sectionItems(*section);
    newline();
    text("\t}");
    break;
  }
  case ModuleItem::Kind::Alias: {
    const auto* alias = cast<AliasDirective>(&item);
    startLine(alias->line());
    wrote(alias, alias->line());
    text(".alias ");
    text(alias->alias());
    text(", ");
    text(alias->aliasee());
    character(';');
    break;
  }
  }
}

void PtxWriter::end() {
  newline();
}

void PtxWriter::module(const Module& m) {
  header(m);
  for (const auto& item : m.items())
    this->item(*item);
  end();
}

} // namespace ocelot::ir
