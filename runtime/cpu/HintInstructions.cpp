// Instructions that only hint the memory system or the scheduler (prefetch, createpolicy,
// griddepcontrol...): nothing to do on this device. cp.async (the non-bulk form) is a plain copy
// into shared memory here, complete when it issues, so its commit/wait instructions are no-ops.

#include "runtime/cpu/InstructionDecoders.h"
#include "runtime/cpu/LaneValues.h"
#include "runtime/cpu/MemoryAccess.h"
#include "runtime/cpu/SupportHandlers.h"

#include <cstring>

namespace ocelot::runtime::cpu {

bool decodeAddressOperand(DecodeContext& c, size_t index, ir::StateSpace space);

namespace {

/// cp.async.{ca,cg}.shared.global [dst], [src], size{, src-size}: op[8] destination address,
/// op[1] source address row (imm2 in aux2 as a signed offset), op[2] source size or kNone.
bool executeAsyncCopy(ExecutionContext& c, const DecodedInstruction& in, LaneMask m) {
  const uint32_t size = in.aux >> 8;
  bool ok = true;
  forEachLane(m, [&](uint32_t lane) {
    if (!ok)
      return;
    const uint64_t destination = laneAddress(c, in, in.op[8], lane);
    const uint64_t source = c.row(in.op[1])[lane] + static_cast<int32_t>(in.aux2);
    uint32_t copied = size;
    if (in.op[2] != kNone)
      copied = std::min<uint32_t>(size, static_cast<uint32_t>(c.row(in.op[2])[lane]));
    std::byte* to = resolveAddress(c, MemorySpace::Shared, destination, size, lane);
    if (to == nullptr) {
      ok = false;
      return;
    }
    std::memset(to, 0, size);
    if (copied == 0)
      return;
    std::byte* from = resolveAddress(c, MemorySpace::Global, source, copied, lane);
    if (from == nullptr) {
      ok = false;
      return;
    }
    std::memcpy(to, from, copied);
  });
  return ok;
}

} // namespace

bool decodeHint(DecodeContext& c) {
  (void)c;
  c.out.execute = &executeNop;
  return true;
}

bool decodeAsyncCopy(DecodeContext& c) {
  if (c.opcode() != ir::Opcode::Cp || !c.has("async") || c.has("bulk") || c.has("tensor"))
    return c.unsupported();
  if (c.has("commit_group") || c.has("wait_group") || c.has("wait_all")) {
    c.out.execute = &executeNop;
    return true;
  }
  if (c.has("mbarrier"))
    return c.unsupported("mbarrier");
  if (c.operandCount() < 3)
    return c.fail("cp.async needs a destination, a source and a size");
  const auto* size = c.operand(2).getIf<ir::ImmediateOperand>();
  if (size == nullptr || (size->magnitude != 4 && size->magnitude != 8 && size->magnitude != 16))
    return c.fail("cp.async copies 4, 8 or 16 bytes");
  if (!decodeAddressOperand(c, 0, ir::StateSpace::Shared))
    return false;
  auto source = c.operands.address(c.operand(1), ir::StateSpace::Global);
  if (!source || source->frameRelative)
    return c.fail("bad cp.async source");
  c.out.op[1] = source->row;
  c.out.aux2 = static_cast<uint32_t>(static_cast<int32_t>(source->offset));
  c.out.aux = (c.out.aux & 0xff) | static_cast<uint32_t>(size->magnitude << 8);
  c.out.op[2] = c.operandCount() > 3 && !c.operand(3).is<ir::SymbolOperand>()
                    ? c.source(3, ir::ScalarType::U32)
                    : kNone;
  c.out.execute = &executeAsyncCopy;
  c.out.memoryAccess = true;
  return c.ok();
}

} // namespace ocelot::runtime::cpu
