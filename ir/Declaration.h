#pragma once

#include "ir/Operand.h"
#include "ir/Types.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace ocelot::ir {

/// The value after `=` in a variable declaration: a scalar, `{...}` of initializers, or (the
/// common, large case of byte tables) a packed list of plain decimal integers.
class Initializer {
public:
  enum class Kind : uint8_t { Value, List, IntegerList };

  static Initializer value(Operand operand);
  static Initializer list(std::vector<Initializer> elements);
  static Initializer integers(std::vector<int64_t> values);

  Kind kind() const { return kind_; }
  /// Kind::Value: an ImmediateOperand or SymbolOperand (possibly `generic(sym)`).
  const Operand& scalar() const { return scalar_; }
  /// Kind::List.
  const std::vector<Initializer>& elements() const { return elements_; }
  /// Kind::IntegerList.
  const std::vector<int64_t>& integerValues() const { return integers_; }
  /// Number of elements of a list of either kind, 1 for a value.
  size_t size() const;

  friend bool operator==(const Initializer&, const Initializer&) = default;

private:
  Kind kind_ = Kind::Value;
  Operand scalar_;
  std::vector<Initializer> elements_;
  std::vector<int64_t> integers_;
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
