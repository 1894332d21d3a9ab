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

void InitializerListBuilder::addIntegers(IntegerValues&& run) {
  if (!packed_) {
    elements_.reserve(elements_.size() + run.size());
    for (int64_t value : run)
      elements_.push_back(Initializer::value(ImmediateOperand::integer(value)));
    return;
  }
  if (integers_.empty())
    std::swap(integers_, run);
  else
    integers_.append(run);
  run.clear();
  depth_ = std::max(depth_, 1u);
}

void InitializerListBuilder::addScalars(std::vector<Initializer>&& run) {
  if (run.empty())
    return;
  unpack();
  if (elements_.empty()) {
    std::swap(elements_, run);
  } else {
    elements_.reserve(elements_.size() + run.size());
    for (auto& element : run)
      elements_.push_back(std::move(element));
  }
  run.clear();
  depth_ = std::max(depth_, 1u);
}

void InitializerListBuilder::unpack() {
  if (!packed_)
    return;
  // The first element that is not a plain integer: unpack what came before.
  packed_ = false;
  elements_.reserve(integers_.size() + 1);
  for (int64_t value : integers_)
    elements_.push_back(Initializer::value(ImmediateOperand::integer(value)));
  integers_ = IntegerValues();
}

void InitializerListBuilder::add(Initializer element) {
  if (packed_ && isPlainDecimalValue(element)) {
    integers_.push_back(element.scalar().as<ImmediateOperand>().integerValue());
    depth_ = std::max(depth_, 1u);
    return;
  }
  unpack();
  depth_ = std::max(depth_, initializerDepth(element) + 1);
  elements_.push_back(std::move(element));
}

Initializer InitializerListBuilder::finish() {
  if (packed_)
    return Initializer::integers(std::move(integers_));
  return Initializer::list(std::move(elements_));
}

} // namespace ocelot::ir::detail
