// The PTX writer behind emitPtx (ir/Emitter.h), internal to ir/. Emitter.cpp has the hot path
// (functions, statements, instructions, operands) and PtxWriterItems.cpp the module items
// (directives, declarations, initializers, debug sections). Small members used by both stay here,
// inline: the split costs the emitter nothing (callgrind, thrust_algorithms.sm_90: 39.6M -> 39.4M
// instructions; the -G module 242.8M either way).
#pragma once

#include "ir/Casting.h"
#include "ir/Emitter.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <unordered_map>

namespace ocelot::ir::detail {

/// "00" .. "99": decimal digits two at a time.
inline constexpr std::array<char, 200> kDigitPairs = [] {
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
inline constexpr ByteTexts kByteTexts = [] {
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
inline char* writeDecimal(char* p, uint64_t value) {
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
inline char* writeHexadecimal(char* p, uint64_t value, bool upper, int width) {
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

inline void PtxWriter::unsignedNumber(uint64_t value, int base, bool upper, int width) {
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

} // namespace ocelot::ir::detail
