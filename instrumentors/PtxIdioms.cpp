#include "instrumentors/PtxIdioms.h"

namespace ocelot::instrumentors {

using ir::IRBuilder;
using ir::RegisterRef;
using ir::ScalarType;
using ir::VectorComponent;

ir::Operand guardOperand(const ir::Guard& guard) {
  return ir::RegisterOperand{guard.predicate, VectorComponent::None, guard.negated};
}

WarpGroup warpGroup(IRBuilder& b, std::optional<ir::Guard> guard) {
  RegisterRef active = b.createRegister(ScalarType::B32);
  b.insert("activemask.b32", {IRBuilder::reg(active)});
  RegisterRef mask = active;
  if (guard) {
    // Every active lane takes part in the vote (the membermask is exactly the active lanes).
    mask = b.createRegister(ScalarType::B32);
    b.insert("vote.sync.ballot.b32",
             {IRBuilder::reg(mask), guardOperand(*guard), IRBuilder::reg(active)});
  }
  // lowest = mask & -mask; the leader is the lane whose %lanemask_eq equals it (none when the
  // mask is empty).
  RegisterRef negated = b.createRegister(ScalarType::B32);
  b.insert("neg.s32", {IRBuilder::reg(negated), IRBuilder::reg(mask)});
  RegisterRef lowest =
      b.binary("and", ScalarType::B32, IRBuilder::reg(mask), IRBuilder::reg(negated));
  RegisterRef self = b.mov(ScalarType::U32, b.special("%lanemask_eq"));
  RegisterRef leader =
      b.compare("eq", ScalarType::U32, IRBuilder::reg(lowest), IRBuilder::reg(self));
  return {mask, leader};
}

RegisterRef laneCount(IRBuilder& b, RegisterRef mask) {
  RegisterRef count = b.createRegister(ScalarType::U32);
  b.insert("popc.b32", {IRBuilder::reg(count), IRBuilder::reg(mask)});
  return b.convert(ScalarType::U64, ScalarType::U32, IRBuilder::reg(count));
}

RegisterRef linearCtaId(IRBuilder& b) {
  RegisterRef x = b.readSpecial("%ctaid", VectorComponent::X);
  RegisterRef y = b.readSpecial("%ctaid", VectorComponent::Y);
  RegisterRef z = b.readSpecial("%ctaid", VectorComponent::Z);
  RegisterRef nx = b.readSpecial("%nctaid", VectorComponent::X);
  RegisterRef ny = b.readSpecial("%nctaid", VectorComponent::Y);
  // (z * ny + y) * nx + x
  RegisterRef zy = b.mad(ScalarType::U32, IRBuilder::reg(z), IRBuilder::reg(ny), IRBuilder::reg(y));
  return b.mad(ScalarType::U32, IRBuilder::reg(zy), IRBuilder::reg(nx), IRBuilder::reg(x));
}

RegisterRef linearGlobalThreadId(IRBuilder& b, RegisterRef* totalThreads) {
  RegisterRef tx = b.readSpecial("%tid", VectorComponent::X);
  RegisterRef ty = b.readSpecial("%tid", VectorComponent::Y);
  RegisterRef tz = b.readSpecial("%tid", VectorComponent::Z);
  RegisterRef nx = b.readSpecial("%ntid", VectorComponent::X);
  RegisterRef ny = b.readSpecial("%ntid", VectorComponent::Y);
  RegisterRef nz = b.readSpecial("%ntid", VectorComponent::Z);
  RegisterRef zy =
      b.mad(ScalarType::U32, IRBuilder::reg(tz), IRBuilder::reg(ny), IRBuilder::reg(ty));
  RegisterRef inCta =
      b.mad(ScalarType::U32, IRBuilder::reg(zy), IRBuilder::reg(nx), IRBuilder::reg(tx));
  RegisterRef plane = b.mul(ScalarType::U32, IRBuilder::reg(nx), IRBuilder::reg(ny));
  RegisterRef ctaSize = b.mul(ScalarType::U32, IRBuilder::reg(plane), IRBuilder::reg(nz));
  RegisterRef cta = linearCtaId(b);
  // cta * ctaSize + inCta, in 64 bits: grids can hold more than 2^32 threads.
  RegisterRef first = b.mulWide(ScalarType::U32, IRBuilder::reg(cta), IRBuilder::reg(ctaSize));
  RegisterRef inCta64 = b.convert(ScalarType::U64, ScalarType::U32, IRBuilder::reg(inCta));
  RegisterRef id = b.add(ScalarType::U64, IRBuilder::reg(first), IRBuilder::reg(inCta64));
  if (totalThreads != nullptr) {
    RegisterRef gx = b.readSpecial("%nctaid", VectorComponent::X);
    RegisterRef gy = b.readSpecial("%nctaid", VectorComponent::Y);
    RegisterRef gz = b.readSpecial("%nctaid", VectorComponent::Z);
    RegisterRef gridPlane = b.mulWide(ScalarType::U32, IRBuilder::reg(gx), IRBuilder::reg(gy));
    RegisterRef gz64 = b.convert(ScalarType::U64, ScalarType::U32, IRBuilder::reg(gz));
    RegisterRef ctas = b.mul(ScalarType::U64, IRBuilder::reg(gridPlane), IRBuilder::reg(gz64));
    RegisterRef size64 = b.convert(ScalarType::U64, ScalarType::U32, IRBuilder::reg(ctaSize));
    *totalThreads = b.mul(ScalarType::U64, IRBuilder::reg(ctas), IRBuilder::reg(size64));
  }
  return id;
}

RegisterRef warpSum(IRBuilder& b, RegisterRef value, RegisterRef mask,
                    std::optional<ir::Guard> guard) {
  // value = high * 2^27 + low; 32 lanes of `low` (< 2^27) sum to less than 2^32, and so do the
  // high parts while each value is below 2^54.
  RegisterRef lowBits = b.binary("and", ScalarType::B64, IRBuilder::reg(value),
                                 IRBuilder::imm((int64_t{1} << 27) - 1));
  RegisterRef highBits =
      b.binary("shr", ScalarType::U64, IRBuilder::reg(value), IRBuilder::imm(27));
  RegisterRef low32 = b.convert(ScalarType::U32, ScalarType::U64, IRBuilder::reg(lowBits));
  RegisterRef high32 = b.convert(ScalarType::U32, ScalarType::U64, IRBuilder::reg(highBits));
  RegisterRef lowSum = b.createRegister(ScalarType::U32);
  RegisterRef highSum = b.createRegister(ScalarType::U32);
  b.insert("redux.sync.add.u32",
           {IRBuilder::reg(lowSum), IRBuilder::reg(low32), IRBuilder::reg(mask)}, guard);
  b.insert("redux.sync.add.u32",
           {IRBuilder::reg(highSum), IRBuilder::reg(high32), IRBuilder::reg(mask)}, guard);
  RegisterRef low64 = b.convert(ScalarType::U64, ScalarType::U32, IRBuilder::reg(lowSum));
  RegisterRef high64 = b.convert(ScalarType::U64, ScalarType::U32, IRBuilder::reg(highSum));
  RegisterRef shifted =
      b.binary("shl", ScalarType::B64, IRBuilder::reg(high64), IRBuilder::imm(27));
  return b.add(ScalarType::U64, IRBuilder::reg(shifted), IRBuilder::reg(low64));
}

RegisterRef predicateAnd(IRBuilder& b, RegisterRef p, RegisterRef q) {
  return b.binary("and", ScalarType::Pred, IRBuilder::reg(p), IRBuilder::reg(q));
}

} // namespace ocelot::instrumentors
