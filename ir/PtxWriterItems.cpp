// The PtxWriter's module items: directives, declarations, initializers and debug sections
// (ir/PtxWriter.h). Operands, instructions and statements, the hot path, are in Emitter.cpp.
#include "ir/PtxWriter.h"

namespace ocelot::ir::detail {

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

} // namespace ocelot::ir::detail
