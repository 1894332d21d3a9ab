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

} // namespace ocelot::ir
