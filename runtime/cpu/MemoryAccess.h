#pragma once

#include "runtime/cpu/DeviceMemory.h"
#include "runtime/cpu/ExecutionContext.h"
#include "runtime/cpu/OperandDecoder.h"

#include <cstddef>
#include <cstdint>

namespace ocelot::runtime::cpu {

/// Resolves the address of one lane's access of `size` bytes in state space `space` to a host
/// pointer, or records a fault and returns nullptr. Every state space is checked on every access:
/// shared and local against their buffers, global against the arena (exactly against the live
/// allocations under OCELOT_MEMCHECK), alignment always, as a GPU does.
inline std::byte* resolveAddress(ExecutionContext& c, MemorySpace space, uint64_t address,
                                 uint32_t size, uint32_t lane) {
  if (size > 1 && (address & (size - 1)) != 0) {
    c.fail(FaultKind::MisalignedAddress, lane, address, size,
           space == MemorySpace::Shared  ? "shared"
           : space == MemorySpace::Local ? "local"
                                         : "global");
    return nullptr;
  }
  if (space == MemorySpace::Generic) {
    if (address - c.memory.sharedWindow < DeviceMemory::kWindowSize) {
      address -= c.memory.sharedWindow;
      space = MemorySpace::Shared;
    } else if (address - c.memory.localWindow < DeviceMemory::kWindowSize) {
      address -= c.memory.localWindow;
      space = MemorySpace::Local;
    } else {
      space = MemorySpace::Global;
    }
  }
  switch (space) {
  case MemorySpace::Shared:
    if (address + size <= c.sharedSize && address < c.sharedSize)
      return c.shared + address;
    c.fail(FaultKind::IllegalAddress, lane, address, size, "shared");
    return nullptr;
  case MemorySpace::Local:
    if (address + size <= c.localSize && address < c.localSize)
      return c.local + size_t{lane} * c.localStride + address;
    c.fail(FaultKind::IllegalAddress, lane, address, size, "local");
    return nullptr;
  default:
    break;
  }
  const uintptr_t host = static_cast<uintptr_t>(address);
  if (!c.memory.checked && host - c.memory.arenaBase < c.memory.arenaSize &&
      size <= c.memory.arenaSize - (host - c.memory.arenaBase))
    return reinterpret_cast<std::byte*>(host);
  if (c.memory.memory != nullptr && c.memory.memory->accessible(host, size))
    return reinterpret_cast<std::byte*>(host);
  c.fail(FaultKind::IllegalAddress, lane, address, size, "global");
  return nullptr;
}

/// The address operand of lane `lane`: base row + offset (+ the frame base).
inline uint64_t laneAddress(const ExecutionContext& c, const DecodedInstruction& in, uint32_t row,
                            uint32_t lane) {
  uint64_t address = c.row(row)[lane] + static_cast<uint64_t>(in.imm);
  if (in.frameRelative)
    address += c.frameBase;
  return address;
}

} // namespace ocelot::runtime::cpu
