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

IntegerValues::IntegerValues(std::initializer_list<int64_t> values) {
  for (int64_t value : values)
    push_back(value);
}

namespace {

/// log2 of the bytes `value` needs in a packed list.
uint8_t shiftFor(int64_t value) {
  if (value < 0 || value > int64_t{0xffffffff})
    return 3;
  if (value > 0xffff)
    return 2;
  return value > 0xff ? 1 : 0;
}

} // namespace

void IntegerValues::pushWide(int64_t value) {
  uint8_t shift = shiftFor(value);
  if (shift > shift_)
    widen(shift);
  size_t at = bytes_.size();
  bytes_.resize(at + (size_t{1} << shift_));
  switch (shift_) {
  case 0:
    bytes_[at] = static_cast<uint8_t>(value);
    break;
  case 1: {
    auto narrow = static_cast<uint16_t>(value);
    std::memcpy(&bytes_[at], &narrow, sizeof narrow);
    break;
  }
  case 2: {
    auto narrow = static_cast<uint32_t>(value);
    std::memcpy(&bytes_[at], &narrow, sizeof narrow);
    break;
  }
  default:
    std::memcpy(&bytes_[at], &value, sizeof value);
    break;
  }
}

void IntegerValues::widen(uint8_t shift) {
  IntegerValues wider;
  wider.shift_ = shift;
  wider.bytes_.reserve((size() + 1) << shift);
  for (int64_t value : *this)
    wider.pushWide(value);
  *this = std::move(wider);
}

void IntegerValues::append(const IntegerValues& other) {
  if (other.shift_ == shift_) {
    bytes_.insert(bytes_.end(), other.bytes_.begin(), other.bytes_.end());
    return;
  }
  if (other.shift_ > shift_)
    widen(other.shift_);
  reserve(size() + other.size());
  for (int64_t value : other)
    pushWide(value);
}

void IntegerValues::appendBytes(const uint8_t* values, size_t count) {
  if (shift_ == 0) {
    bytes_.insert(bytes_.end(), values, values + count);
    return;
  }
  for (size_t i = 0; i < count; ++i)
    pushWide(values[i]);
}

bool operator==(const IntegerValues& a, const IntegerValues& b) {
  if (a.shift_ == b.shift_)
    return a.bytes_ == b.bytes_;
  // Lists are always stored at the narrowest width, but compare values to be safe.
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

bool operator==(const IntegerValues& a, const std::vector<int64_t>& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

Initializer Initializer::integers(std::vector<int64_t> values) {
  IntegerValues packed;
  packed.reserve(values.size());
  for (int64_t value : values)
    packed.push_back(value);
  return integers(std::move(packed));
}

Initializer Initializer::integers(IntegerValues values) {
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
