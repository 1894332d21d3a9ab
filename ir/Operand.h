#pragma once

#include "ir/Arena.h"

#include <cstdint>
#include <cstring>
#include <new>
#include <string_view>
#include <type_traits>
#include <utility>
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

  /// Two's-complement value for integer formats. Negated as unsigned: -9223372036854775808 has a
  /// magnitude whose signed negation overflows (UBSan, binomial_options on the CPU device).
  int64_t integerValue() const {
    return static_cast<int64_t>(negative ? uint64_t{0} - magnitude : magnitude);
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

/// One operand of an instruction: one of a closed set of small value types, which analyses visit
/// with visit() or ask for with `is<T>()`, `getIf<T>()` and `as<T>()`.
///
/// 16 bytes. Registers, labels and sinks (most operands) are stored in the operand itself; the
/// other kinds in a box of their own, from the module's arena while the module is parsed (see
/// Arena) and from the heap otherwise. A std::variant of the kinds took 88 bytes per operand, the
/// largest part of a parsed module. Copies copy the box; moves take it.
class Operand {
public:
  /// The kinds, in the order of their types (what index() returns).
  enum class Kind : uint8_t {
    Register,
    SpecialRegister,
    Immediate,
    Symbol,
    Label,
    Sink,
    Address,
    Vector,
    Dual,
    ArgumentList,
  };

  Operand() noexcept { data_.kind = Kind::Sink; }
  template <class T>
  requires(!std::is_same_v<std::remove_cvref_t<T>, Operand>) Operand(T&& value) {
    using V = std::remove_cvref_t<T>;
    constexpr Kind kind = kindOf<V>();
    if constexpr (isInline(kind)) {
      static_assert(sizeof(V) <= sizeof(data_.bytes) && alignof(V) <= 8);
      new (data_.bytes) V(std::forward<T>(value));
    } else {
      bool inArena = false;
      void* memory = Arena::allocateUntagged(sizeof(V), inArena);
      V* box = new (memory) V(std::forward<T>(value));
      std::memcpy(data_.bytes, &box, sizeof box);
      data_.bytes[kArenaFlag] = inArena;
    }
    data_.kind = kind;
  }
  Operand(const Operand& other) { copyFrom(other); }
  Operand(Operand&& other) noexcept : data_(other.data_) { other.data_.kind = Kind::Sink; }
  Operand& operator=(const Operand& other) {
    if (this != &other) {
      Operand copy(other);
      *this = std::move(copy);
    }
    return *this;
  }
  Operand& operator=(Operand&& other) noexcept {
    if (this != &other) {
      release();
      data_ = other.data_;
      other.data_.kind = Kind::Sink;
    }
    return *this;
  }
  ~Operand() { release(); }

  Kind kind() const { return data_.kind; }
  size_t index() const { return static_cast<size_t>(data_.kind); }

  template <class T> bool is() const { return data_.kind == kindOf<T>(); }
  template <class T> const T* getIf() const {
    return is<T>() ? static_cast<const T*>(address()) : nullptr;
  }
  template <class T> T* getIf() { return is<T>() ? static_cast<T*>(address()) : nullptr; }
  /// Throws std::bad_variant_access when the operand is of another kind (as std::get did).
  template <class T> const T& as() const {
    if (!is<T>())
      throw std::bad_variant_access();
    return *static_cast<const T*>(address());
  }
  template <class T> T& as() {
    if (!is<T>())
      throw std::bad_variant_access();
    return *static_cast<T*>(address());
  }

  /// Calls fn(value) with the operand's value as its own type (like std::visit).
  template <class Fn> decltype(auto) visit(Fn&& fn) const {
    return visitAs<const Operand>(*this, fn);
  }
  template <class Fn> decltype(auto) visit(Fn&& fn) { return visitAs<Operand>(*this, fn); }

  friend bool operator==(const Operand& a, const Operand& b);

private:
  template <class T> static constexpr Kind kindOf() {
    using V = std::remove_cv_t<T>;
    if constexpr (std::is_same_v<V, RegisterOperand>)
      return Kind::Register;
    else if constexpr (std::is_same_v<V, SpecialRegisterOperand>)
      return Kind::SpecialRegister;
    else if constexpr (std::is_same_v<V, ImmediateOperand>)
      return Kind::Immediate;
    else if constexpr (std::is_same_v<V, SymbolOperand>)
      return Kind::Symbol;
    else if constexpr (std::is_same_v<V, LabelOperand>)
      return Kind::Label;
    else if constexpr (std::is_same_v<V, SinkOperand>)
      return Kind::Sink;
    else if constexpr (std::is_same_v<V, AddressOperand>)
      return Kind::Address;
    else if constexpr (std::is_same_v<V, VectorOperand>)
      return Kind::Vector;
    else if constexpr (std::is_same_v<V, DualOperand>)
      return Kind::Dual;
    else if constexpr (std::is_same_v<V, ArgumentListOperand>)
      return Kind::ArgumentList;
    else
      static_assert(sizeof(V) == 0, "not an operand type");
  }
  static constexpr bool isInline(Kind kind) {
    return kind == Kind::Register || kind == Kind::Label || kind == Kind::Sink;
  }
  const void* address() const {
    if (isInline(data_.kind))
      return data_.bytes;
    void* box;
    std::memcpy(&box, data_.bytes, sizeof box);
    return box;
  }
  void* address() { return const_cast<void*>(std::as_const(*this).address()); }

  template <class Self, class Fn> static decltype(auto) visitAs(Self& self, Fn& fn) {
    using C = std::conditional_t<std::is_const_v<Self>, const Operand, Operand>;
    C& op = self;
    switch (op.data_.kind) {
    case Kind::Register:
      return fn(op.template as<RegisterOperand>());
    case Kind::SpecialRegister:
      return fn(op.template as<SpecialRegisterOperand>());
    case Kind::Immediate:
      return fn(op.template as<ImmediateOperand>());
    case Kind::Symbol:
      return fn(op.template as<SymbolOperand>());
    case Kind::Label:
      return fn(op.template as<LabelOperand>());
    case Kind::Address:
      return fn(op.template as<AddressOperand>());
    case Kind::Vector:
      return fn(op.template as<VectorOperand>());
    case Kind::Dual:
      return fn(op.template as<DualOperand>());
    case Kind::ArgumentList:
      return fn(op.template as<ArgumentListOperand>());
    case Kind::Sink:
      break;
    }
    return fn(op.template as<SinkOperand>());
  }

  void copyFrom(const Operand& other);
  void release() noexcept {
    if (!isInline(data_.kind))
      releaseBox();
  }
  void releaseBox() noexcept;

  /// For boxes: bytes[kArenaFlag] is 1 when the box came from an arena (it has no header).
  static constexpr size_t kArenaFlag = 8;

  /// The inline value or the box's address, then the kind: 13 bytes in 16.
  struct Data {
    alignas(8) unsigned char bytes[12];
    Kind kind;
  } data_;
};

static_assert(sizeof(Operand) == 16, "operands are the bulk of a parsed module");

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
  if (auto* reg = operand.template getIf<RegisterOperand>()) {
    fn(*reg);
  } else if (auto* address = operand.template getIf<AddressOperand>()) {
    if (auto* base = std::get_if<RegisterOperand>(&address->base))
      fn(*base);
    for (auto& part : address->extra)
      forEachRegister(part, fn);
  } else if (auto* vector = operand.template getIf<VectorOperand>()) {
    for (auto& element : vector->elements)
      forEachRegister(element, fn);
  } else if (auto* dual = operand.template getIf<DualOperand>()) {
    for (auto& part : dual->parts)
      forEachRegister(part, fn);
  } else if (auto* list = operand.template getIf<ArgumentListOperand>()) {
    for (auto& argument : list->arguments)
      forEachRegister(argument, fn);
  }
}

} // namespace ocelot::ir
