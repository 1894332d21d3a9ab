#include "ir/Declaration.h"

#include <algorithm>
#include <string>

namespace ocelot::ir {

Initializer Initializer::value(Operand operand) {
  Initializer init;
  init.kind_ = Kind::Value;
  init.scalar_ = std::move(operand);
  return init;
}

Initializer Initializer::list(std::vector<Initializer> elements) {
  Initializer init;
  init.kind_ = Kind::List;
  init.elements_ = std::move(elements);
  return init;
}

Initializer Initializer::integers(std::vector<int64_t> values) {
  Initializer init;
  init.kind_ = Kind::IntegerList;
  init.integers_ = std::move(values);
  return init;
}

size_t Initializer::size() const {
  switch (kind_) {
  case Kind::List:
    return elements_.size();
  case Kind::IntegerList:
    return integers_.size();
  case Kind::Value:
    break;
  }
  return 1;
}

namespace {

bool isVectorWord(std::string_view word) {
  return word.size() >= 3 && word[0] == '.' && word[1] == 'v' &&
         std::all_of(word.begin() + 2, word.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool isStructuralWord(const DeclarationWord& w) {
  return stateSpaceFromName(w.word) || linkageFromName(w.word) || w.word == ".align" ||
         w.word == ".ptr" || w.word == ".attribute" || isVectorWord(w.word) ||
         w.value.has_value() || !w.arguments.empty();
}

} // namespace

StateSpace DeclarationSpec::stateSpace() const {
  for (const auto& w : words)
    if (auto space = stateSpaceFromName(w.word))
      return *space;
  return StateSpace::None;
}

Linkage DeclarationSpec::linkage() const {
  for (const auto& w : words)
    if (auto linkage = linkageFromName(w.word))
      return *linkage;
  return Linkage::None;
}

uint64_t DeclarationSpec::alignment() const {
  for (const auto& w : words)
    if (w.word == ".align" && w.value)
      return *w.value;
  return 0;
}

std::optional<ScalarType> DeclarationSpec::type() const {
  for (const auto& w : words)
    if (auto type = scalarTypeFromName(w.word))
      return type;
  return std::nullopt;
}

std::string_view DeclarationSpec::typeWord() const {
  for (const auto& w : words)
    if (scalarTypeFromName(w.word))
      return w.word;
  for (const auto& w : words)
    if (!isStructuralWord(w))
      return w.word;
  return {};
}

unsigned DeclarationSpec::vectorWidth() const {
  for (const auto& w : words)
    if (isVectorWord(w.word))
      return static_cast<unsigned>(std::stoul(std::string(w.word.substr(2))));
  return 1;
}

bool DeclarationSpec::hasWord(std::string_view word) const {
  return std::any_of(words.begin(), words.end(),
                     [&](const DeclarationWord& w) { return w.word == word; });
}

} // namespace ocelot::ir
