// Semantic actions for operands: registers (the fast lookup of `%r<N>` elements), symbols,
// vectors, argument lists and addresses.

#include "ir/parser/IndexedName.h"
#include "ir/parser/ParseContext.h"

#include <algorithm>
#include <cstring>
#include <iterator>

namespace ocelot::ir::detail {

namespace {

/// `%tid.x` -> {"%tid", X}; `%r1` -> {"%r1", None}.
std::pair<std::string_view, VectorComponent> splitComponent(std::string_view text) {
  for (size_t dot = 0; dot < text.size(); ++dot) // names are short: no library call
    if (text[dot] == '.')
      return {text.substr(0, dot), vectorComponentFromName(text.substr(dot + 1))};
  return {text, VectorComponent::None};
}

/// Up to 8 characters packed into one word, zero-padded (what PackedRange keys are).
uint64_t packPrefix(const char* text, size_t length) {
  uint64_t key = 0;
  for (size_t i = 0; i < length; ++i)
    key |= static_cast<uint64_t>(static_cast<unsigned char>(text[i])) << (8 * i);
  return key;
}

} // namespace

// --- Operands ---------------------------------------------------------------------------------

std::optional<uint32_t> ParseContext::findRange(std::string_view prefix) const {
  auto it = registerRanges_.find(prefix);
  if (it == registerRanges_.end() || it->second.empty())
    return std::nullopt;
  return it->second.back();
}

namespace {

/// The first min(8, size) characters of `name`, packed into one word (no read past the name).
uint64_t firstEight(std::string_view name) {
  uint64_t word = 0;
  const char* p = name.data();
  switch (std::min<size_t>(name.size(), 8)) {
  case 8:
    std::memcpy(&word, p, 8);
    break;
  case 7:
    std::memcpy(&word, p, 7);
    break;
  case 6:
    std::memcpy(&word, p, 6);
    break;
  case 5:
    std::memcpy(&word, p, 5);
    break;
  case 4:
    std::memcpy(&word, p, 4);
    break;
  case 3:
    std::memcpy(&word, p, 3);
    break;
  case 2:
    std::memcpy(&word, p, 2);
    break;
  case 1:
    std::memcpy(&word, p, 1);
    break;
  default:
    break;
  }
  return word;
}

} // namespace

std::optional<RegisterRef> ParseContext::lookupRegister(std::string_view name) const {
  // Fast path for the common case, an element of a `%r<N>` range with a short prefix and no named
  // register that could shadow it: the name's first eight characters in one word, compared with
  // the prefixes of the ranges seen last; what follows the prefix must be the index (1 to 9
  // digits, no leading zero). The cached prefixes end in a non-digit, so the index is the name's
  // whole trailing digit run, as in lookupRegisterUncached. Everything else takes that route.
  if (indexedNamedRegisters_ == 0) {
    uint64_t word = firstEight(name);
    for (size_t i = 0; i < packedRanges_.size(); ++i) {
      const PackedRange& range = packedRanges_[i];
      if ((word & range.mask) != range.key || range.length >= name.size())
        continue;
      const char* digit = name.data() + range.length;
      const char* end = name.data() + name.size();
      if (end - digit > 9 || (*digit == '0' && end - digit > 1))
        continue;
      uint32_t index = 0;
      for (; digit < end; ++digit) {
        unsigned value = static_cast<unsigned char>(*digit) - '0';
        if (value > 9)
          break;
        index = index * 10 + value;
      }
      if (digit != end)
        continue; // another prefix may fit (`%r` and `%rd`)
      if (index >= range.count)
        break;
      RegisterRef found{range.declarator, index};
      if (i > 0) // the ranges used most move to the front
        std::swap(packedRanges_[i], packedRanges_[i - 1]);
      return found;
    }
  }
  std::optional<RegisterRef> found = lookupRegisterUncached(name);
  if (found && indexedNamedRegisters_ == 0) {
    const RegisterDeclarator& d = function_->registerDeclarators()[found->declarator];
    if (d.parameterized && !d.name.empty() && d.name.size() <= 8 && d.count > 0 &&
        (d.name.back() < '0' || d.name.back() > '9')) {
      uint64_t mask = d.name.size() == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * d.name.size())) - 1;
      packedRanges_[packedRangesNext_++ % packedRanges_.size()] =
          PackedRange{packPrefix(d.name.data(), d.name.size()), mask, found->declarator, d.count,
                      static_cast<uint32_t>(d.name.size())};
    }
  }
  return found;
}

std::optional<RegisterRef> ParseContext::lookupRegisterUncached(std::string_view name) const {
  // Most registers are elements of a %r<N> range: look there first.
  if (auto split = splitIndexedName(name)) {
    if (auto id = findRange(split->first);
        id && split->second < function_->registerDeclarators()[*id].count) {
      if (indexedNamedRegisters_ > 0) {
        // A named register of an inner scope shadows the range element of the same name.
        auto named = namedRegisters_.find(name);
        if (named != namedRegisters_.end() && !named->second.empty() &&
            function_->registerDeclarators()[named->second.back()].scope >=
                function_->registerDeclarators()[*id].scope)
          return RegisterRef{named->second.back(), 0};
      }
      return RegisterRef{*id, split->second};
    }
  }
  if (auto it = namedRegisters_.find(name); it != namedRegisters_.end() && !it->second.empty())
    return RegisterRef{it->second.back(), 0};
  return std::nullopt;
}

void ParseContext::pushRegister(std::string_view text, bool negated, SourceRange at) {
  requireFunctionBody(at, "a register");
  auto [name, component] = splitComponent(text);
  // Selectors with digits are the video instructions' (.b0-.b3, .h0, .h1); the SIMD forms' other
  // selectors and masks (.b3210, .h10...) have no representation, so they are not dropped silently.
  if (component == VectorComponent::None && name.size() < text.size() &&
      std::any_of(text.begin() + static_cast<std::ptrdiff_t>(name.size()), text.end(),
                  [](char c) { return c >= '0' && c <= '9'; }))
    fail(at, "register selector '" + std::string(text.substr(name.size())) +
                 "' is not supported (only .b0-.b3, .h0 and .h1)");
  if (auto reg = lookupRegister(name)) {
    operands_.emplace_back(RegisterOperand{*reg, component, negated});
    return;
  }
  // A known range with an index past its end is a mistake, not a special register.
  if (auto split = splitIndexedName(name)) {
    auto it = registerRanges_.find(split->first);
    if (it != registerRanges_.end() && !it->second.empty()) {
      const auto& d = function_->registerDeclarators()[it->second.back()];
      fail(at, "register '" + std::string(name) + "' is not declared: " + std::string(d.name) +
                   "<" + std::to_string(d.count) + "> declares " + std::string(d.name) + "0 to " +
                   std::string(d.name) + std::to_string(d.count == 0 ? 0 : d.count - 1));
    }
  }
  // Everything else that starts with '%' is a special register (%tid, %clock64, and those of
  // future PTX versions); the verifier reports names it does not know.
  operands_.emplace_back(SpecialRegisterOperand{intern(name), component, negated});
}

void ParseContext::pushSimpleAddress(std::string_view base, bool hasOffset, int64_t offset,
                                     SourceRange at) {
  beginList();
  if (!base.empty() && base.front() == '%') {
    pushRegister(base, false, at);
    if (operands_.back().is<SpecialRegisterOperand>())
      fail(at, "'" + std::string(base) + "' is not a declared register and cannot be an address");
  } else {
    pushIdentifier(base, false, at);
  }
  endAddress(hasOffset, offset, at);
}

void ParseContext::pushIdentifier(std::string_view name, bool negated, SourceRange at) {
  // Registers without '%' (`p` in inline asm) are rare: without one in scope, a name is a symbol.
  if (function_ != nullptr && !scopes_.empty() && (bareRegisterNames_ > 0 || name[0] == '%')) {
    if (auto reg = lookupRegister(name)) {
      operands_.emplace_back(RegisterOperand{*reg, VectorComponent::None, negated});
      return;
    }
  }
  if (negated)
    fail(at, "'!' must be followed by a predicate register, not '" + std::string(name) + "'");
  operands_.emplace_back(SymbolOperand{intern(name), 0, false, false});
}

void ParseContext::pushBareRegister(std::string_view text, SourceRange at) {
  // Trailing blanks belong to the token.
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
    text.remove_suffix(1);
  auto [name, component] = splitComponent(text);
  if (function_ == nullptr || scopes_.empty() || component == VectorComponent::None ||
      !lookupRegister(name))
    fail(at, "unexpected '" + std::string(text) +
                 "' as an operand (expected a register, a symbol or a value)");
  pushRegister(text, false, at);
}

Operand ParseContext::symbol(std::string_view name, std::optional<ImmediateOperand> offset,
                             SourceRange at) {
  if (!offset)
    return SymbolOperand{intern(name), 0, false, false};
  return SymbolOperand{intern(name), signedValue(*offset, false, at), false, true};
}

Operand ParseContext::generic(std::string_view keyword, std::string_view name,
                              std::optional<ImmediateOperand> offset, SourceRange at) {
  if (keyword != "generic")
    fail(at, "expected 'generic(symbol)', found '" + std::string(keyword) + "(...)'");
  SymbolOperand symbolOperand{intern(name), 0, true, offset.has_value()};
  if (offset)
    symbolOperand.offset = signedValue(*offset, false, at);
  return symbolOperand;
}

void ParseContext::makeDual(SourceRange at) {
  Operand second = std::move(operands_.back());
  operands_.pop_back();
  Operand first = std::move(operands_.back());
  operands_.pop_back();
  for (const Operand* part : {&first, &second})
    if (!part->is<RegisterOperand>() && !part->is<SinkOperand>())
      fail(at, "both sides of '|' must be registers or '_'");
  DualOperand dual;
  dual.parts.reserve(2);
  dual.parts.push_back(std::move(first));
  dual.parts.push_back(std::move(second));
  operands_.push_back(std::move(dual));
}

void ParseContext::beginList() {
  listStarts_.push_back(operands_.size());
}

std::vector<Operand> ParseContext::takeListOperands() {
  size_t start = listStarts_.back();
  listStarts_.pop_back();
  std::vector<Operand> elements(
      std::make_move_iterator(operands_.begin() + static_cast<std::ptrdiff_t>(start)),
      std::make_move_iterator(operands_.end()));
  operands_.resize(start);
  return elements;
}

void ParseContext::endVector() {
  operands_.push_back(VectorOperand{takeListOperands()});
}

void ParseContext::endArgumentList() {
  operands_.push_back(ArgumentListOperand{takeListOperands()});
}

void ParseContext::endAddress(bool hasOffset, int64_t offset, SourceRange at) {
  // The parts are the operands pushed since beginList: the base, then any extra parts. They are
  // replaced in place by the address (no temporary list: most addresses are `[%rd4+8]`).
  size_t start = listStarts_.back();
  listStarts_.pop_back();
  AddressOperand address;
  address.offset = offset;
  address.explicitOffset = hasOffset;
  const Operand& base = operands_[start];
  if (auto* reg = base.getIf<RegisterOperand>()) {
    address.base = *reg;
  } else if (auto* sym = base.getIf<SymbolOperand>()) {
    address.base = *sym;
  } else if (auto* imm = base.getIf<ImmediateOperand>(); imm && !imm->isFloat() && !imm->negative) {
    address.base = AddressOperand::Absolute{imm->magnitude};
  } else {
    fail(at, "an address must start with a register, a variable or a non-negative integer");
  }
  auto extra = operands_.begin() + static_cast<std::ptrdiff_t>(start + 1);
  address.extra.assign(std::make_move_iterator(extra), std::make_move_iterator(operands_.end()));
  operands_.resize(start);
  operands_.push_back(std::move(address));
}

} // namespace ocelot::ir::detail
