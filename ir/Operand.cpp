#include "ir/Operand.h"

#include <array>
#include <utility>

namespace ocelot::ir {

namespace {
constexpr std::array<std::pair<std::string_view, VectorComponent>, 14> kComponents = {{
    {"x", VectorComponent::X},
    {"y", VectorComponent::Y},
    {"z", VectorComponent::Z},
    {"w", VectorComponent::W},
    {"r", VectorComponent::R},
    {"g", VectorComponent::G},
    {"b", VectorComponent::B},
    {"a", VectorComponent::A},
    {"b0", VectorComponent::B0},
    {"b1", VectorComponent::B1},
    {"b2", VectorComponent::B2},
    {"b3", VectorComponent::B3},
    {"h0", VectorComponent::H0},
    {"h1", VectorComponent::H1},
}};
} // namespace

VectorComponent vectorComponentFromName(std::string_view name) {
  for (const auto& [spelling, component] : kComponents)
    if (spelling == name)
      return component;
  return VectorComponent::None;
}

std::string_view vectorComponentName(VectorComponent component) {
  for (const auto& [spelling, c] : kComponents)
    if (c == component)
      return spelling;
  return "";
}

ImmediateOperand ImmediateOperand::integer(int64_t value) {
  ImmediateOperand immediate;
  immediate.negative = value < 0;
  immediate.magnitude = value < 0 ? static_cast<uint64_t>(0) - static_cast<uint64_t>(value)
                                  : static_cast<uint64_t>(value);
  return immediate;
}

namespace {

/// A copy of the box at `from` into `into`: its address, then whether it came from an arena.
template <class T> void copyBox(const void* from, unsigned char* into) {
  bool inArena = false;
  void* memory = Arena::allocateUntagged(sizeof(T), inArena);
  T* box = new (memory) T(*static_cast<const T*>(from));
  std::memcpy(into, &box, sizeof box);
  into[sizeof box] = inArena;
}

template <class T> void destroyBox(void* box, bool fromArena) noexcept {
  static_cast<T*>(box)->~T();
  Arena::deallocateUntagged(box, fromArena);
}

} // namespace

void Operand::copyFrom(const Operand& other) {
  data_.kind = Kind::Sink; // until the copy is complete (a throwing copy leaves a sink)
  switch (other.data_.kind) {
  case Kind::Register:
  case Kind::Label:
  case Kind::Sink:
    data_ = other.data_;
    return;
  case Kind::SpecialRegister:
    copyBox<SpecialRegisterOperand>(other.address(), data_.bytes);
    break;
  case Kind::Immediate:
    copyBox<ImmediateOperand>(other.address(), data_.bytes);
    break;
  case Kind::Symbol:
    copyBox<SymbolOperand>(other.address(), data_.bytes);
    break;
  case Kind::Address:
    copyBox<AddressOperand>(other.address(), data_.bytes);
    break;
  case Kind::Vector:
    copyBox<VectorOperand>(other.address(), data_.bytes);
    break;
  case Kind::Dual:
    copyBox<DualOperand>(other.address(), data_.bytes);
    break;
  case Kind::ArgumentList:
    copyBox<ArgumentListOperand>(other.address(), data_.bytes);
    break;
  }
  data_.kind = other.data_.kind;
}

void Operand::releaseBox() noexcept {
  void* box = address();
  const bool fromArena = data_.bytes[kArenaFlag] != 0;
  switch (data_.kind) {
  case Kind::SpecialRegister:
    destroyBox<SpecialRegisterOperand>(box, fromArena);
    break;
  case Kind::Immediate:
    destroyBox<ImmediateOperand>(box, fromArena);
    break;
  case Kind::Symbol:
    destroyBox<SymbolOperand>(box, fromArena);
    break;
  case Kind::Address:
    destroyBox<AddressOperand>(box, fromArena);
    break;
  case Kind::Vector:
    destroyBox<VectorOperand>(box, fromArena);
    break;
  case Kind::Dual:
    destroyBox<DualOperand>(box, fromArena);
    break;
  case Kind::ArgumentList:
    destroyBox<ArgumentListOperand>(box, fromArena);
    break;
  case Kind::Register:
  case Kind::Label:
  case Kind::Sink:
    break;
  }
  data_.kind = Kind::Sink;
}

bool operator==(const Operand& a, const Operand& b) {
  if (a.kind() != b.kind())
    return false;
  return a.visit([&](const auto& value) {
    using T = std::decay_t<decltype(value)>;
    return value == b.as<T>();
  });
}

} // namespace ocelot::ir
