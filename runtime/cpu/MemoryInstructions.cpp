// Loads and stores in every state space (ld, ldu, st; scalars and .v2/.v4/.v8 vectors) and the
// memory fences, which need no work on a device whose CTAs share the host's coherent memory.

#include "runtime/cpu/ImmediateValues.h"
#include "runtime/cpu/InstructionDecoders.h"
#include "runtime/cpu/LaneValues.h"
#include "runtime/cpu/MemoryAccess.h"
#include "runtime/cpu/SupportHandlers.h"

#include <cstring>
#include <type_traits>

namespace ocelot::runtime::cpu {
namespace {

/// Where a load/store keeps its address row (op[0..7] are the values).
constexpr size_t kAddressOperand = 8;

template <class T, uint32_t N>
bool executeLoad(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const auto space = static_cast<MemorySpace>(in.aux);
  const uint32_t addressRow = in.op[kAddressOperand];
  bool ok = true;
  // Values go to a buffer first: a destination may also be the address register.
  alignas(64) uint64_t values[N][kWarpSize];
  forLanes(m, [&](uint32_t lane) {
    if (!ok)
      return;
    const uint64_t address = laneAddress(c, in, addressRow, lane);
    std::byte* host = resolveAddress(c, space, address, sizeof(T) * N, lane);
    if (host == nullptr) {
      // Vector accesses need only element alignment.
      if (c.fault.kind == FaultKind::MisalignedAddress && N > 1 && address % sizeof(T) == 0) {
        c.fault = {};
        host = resolveAddress(c, space, address, sizeof(T), lane);
        if (host != nullptr)
          host = resolveAddress(c, space, address + sizeof(T) * (N - 1), sizeof(T), lane) != nullptr
                     ? host
                     : nullptr;
      }
      if (host == nullptr) {
        ok = false;
        return;
      }
    }
    for (uint32_t i = 0; i < N; ++i) {
      T value;
      std::memcpy(&value, host + i * sizeof(T), sizeof(T));
      values[i][lane] = rowBits(value);
    }
  });
  if (!ok)
    return false;
  for (uint32_t i = 0; i < N; ++i) {
    uint64_t* destination = c.row(in.op[i]);
    forLanes(m, [&](uint32_t lane) { destination[lane] = values[i][lane]; });
  }
  return true;
}

template <class T, uint32_t N>
bool executeStore(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const auto space = static_cast<MemorySpace>(in.aux);
  const uint32_t addressRow = in.op[kAddressOperand];
  bool ok = true;
  forEachLane(m, [&](uint32_t lane) {
    if (!ok)
      return;
    const uint64_t address = laneAddress(c, in, addressRow, lane);
    std::byte* host = resolveAddress(c, space, address, sizeof(T) * N, lane);
    if (host == nullptr && c.fault.kind == FaultKind::MisalignedAddress && N > 1 &&
        address % sizeof(T) == 0) {
      c.fault = {};
      host = resolveAddress(c, space, address, sizeof(T), lane);
      if (host != nullptr &&
          resolveAddress(c, space, address + sizeof(T) * (N - 1), sizeof(T), lane) == nullptr)
        host = nullptr;
    }
    if (host == nullptr) {
      ok = false;
      return;
    }
    for (uint32_t i = 0; i < N; ++i) {
      const T value = static_cast<T>(c.row(in.op[i])[lane]);
      std::memcpy(host + i * sizeof(T), &value, sizeof(T));
    }
  });
  return ok;
}

template <class T> ExecuteFn loadFor(uint32_t width, bool store) {
  switch (width) {
  case 1:
    return store ? &executeStore<T, 1> : &executeLoad<T, 1>;
  case 2:
    return store ? &executeStore<T, 2> : &executeLoad<T, 2>;
  case 4:
    return store ? &executeStore<T, 4> : &executeLoad<T, 4>;
  case 8:
    return store ? &executeStore<T, 8> : &executeLoad<T, 8>;
  default:
    return nullptr;
  }
}

ExecuteFn selectAccess(ir::ScalarType type, uint32_t width, bool store) {
  const uint32_t bytes = scalarTypeBytes(type);
  const bool isSigned = ir::isSignedIntegerType(type);
  switch (bytes) {
  case 1:
    return isSigned ? loadFor<int8_t>(width, store) : loadFor<uint8_t>(width, store);
  case 2:
    return isSigned ? loadFor<int16_t>(width, store) : loadFor<uint16_t>(width, store);
  case 4:
    return isSigned ? loadFor<int32_t>(width, store) : loadFor<uint32_t>(width, store);
  case 8:
    return isSigned ? loadFor<int64_t>(width, store) : loadFor<uint64_t>(width, store);
  default:
    return nullptr;
  }
}

} // namespace

/// Fills op[kAddressOperand], imm, aux (space) and frameRelative from an address operand.
bool decodeAddressOperand(DecodeContext& c, size_t index, ir::StateSpace space) {
  auto address = c.operands.address(c.operand(index), space);
  if (!address)
    return c.fail(c.operands.error().empty() ? "bad address" : c.operands.error());
  c.out.op[kAddressOperand] = address->row;
  c.out.imm = address->offset;
  c.out.frameRelative = address->frameRelative;
  c.out.aux = static_cast<uint32_t>(address->space);
  return true;
}

bool decodeMemory(DecodeContext& c) {
  using Op = ir::Opcode;
  const Op opcode = c.opcode();
  if (opcode == Op::Membar || opcode == Op::Fence) {
    if (c.has("proxy") && (c.has("async") || c.has("tensormap")))
      return c.unsupported("async proxy fences");
    c.out.execute = &executeNop;
    return true;
  }
  const auto type = c.type();
  if (!type)
    return c.fail("no type");
  if (*type == ir::ScalarType::B128)
    return c.unsupported(".b128 accesses");
  const bool store = opcode == Op::St;
  if (!c.expectOperands(2))
    return false;
  const uint32_t width = c.form.vectorWidth();
  ExecuteFn execute = selectAccess(*type, width, store);
  if (execute == nullptr)
    return c.unsupported("access width");
  ir::StateSpace space = c.form.stateSpace();
  if (!decodeAddressOperand(c, store ? 0 : 1, space))
    return false;
  const ir::Operand& values = c.operand(store ? 1 : 0);
  if (width > 1) {
    const auto* vector = values.getIf<ir::VectorOperand>();
    if (vector == nullptr || vector->elements.size() != width)
      return c.fail("vector access needs a vector of " + std::to_string(width) + " registers");
    for (uint32_t i = 0; i < width; ++i)
      c.out.op[i] = store ? c.operands.source(vector->elements[i], *type)
                          : c.operands.destination(vector->elements[i]);
  } else {
    c.out.op[0] = store ? c.source(1, *type) : c.destination(0);
  }
  c.out.execute = execute;
  c.out.memoryAccess = true;
  return c.ok();
}

} // namespace ocelot::runtime::cpu
