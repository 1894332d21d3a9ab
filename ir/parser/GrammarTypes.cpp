#include "ir/parser/GrammarTypes.h"

#include <algorithm>

namespace ocelot::ir::detail {

bool isPlainDecimal(const ImmediateOperand& imm) {
  return imm.format == ImmediateOperand::Format::Decimal && !imm.unsignedSuffix &&
         imm.magnitude <= static_cast<uint64_t>(INT64_MAX) && !(imm.negative && imm.magnitude == 0);
}

namespace {

bool isPlainDecimalValue(const Initializer& init) {
  if (init.kind() != Initializer::Kind::Value)
    return false;
  const auto* imm = init.scalar().getIf<ImmediateOperand>();
  return imm != nullptr && isPlainDecimal(*imm);
}

} // namespace

unsigned initializerDepth(const Initializer& init) {
  switch (init.kind()) {
  case Initializer::Kind::Value:
    return 0;
  case Initializer::Kind::IntegerList:
    return 1;
  case Initializer::Kind::List:
    break;
  }
  unsigned depth = 0;
  for (const auto& element : init.elements())
    depth = std::max(depth, initializerDepth(element));
  return depth + 1;
}

void InitializerListBuilder::addInteger(int64_t value) {
  if (packed_) {
    integers_.push_back(value);
    depth_ = std::max(depth_, 1u);
    return;
  }
  add(Initializer::value(ImmediateOperand::integer(value)));
}

void InitializerListBuilder::add(Initializer element) {
  if (packed_ && isPlainDecimalValue(element)) {
    integers_.push_back(element.scalar().as<ImmediateOperand>().integerValue());
    depth_ = std::max(depth_, 1u);
    return;
  }
  if (packed_) {
    // The first element that is not a plain integer: unpack what came before.
    packed_ = false;
    elements_.reserve(integers_.size() + 1);
    for (int64_t value : integers_)
      elements_.push_back(Initializer::value(ImmediateOperand::integer(value)));
    integers_.clear();
    integers_.shrink_to_fit();
  }
  depth_ = std::max(depth_, initializerDepth(element) + 1);
  elements_.push_back(std::move(element));
}

Initializer InitializerListBuilder::finish() {
  if (packed_)
    return Initializer::integers(std::move(integers_));
  return Initializer::list(std::move(elements_));
}

} // namespace ocelot::ir::detail
