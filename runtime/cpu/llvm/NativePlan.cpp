#include "runtime/cpu/llvm/NativePlan.h"

#include <cstring>
#include <type_traits>

namespace ocelot::runtime::cpu::native {
namespace {

class Writer {
public:
  template <class T> void put(T value) {
    static_assert(std::is_trivially_copyable_v<T>);
    char bytes[sizeof(T)];
    std::memcpy(bytes, &value, sizeof(T));
    out_.append(bytes, sizeof(T));
  }
  void put(const std::vector<uint32_t>& values) {
    put(static_cast<uint64_t>(values.size()));
    for (uint32_t value : values)
      put(value);
  }
  std::string take() { return std::move(out_); }

private:
  std::string out_;
};

} // namespace

std::string serialize(const Plan& plan) {
  // Field by field (never whole structs: padding bytes are not part of a plan).
  Writer w;
  w.put(kPlanVersion);
  w.put(plan.layout.instructionSize);
  w.put(plan.layout.executeOffset);
  w.put(plan.layout.immOffset);
  w.put(plan.layout.stateSize);
  w.put(plan.layout.stackCapacity);
  w.put(plan.layout.windowSize);
  w.put(plan.predicateCount);
  w.put(plan.truePredicate);
  w.put(plan.falsePredicate);
  w.put(static_cast<uint64_t>(plan.rows.size()));
  for (const Row& row : plan.rows) {
    w.put(static_cast<uint8_t>(row.kind));
    w.put(row.bytes);
    w.put(row.value);
  }
  w.put(static_cast<uint64_t>(plan.code.size()));
  for (const Instruction& in : plan.code) {
    w.put(static_cast<uint8_t>(in.op));
    w.put(static_cast<uint8_t>(in.control));
    w.put(in.type.bits);
    w.put(static_cast<uint8_t>(in.type.kind));
    w.put(in.type2.bits);
    w.put(static_cast<uint8_t>(in.type2.kind));
    w.put(static_cast<uint8_t>(in.space));
    w.put(in.vector);
    w.put(static_cast<uint8_t>(in.leader));
    w.put(static_cast<uint8_t>(in.guardNegated));
    w.put(static_cast<uint8_t>(in.immRuntime));
    w.put(in.flags);
    w.put(in.guard);
    w.put(in.target);
    w.put(in.reconverge);
    for (uint32_t value : in.d)
      w.put(value);
    for (uint32_t value : in.s)
      w.put(value);
    for (uint32_t value : in.operands)
      w.put(value);
    // Only native address arithmetic compiles the immediate in; handlers read their own, and a
    // run-time immediate is read from the decoded instruction.
    w.put(usesImmediate(in) ? in.imm : int64_t{0});
    w.put(in.rowUses);
    w.put(in.predicateUses);
    w.put(in.rowDefs);
    w.put(in.predicateDefs);
    w.put(static_cast<uint8_t>(in.knownDefs));
    w.put(in.targets);
    w.put(static_cast<uint8_t>(in.usesEverything));
  }
  return w.take();
}

} // namespace ocelot::runtime::cpu::native
