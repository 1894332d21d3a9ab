#include "ir/Emitter.h"

#include "ir/Casting.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <unordered_map>

namespace ocelot::ir {

namespace {

/// "00" .. "99": decimal digits two at a time.
constexpr std::array<char, 200> kDigitPairs = [] {
  std::array<char, 200> pairs{};
  for (int i = 0; i < 100; ++i) {
    pairs[static_cast<size_t>(2 * i)] = static_cast<char>('0' + i / 10);
    pairs[static_cast<size_t>(2 * i + 1)] = static_cast<char>('0' + i % 10);
  }
  return pairs;
}();

/// "0, " .. "255, " padded to 8 bytes, and their lengths: byte tables are emitted with one 8-byte
/// copy per element.
struct ByteTexts {
  std::array<std::array<char, 8>, 256> text{};
  std::array<uint8_t, 256> length{};
};
constexpr ByteTexts kByteTexts = [] {
  ByteTexts texts;
  for (unsigned value = 0; value < 256; ++value) {
    auto& text = texts.text[value];
    unsigned n = 0;
    if (value >= 100)
      text[n++] = static_cast<char>('0' + value / 100);
    if (value >= 10)
      text[n++] = static_cast<char>('0' + value / 10 % 10);
    text[n++] = static_cast<char>('0' + value % 10);
    text[n++] = ',';
    text[n++] = ' ';
    texts.length[value] = static_cast<uint8_t>(n);
  }
  return texts;
}();

/// Writes `value` in decimal at `p` (room for 20 characters); returns the end.
char* writeDecimal(char* p, uint64_t value) {
  unsigned digits = 1;
  for (uint64_t bound = 10; digits < 20 && value >= bound; bound *= 10)
    ++digits;
  char* end = p + digits;
  char* q = end;
  while (value >= 100) {
    q -= 2;
    std::memcpy(q, &kDigitPairs[2 * (value % 100)], 2);
    value /= 100;
  }
  if (value >= 10) {
    q -= 2;
    std::memcpy(q, &kDigitPairs[2 * value], 2);
  } else {
    *--q = static_cast<char>('0' + value);
  }
  return end;
}

/// Writes `value` in hexadecimal with at least `width` digits at `p` (room for max(16, width)).
char* writeHexadecimal(char* p, uint64_t value, bool upper, int width) {
  const char* digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  int length = 1;
  while (length < 16 && (value >> (4 * length)) != 0)
    ++length;
  for (int i = length; i < width; ++i)
    *p++ = '0';
  for (int i = length - 1; i >= 0; --i)
    *p++ = digits[(value >> (4 * i)) & 0xf];
  return p;
}

class PtxWriter {
public:
  /// Appends to `out`, which serves as the write buffer: it is grown ahead of the text and cut
  /// back to the text when the writer is done.
  PtxWriter(std::string& out, const EmitOptions& options)
      : out_(out), options_(options), data_(out.data()), size_(out.size()), capacity_(out.size()) {}
  ~PtxWriter() { out_.resize(size_); }
  PtxWriter(const PtxWriter&) = delete;
  PtxWriter& operator=(const PtxWriter&) = delete;

  void module(const Module& m);
  // The same in parts: the header, each item in order, the end (StreamingEmitter).
  void header(const Module& m);
  void item(const ModuleItem& item);
  void end();
  /// Hands the text written so far to `sink` and starts over in the same buffer.
  template <class Sink> void drain(Sink&& sink) {
    sink(std::string_view(data_, size_));
    size_ = 0;
  }
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
  /// Where the next `n` bytes go; advance() past what was written.
  char* room(size_t n) {
    if (capacity_ - size_ < n) [[unlikely]]
      grow(n);
    return data_ + size_;
  }
  /// Makes the string 64 KB longer than needed: resize() writes the bytes it adds, so growing in
  /// steps keeps untouched memory out of the process (the string's capacity, which reserve and
  /// doubling provide, costs address space only). Doubling the length instead made the output
  /// take twice its size in memory.
  [[gnu::noinline]] void grow(size_t n) {
    size_t wanted = size_ + n + (64 << 10);
    if (wanted > out_.capacity())
      out_.reserve(std::max(wanted, out_.capacity() * 2));
    out_.resize(wanted);
    data_ = out_.data();
    capacity_ = out_.size();
  }
  void advance(const char* end) {
    size_ = static_cast<size_t>(end - data_);
    atLineStart_ = false;
  }
  void newline() {
    *room(1) = '\n';
    ++size_;
    ++line_;
    atLineStart_ = true;
  }
  void text(std::string_view s) {
    char* p = room(s.size());
    if (s.size() <= 16) // names and keywords: no library call
      for (char c : s)
        *p++ = c;
    else
      std::memcpy(p, s.data(), s.size());
    size_ += s.size();
    atLineStart_ = false;
  }
  void character(char c) {
    *room(1) = c;
    ++size_;
    atLineStart_ = false;
  }
  void unsignedNumber(uint64_t value, int base = 10, bool upper = false, int width = 0);
  void signedNumber(int64_t value) {
    char* p = room(21);
    if (value < 0) {
      *p++ = '-';
      p = writeDecimal(p, static_cast<uint64_t>(0) - static_cast<uint64_t>(value));
    } else {
      p = writeDecimal(p, static_cast<uint64_t>(value));
    }
    advance(p);
  }
  void integerList(const IntegerValues& values);
  void sectionItems(const DebugSection& section);
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
  template <class List, class Fn> void joined(const List& items, std::string_view sep, Fn&& fn) {
    for (size_t i = 0; i < items.size(); ++i) {
      if (i > 0)
        text(sep);
      fn(items[i]);
    }
  }

  std::string& out_;
  const EmitOptions& options_;
  char* data_;      ///< out_.data()
  size_t size_;     ///< bytes of out_ written so far (out_ is longer while writing)
  size_t capacity_; ///< out_.size()
  uint32_t line_ = 1;
  bool atLineStart_ = true;
  uint32_t lastSourceLine_ = 0; ///< source line of the last statement started

public:
  /// Where the writer records the output line of each item and statement it did not write on its
  /// source line (emitPtxNumberingLines).
  struct WrittenLines {
    std::unordered_map<const void*, uint32_t> lines; ///< items and statements
    std::unordered_map<const Function*, uint32_t> bodyLines, bodyEndLines;
  };
  void recordLines(WrittenLines* lines) { written_ = lines; }

private:
  /// After startLine for an item or statement of source line `line`: records where it went when
  /// that is another line (it had none, or what was added before it pushed it down).
  void wrote(const void* thing, uint32_t line) {
    if (written_ != nullptr && line_ != line)
      written_->lines.emplace(thing, line_);
  }

  WrittenLines* written_ = nullptr;
};

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

} // namespace

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
