#pragma once

#include "ir/Operand.h"
#include "ir/Types.h"

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <optional>
#include <string_view>
#include <vector>

namespace ocelot::ir {

/// The values of a packed integer list, each stored in as few bytes as the largest value of the
/// list needs: 1 while all are 0..255 (byte tables, megabytes of them in some modules), 2 or 4 for
/// larger unsigned values, 8 (two's complement) once one is negative or above 2^32-1. Reads as a
/// sequence of int64_t.
class IntegerValues {
public:
  using value_type = int64_t;
  class const_iterator {
  public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = int64_t;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = int64_t;
    const_iterator() = default;
    const_iterator(const IntegerValues* values, size_t index) : values_(values), index_(index) {}
    int64_t operator*() const { return (*values_)[index_]; }
    const_iterator& operator++() {
      ++index_;
      return *this;
    }
    const_iterator operator++(int) {
      const_iterator old = *this;
      ++index_;
      return old;
    }
    friend bool operator==(const const_iterator& a, const const_iterator& b) {
      return a.index_ == b.index_;
    }

  private:
    const IntegerValues* values_ = nullptr;
    size_t index_ = 0;
  };
  using iterator = const_iterator;

  IntegerValues() = default;
  IntegerValues(std::initializer_list<int64_t> values);

  size_t size() const { return bytes_.size() >> shift_; }
  bool empty() const { return bytes_.empty(); }
  int64_t operator[](size_t index) const {
    const uint8_t* at = bytes_.data() + (index << shift_);
    switch (shift_) {
    case 0:
      return *at;
    case 1:
      return load<uint16_t>(at);
    case 2:
      return load<uint32_t>(at);
    default:
      return load<int64_t>(at);
    }
  }
  const_iterator begin() const { return const_iterator(this, 0); }
  const_iterator end() const { return const_iterator(this, size()); }
  /// Bytes per value: 1, 2, 4 or 8.
  unsigned width() const { return 1u << shift_; }
  /// size() values of width() bytes each, in host byte order.
  const uint8_t* data() const { return bytes_.data(); }

  void push_back(int64_t value) {
    if (shift_ == 0 && static_cast<uint64_t>(value) <= 0xff)
      bytes_.push_back(static_cast<uint8_t>(value));
    else
      pushWide(value);
  }
  void reserve(size_t count) { bytes_.reserve(count << shift_); }
  void clear() {
    bytes_.clear();
    shift_ = 0;
  }
  /// Appends the values of `other`.
  void append(const IntegerValues& other);
  /// Appends `count` values 0..255.
  void appendBytes(const uint8_t* values, size_t count);

  friend bool operator==(const IntegerValues& a, const IntegerValues& b);
  friend bool operator==(const IntegerValues& a, const std::vector<int64_t>& b);

private:
  template <class T> static int64_t load(const uint8_t* at) {
    T value;
    std::memcpy(&value, at, sizeof value);
    return static_cast<int64_t>(value);
  }
  void pushWide(int64_t value);
  /// Re-stores every value with 2^shift bytes.
  void widen(uint8_t shift);

  std::vector<uint8_t> bytes_;
  uint8_t shift_ = 0; ///< log2 of the bytes per value
};

/// The value after `=` in a variable declaration: a scalar, `{...}` of initializers, or (the
/// common, large case of byte tables) a packed list of plain decimal integers.
class Initializer {
public:
  enum class Kind : uint8_t { Value, List, IntegerList };

  static Initializer value(Operand operand);
  static Initializer list(std::vector<Initializer> elements);
  static Initializer integers(std::vector<int64_t> values);
  static Initializer integers(IntegerValues values);

  Kind kind() const { return kind_; }
  /// Kind::Value: an ImmediateOperand or SymbolOperand (possibly `generic(sym)`).
  const Operand& scalar() const { return scalar_; }
  /// Kind::List.
  const std::vector<Initializer>& elements() const { return elements_; }
  /// Kind::IntegerList: plain decimal integers as written, without a `U` suffix or `-0`.
  const IntegerValues& integerValues() const { return integers_; }
  /// Number of elements of a list of either kind, 1 for a value.
  size_t size() const;

  friend bool operator==(const Initializer&, const Initializer&) = default;

private:
  Kind kind_ = Kind::Value;
  Operand scalar_;
  std::vector<Initializer> elements_;
  IntegerValues integers_;
};

/// One dot-word of a declaration in source order: `.global`, `.align 8`, `.b8`, `.v4`, `.ptr`,
/// `.attribute(.managed)`. Kept as written so that new words of new PTX versions round-trip.
struct DeclarationWord {
  std::string_view word;                   ///< with the leading dot
  std::optional<uint64_t> value;           ///< `.align 8` -> 8
  std::vector<std::string_view> arguments; ///< `.attribute(.managed)` -> {".managed"}
  friend bool operator==(const DeclarationWord&, const DeclarationWord&) = default;
};

/// One declared name: `x`, `buf[1024]`, `smem[]`, `%r<123>`, `$str[4] = {...}`.
struct Declarator {
  std::string_view name;
  uint32_t registerCount = 0;                      ///< `%r<123>` -> 123; 0 when not parameterized
  bool parameterized = false;                      ///< written with `<N>`
  std::vector<std::optional<uint64_t>> dimensions; ///< `[N]` -> N, `[]` -> nullopt
  std::optional<Initializer> initializer;
  friend bool operator==(const Declarator&, const Declarator&) = default;
};

/// A variable, register, or parameter declaration: its words, then one or more declarators.
/// Used for module-scope variables, function parameters and declarations inside bodies.
struct DeclarationSpec {
  std::vector<DeclarationWord> words;
  std::vector<Declarator> declarators;

  /// The first word naming a state space (for parameters `.param .u64 .ptr .global p` that is
  /// Param: later state-space words describe the pointee).
  StateSpace stateSpace() const;
  Linkage linkage() const;
  /// `.align N`, or 0 when absent.
  uint64_t alignment() const;
  /// The first word that names a fundamental type.
  std::optional<ScalarType> type() const;
  /// The word that names the type as written (`.b32`, or an unknown future type such as `.f4x9`).
  std::string_view typeWord() const;
  /// `.v2`/`.v4` -> 2/4; 1 for scalars.
  unsigned vectorWidth() const;
  bool hasWord(std::string_view word) const;

  friend bool operator==(const DeclarationSpec&, const DeclarationSpec&) = default;
};

} // namespace ocelot::ir
