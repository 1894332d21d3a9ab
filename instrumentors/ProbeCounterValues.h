// What a counter's address holds where a probe updates it
// (instrumentors/ProbeCounterPromotion.cpp): values followed exactly through their definitions, the
// same in every execution of one thread, as offsets from the probe buffer. Internal to
// ProbeCounterPromotion.cpp.
#pragma once

#include "ir/Casting.h"
#include "ir/IRBuilder.h"
#include "ir/Module.h"
#include "ir/RegisterAccess.h"
#include "passes/ControlFlowGraph.h"
#include "passes/DefUseChains.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace ocelot::instrumentors::counter_values {

using ir::IRBuilder;
using ir::Operand;
using ir::RegisterRef;
using ir::ScalarType;
using Node = passes::ControlFlowGraph::Node;

/// Offsets from the buffer at or above this are treated as unbounded (no wrap-around to reason
/// about; probe buffers are far smaller).
inline constexpr int64_t kOffsetLimit = int64_t{1} << 48;

/// How the buffer's address is loaded in the function: `ld.param.u64 %r, [symbol+offset]`.
struct BufferLoad {
  std::string symbol;
  int64_t offset = 0;
};

/// What a register holds where it is read, followed exactly through its definitions: a value
/// that is the same in every execution of one thread (immediates, the buffer's address, special
/// registers fixed for the thread's lifetime, and integer arithmetic on them).
struct Value {
  enum class Kind : uint8_t { Constant, Computed } kind = Kind::Computed;
  int64_t constant = 0;
  /// Computed: the instruction that computes it (cloned to compute it again elsewhere), and the
  /// values of its source operands (index i - 1 for operand i; nullptr where the operand is
  /// copied as it is).
  const ir::Instruction* definition = nullptr;
  std::vector<std::shared_ptr<const Value>> sources;
  std::string key;           ///< equal keys: equal values in a thread
  bool hasBuffer = false;    ///< the value is the buffer's address plus [low, high]
  bool bounded = false;      ///< [low, high] holds (else nothing is known of its range)
  int64_t low = 0, high = 0; ///< within (-2^48, 2^48) where bounded
};
using ValuePtr = std::shared_ptr<const Value>;

inline bool isIntegerType(ScalarType type) {
  switch (type) {
  case ScalarType::B16:
  case ScalarType::B32:
  case ScalarType::B64:
  case ScalarType::U16:
  case ScalarType::U32:
  case ScalarType::U64:
  case ScalarType::S16:
  case ScalarType::S32:
  case ScalarType::S64:
    return true;
  default:
    return false;
  }
}

/// `value` as the result of an operation of `bits` bits of `type` (two's complement wrap).
inline int64_t wrap(uint64_t value, unsigned bits, bool isSigned) {
  if (bits >= 64)
    return static_cast<int64_t>(value);
  uint64_t mask = (uint64_t{1} << bits) - 1;
  uint64_t v = value & mask;
  if (isSigned && (v >> (bits - 1)) != 0)
    v |= ~mask;
  return static_cast<int64_t>(v);
}

inline ValuePtr constantValue(int64_t c) {
  auto v = std::make_shared<Value>();
  v->kind = Value::Kind::Constant;
  v->constant = c;
  v->key = "#" + std::to_string(c);
  v->bounded = c > -kOffsetLimit && c < kOffsetLimit;
  v->low = v->high = v->bounded ? c : 0;
  return v;
}

/// A special register whose value a thread keeps from its start to its end, and its largest value.
inline std::optional<uint64_t> threadConstantSpecial(const ir::SpecialRegisterOperand& special) {
  if (special.negated)
    return std::nullopt;
  if (special.name == "%laneid")
    return 31;
  if (special.name == "%ctaid" || special.name == "%tid" || special.name == "%ntid" ||
      special.name == "%nctaid")
    return special.component == ir::VectorComponent::None ? std::nullopt
                                                          : std::optional<uint64_t>(0xffffffffu);
  return std::nullopt;
}

/// Follows registers to their definitions (DefUseChains) and computes their values.
class Evaluator {
public:
  Evaluator(const ir::Function& function, const passes::DefUseChains& chains,
            const BufferLoad& load)
      : function_(function), chains_(chains), load_(load) {}

  /// The value `reg` holds where `reader` reads it: every definition that may reach the read
  /// computes the same value. nullptr when that cannot be shown.
  ValuePtr at(const ir::Instruction& reader, RegisterRef reg) {
    std::vector<passes::DefinitionSite> definitions = chains_.reachingDefinitions(reader, reg);
    if (definitions.empty())
      return nullptr;
    ValuePtr result;
    for (const passes::DefinitionSite& site : definitions) {
      if (site.instruction == nullptr)
        return nullptr; // a parameter or an undefined value
      ValuePtr v = defined(*site.instruction);
      if (!v || (result && result->key != v->key))
        return nullptr;
      result = v;
    }
    return result;
  }

  /// Whether `inst` loads the buffer's address.
  bool isBufferLoad(const ir::Instruction& inst) const {
    const ir::InstructionForm& form = inst.form();
    if (form.opcode() != ir::Opcode::Ld || form.stateSpace() != ir::StateSpace::Param ||
        form.modifiers().size() != 2 || inst.operands().size() != 2 || inst.guard())
      return false;
    auto type = form.lastType();
    if (!type || ir::scalarTypeBits(*type) != 64 || !isIntegerType(*type))
      return false;
    const auto* address = inst.operands()[1].getIf<ir::AddressOperand>();
    if (address == nullptr || !address->extra.empty())
      return false;
    const auto* symbol = std::get_if<ir::SymbolOperand>(&address->base);
    return symbol != nullptr && !symbol->generic && symbol->name == load_.symbol &&
           symbol->offset + address->offset == load_.offset;
  }

private:
  ValuePtr defined(const ir::Instruction& definition) {
    auto known = memo_.find(&definition);
    if (known != memo_.end())
      return known->second;
    // A cycle (a register defined from itself) or a chain too long to follow: not a constant.
    if (active_.contains(&definition) || active_.size() > 64)
      return nullptr;
    active_.insert(&definition);
    ValuePtr v = compute(definition);
    active_.erase(&definition);
    memo_[&definition] = v;
    return v;
  }

  ValuePtr compute(const ir::Instruction& def) {
    const ir::InstructionForm& form = def.form();
    const auto& ops = def.operands();
    if (def.guard() || ops.size() < 2)
      return nullptr;
    const auto* destination = ops[0].getIf<ir::RegisterOperand>();
    if (destination == nullptr || destination->component != ir::VectorComponent::None ||
        !function_.declaratorOf(destination->reg).type)
      return nullptr;
    if (isBufferLoad(def)) {
      auto v = std::make_shared<Value>();
      v->definition = &def;
      v->sources.assign(ops.size() - 1, nullptr);
      v->key = "buffer";
      v->hasBuffer = v->bounded = true;
      return v;
    }
    const ir::Opcode opcode = form.opcode();
    const auto& modifiers = form.modifiers();
    auto type = form.lastType();
    if (!type || !isIntegerType(*type))
      return nullptr;
    unsigned bits = ir::scalarTypeBits(*type);
    bool isSigned = ir::isSignedIntegerType(*type);
    size_t expectedModifiers = 1;
    switch (opcode) {
    case ir::Opcode::Mov:
    case ir::Opcode::Add:
    case ir::Opcode::Sub:
    case ir::Opcode::Shl:
    case ir::Opcode::And:
      break;
    case ir::Opcode::Mul:
      if (modifiers.empty() || (modifiers[0] != "lo" && modifiers[0] != "wide"))
        return nullptr;
      if (modifiers[0] == "wide")
        bits *= 2;
      expectedModifiers = 2;
      break;
    case ir::Opcode::Cvt: {
      // Integer to integer, without rounding or saturation.
      auto to = form.firstType();
      if (!to || !isIntegerType(*to))
        return nullptr;
      bits = ir::scalarTypeBits(*to);
      isSigned = ir::isSignedIntegerType(*to);
      expectedModifiers = 2;
      break;
    }
    default:
      return nullptr;
    }
    if (modifiers.size() != expectedModifiers)
      return nullptr;
    const size_t sourceCount = opcode == ir::Opcode::Mov || opcode == ir::Opcode::Cvt ? 1 : 2;
    if (ops.size() != 1 + sourceCount)
      return nullptr;

    if (opcode == ir::Opcode::Mov) {
      if (const auto* special = ops[1].getIf<ir::SpecialRegisterOperand>()) {
        auto largest = threadConstantSpecial(*special);
        if (!largest)
          return nullptr;
        auto v = std::make_shared<Value>();
        v->definition = &def;
        v->sources.assign(1, nullptr);
        v->key = std::string(form.spelling()) + " " + std::string(special->name) + "." +
                 std::string(ir::vectorComponentName(special->component));
        v->bounded = true;
        v->high = *largest;
        return v;
      }
    }

    std::vector<ValuePtr> sources;
    for (size_t i = 1; i < ops.size(); ++i) {
      if (const auto* reg = ops[i].getIf<ir::RegisterOperand>()) {
        if (reg->component != ir::VectorComponent::None || reg->negated)
          return nullptr;
        ValuePtr v = at(def, reg->reg);
        if (!v)
          return nullptr;
        sources.push_back(v);
      } else if (const auto* imm = ops[i].getIf<ir::ImmediateOperand>()) {
        if (imm->isFloat())
          return nullptr;
        sources.push_back(constantValue(imm->integerValue()));
      } else {
        return nullptr;
      }
    }
    if (opcode == ir::Opcode::Mov)
      return sources[0];

    const Value& a = *sources[0];
    const Value* b = sourceCount > 1 ? sources[1].get() : nullptr;
    bool allConstant =
        a.kind == Value::Kind::Constant && (b == nullptr || b->kind == Value::Kind::Constant);
    if (allConstant) {
      // Two's complement arithmetic, as the instruction does it.
      const uint64_t x = static_cast<uint64_t>(a.constant);
      const uint64_t y = b != nullptr ? static_cast<uint64_t>(b->constant) : 0;
      uint64_t r = 0;
      switch (opcode) {
      case ir::Opcode::Add:
        r = x + y;
        break;
      case ir::Opcode::Sub:
        r = x - y;
        break;
      case ir::Opcode::Mul:
        r = x * y;
        break;
      case ir::Opcode::Shl:
        r = y >= static_cast<uint64_t>(bits) ? 0 : x << y;
        break;
      case ir::Opcode::And:
        r = x & y;
        break;
      default: // Cvt
        r = x;
        break;
      }
      return constantValue(wrap(r, bits, isSigned));
    }

    auto v = std::make_shared<Value>();
    v->definition = &def;
    v->sources = sources;
    v->key = std::string(form.spelling()) + "(" + a.key + (b != nullptr ? "," + b->key : "") + ")";
    const bool bothBounded = a.bounded && (b == nullptr || b->bounded);
    switch (opcode) {
    case ir::Opcode::Add:
      if (a.hasBuffer && b->hasBuffer)
        return nullptr;
      v->hasBuffer = a.hasBuffer || b->hasBuffer;
      v->bounded = bothBounded;
      if (v->bounded) {
        v->low = a.low + b->low;
        v->high = a.high + b->high;
      }
      break;
    case ir::Opcode::Sub:
      if (b->hasBuffer)
        return nullptr;
      v->hasBuffer = a.hasBuffer;
      v->bounded = bothBounded;
      if (v->bounded) {
        v->low = a.low - b->high;
        v->high = a.high - b->low;
      }
      break;
    case ir::Opcode::Mul:
      if (a.hasBuffer || b->hasBuffer)
        return nullptr;
      v->bounded = bothBounded && a.low >= 0 && b->low >= 0 &&
                   (a.high == 0 || b->high < kOffsetLimit / a.high);
      if (v->bounded) {
        v->low = a.low * b->low;
        v->high = a.high * b->high;
      }
      break;
    case ir::Opcode::Shl:
      if (a.hasBuffer || b->hasBuffer)
        return nullptr;
      v->bounded = bothBounded && b->kind == Value::Kind::Constant && b->constant >= 0 &&
                   b->constant < 48 && a.low >= 0 && a.high < (kOffsetLimit >> b->constant);
      if (v->bounded) {
        v->low = a.low << b->constant;
        v->high = a.high << b->constant;
      }
      break;
    case ir::Opcode::And:
      if (a.hasBuffer || b->hasBuffer)
        return nullptr;
      // A non-negative operand bounds the result.
      v->bounded = (a.bounded && a.low >= 0) || (b->bounded && b->low >= 0);
      v->low = 0;
      v->high = kOffsetLimit;
      if (a.bounded && a.low >= 0)
        v->high = std::min(v->high, a.high);
      if (b->bounded && b->low >= 0)
        v->high = std::min(v->high, b->high);
      break;
    default: // Cvt
      if (a.hasBuffer)
        return nullptr;
      v->bounded = a.bounded && a.low >= 0;
      v->low = a.low;
      v->high = a.high;
      break;
    }
    // A result that might wrap around its width, or that is too large to reason about, has no
    // known range.
    // known range. Ranges are of non-negative values.
    const int64_t top = bits >= 49 ? kOffsetLimit : int64_t{1} << (bits - (isSigned ? 1 : 0));
    if (v->bounded && (v->low < 0 || v->high >= top))
      v->bounded = false;
    return v;
  }

  const ir::Function& function_;
  const passes::DefUseChains& chains_;
  const BufferLoad& load_;
  std::unordered_map<const ir::Instruction*, ValuePtr> memo_;
  std::unordered_set<const ir::Instruction*> active_;
};

} // namespace ocelot::instrumentors::counter_values
