#pragma once

#include <cstdint>
#include <string_view>
#include <variant>
#include <vector>

namespace ocelot::ir {

/// Identifies one register of a function: the declarator that declared it and, for parameterized
/// declarations such as `.reg .b32 %r<100>`, which of its registers. Ranges are never expanded, so
/// `%r<100000000>` costs one table entry.
struct RegisterRef {
  uint32_t declarator = 0; ///< index into Function::registerDeclarators()
  uint32_t index = 0;      ///< element of a %r<N> range; 0 for a named register
  friend auto operator<=>(const RegisterRef&, const RegisterRef&) = default;
  // Declared explicitly: g++ 12 otherwise warns "used but never defined" in some units.
  friend bool operator==(const RegisterRef&, const RegisterRef&) = default;
};

using LabelId = uint32_t; ///< index into Function::labels()
using ScopeId = uint32_t; ///< index into Function::scopes(); 0 is the function body

/// `.x`-style component selection on vector registers and special registers (`%tid.x`), and the
/// byte and half-word selectors of video instructions (`%r1.b2`, `%r2.h1`).
enum class VectorComponent : uint8_t { None, X, Y, Z, W, R, G, B, A, B0, B1, B2, B3, H0, H1 };

VectorComponent vectorComponentFromName(std::string_view name); ///< "x" -> X, unknown -> None
std::string_view vectorComponentName(VectorComponent component);

class Operand;

/// `%r1`, `p` (a named register inside inline asm), `!%p1` (negated predicate source).
struct RegisterOperand {
  RegisterRef reg;
  VectorComponent component = VectorComponent::None;
  bool negated = false;
  friend bool operator==(const RegisterOperand&, const RegisterOperand&) = default;
};

/// `%tid.x`, `%clock64`, `%envreg3`: registers the hardware provides, never declared.
struct SpecialRegisterOperand {
  std::string_view name; ///< interned, with the '%', without the component ("%tid")
  VectorComponent component = VectorComponent::None;
  bool negated = false;
  friend bool operator==(const SpecialRegisterOperand&, const SpecialRegisterOperand&) = default;
};

/// An integer or floating-point literal. Floats written as `0f`/`0d` keep their exact bits.
struct ImmediateOperand {
  enum class Format : uint8_t {
    Decimal,
    Hexadecimal,
    Octal,
    Binary,
    Float32Bits,  ///< 0f3F800000
    Float64Bits,  ///< 0d3FF0000000000000
    DecimalFloat, ///< 1.5e3; `text` holds the spelling
  };
  uint64_t magnitude = 0; ///< the literal's value without its sign (the IEEE bits for 0f/0d)
  Format format = Format::Decimal;
  bool negative = false;       ///< written with a leading '-'
  bool unsignedSuffix = false; ///< written with a trailing 'U'
  std::string_view text;       ///< only for DecimalFloat

  /// Two's-complement value for integer formats.
  int64_t integerValue() const {
    return negative ? -static_cast<int64_t>(magnitude) : static_cast<int64_t>(magnitude);
  }
  bool isFloat() const {
    return format == Format::Float32Bits || format == Format::Float64Bits ||
           format == Format::DecimalFloat;
  }
  static ImmediateOperand integer(int64_t value);
  friend bool operator==(const ImmediateOperand&, const ImmediateOperand&) = default;
};

/// A variable, function or parameter name used as a value: `sym`, `sym+16`, `generic(sym)`.
struct SymbolOperand {
  std::string_view name;
  int64_t offset = 0;
  bool generic = false;        ///< written `generic(sym)`
  bool explicitOffset = false; ///< written with `+offset` even when it is 0
  friend bool operator==(const SymbolOperand&, const SymbolOperand&) = default;
};

/// A branch target, resolved to the label visible from the instruction's scope.
struct LabelOperand {
  LabelId label = 0;
  friend bool operator==(const LabelOperand&, const LabelOperand&) = default;
};

/// `_`: a destination whose value is discarded.
struct SinkOperand {
  friend bool operator==(const SinkOperand&, const SinkOperand&) = default;
};

/// `[%rd4]`, `[%r126+-4]`, `[sym+16]`, `[0x100]`, `[%rd1, {%f1, %f2}]` (texture coordinates).
struct AddressOperand {
  struct Absolute {
    uint64_t value = 0;
    friend bool operator==(const Absolute&, const Absolute&) = default;
  };
  std::variant<RegisterOperand, SymbolOperand, Absolute> base;
  int64_t offset = 0;
  /// Written with `+offset` even when it is 0: `[%SP+0]` and `[%SP]` give different code under
  /// ptxas -G, so the spelling is part of the program.
  bool explicitOffset = false;
  std::vector<Operand> extra; ///< further comma-separated parts inside the brackets
  friend bool operator==(const AddressOperand&, const AddressOperand&);
};

/// `{%f1, %f2, %f3, %f4}`; elements may be `_`.
struct VectorOperand {
  std::vector<Operand> elements;
  friend bool operator==(const VectorOperand&, const VectorOperand&);
};

/// `%r49|%p4` (shfl, setp, elect ...): both parts are destinations.
struct DualOperand {
  std::vector<Operand> parts; ///< always two
  friend bool operator==(const DualOperand&, const DualOperand&);
};

/// `(retval0)`, `(param0, param1)`: the parameter lists of `call`.
struct ArgumentListOperand {
  std::vector<Operand> arguments;
  friend bool operator==(const ArgumentListOperand&, const ArgumentListOperand&);
};

/// One operand of an instruction. A closed set of small value types: analyses visit it with
/// std::visit or ask `as<T>()`, never look at a union.
class Operand {
public:
  using Value = std::variant<RegisterOperand, SpecialRegisterOperand, ImmediateOperand,
                             SymbolOperand, LabelOperand, SinkOperand, AddressOperand,
                             VectorOperand, DualOperand, ArgumentListOperand>;

  Operand() : value_(SinkOperand{}) {}
  template <class T>
  requires(!std::is_same_v<std::remove_cvref_t<T>, Operand>) Operand(T&& value)
      : value_(std::forward<T>(value)) {}

  template <class T> bool is() const { return std::holds_alternative<T>(value_); }
  template <class T> const T& as() const { return std::get<T>(value_); }
  template <class T> T& as() { return std::get<T>(value_); }
  template <class T> const T* getIf() const { return std::get_if<T>(&value_); }
  template <class T> T* getIf() { return std::get_if<T>(&value_); }

  const Value& value() const { return value_; }
  Value& value() { return value_; }

  friend bool operator==(const Operand&, const Operand&) = default;

private:
  Value value_;
};

inline bool operator==(const AddressOperand& a, const AddressOperand& b) {
  return a.base == b.base && a.offset == b.offset && a.explicitOffset == b.explicitOffset &&
         a.extra == b.extra;
}
inline bool operator==(const VectorOperand& a, const VectorOperand& b) {
  return a.elements == b.elements;
}
inline bool operator==(const DualOperand& a, const DualOperand& b) {
  return a.parts == b.parts;
}
inline bool operator==(const ArgumentListOperand& a, const ArgumentListOperand& b) {
  return a.arguments == b.arguments;
}

/// Calls `fn(RegisterOperand&)` for every register inside `operand`, including the elements of
/// vectors, dual destinations, argument lists and the base of addresses.
template <class Op, class Fn> void forEachRegister(Op& operand, Fn&& fn) {
  auto& value = operand.value();
  if (auto* reg = std::get_if<RegisterOperand>(&value)) {
    fn(*reg);
  } else if (auto* address = std::get_if<AddressOperand>(&value)) {
    if (auto* base = std::get_if<RegisterOperand>(&address->base))
      fn(*base);
    for (auto& part : address->extra)
      forEachRegister(part, fn);
  } else if (auto* vector = std::get_if<VectorOperand>(&value)) {
    for (auto& element : vector->elements)
      forEachRegister(element, fn);
  } else if (auto* dual = std::get_if<DualOperand>(&value)) {
    for (auto& part : dual->parts)
      forEachRegister(part, fn);
  } else if (auto* list = std::get_if<ArgumentListOperand>(&value)) {
    for (auto& argument : list->arguments)
      forEachRegister(argument, fn);
  }
}

} // namespace ocelot::ir
