// CTA barriers (bar, barrier): the executor parks the warp at Control::Barrier until every warp of
// the CTA (or the barrier's thread count) has arrived; bar.red reduces a predicate over them.

#include "runtime/cpu/InstructionDecoders.h"
#include "runtime/cpu/SupportHandlers.h"

namespace ocelot::runtime::cpu {

bool decodeBarrier(DecodeContext& c) {
  // Warps run in lockstep here: bar.warp.sync is always satisfied.
  if (c.has("warp")) {
    c.out.execute = &executeNop;
    return true;
  }
  // bar{.cta}.sync / barrier{.cta}.sync{.aligned} a{, b}; bar.arrive a, b;
  // bar.red.popc.u32 d, a{, b}, {!}c; bar.red.{and,or}.pred p, a{, b}, {!}c.
  uint32_t flags = 0;
  if (c.has("aligned") || c.opcode() == ir::Opcode::Bar)
    flags |= kBarrierAligned;
  size_t first = 0;
  if (c.has("red")) {
    flags |= kBarrierWait | kBarrierReduce;
    if (c.has("popc"))
      flags |= kBarrierRedPopc;
    else if (c.has("and"))
      flags |= kBarrierRedAnd;
    else if (c.has("or"))
      flags |= kBarrierRedOr;
    else
      return c.unsupported("barrier reduction");
    if (c.operandCount() < 3)
      return c.fail("bar.red needs a destination, a barrier and a predicate");
    c.out.op[2] = (flags & kBarrierRedPopc) ? c.destination(0) : c.predicateDestination(0);
    c.out.op[3] = c.predicateSource(c.operandCount() - 1);
    first = 1;
  } else if (!c.has("arrive")) {
    flags |= kBarrierWait;
  }
  const size_t last = (flags & kBarrierReduce) ? c.operandCount() - 1 : c.operandCount();
  c.out.op[0] =
      first < last ? c.source(first, ir::ScalarType::U32) : c.operands.builder().zeroRow();
  c.out.op[1] = first + 1 < last ? c.source(first + 1, ir::ScalarType::U32) : kNone;
  c.out.aux = flags;
  c.out.control = Control::Barrier;
  return c.ok();
}

} // namespace ocelot::runtime::cpu
