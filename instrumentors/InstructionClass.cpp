#include "instrumentors/InstructionClass.h"

#include <algorithm>
#include <array>

namespace ocelot::instrumentors {

namespace {

using ir::Opcode;

template <size_t N> bool among(Opcode opcode, const std::array<Opcode, N>& set) {
  return std::find(set.begin(), set.end(), opcode) != set.end();
}

constexpr std::array kLoads{Opcode::Ld, Opcode::Ldu, Opcode::Ldmatrix};
constexpr std::array kStores{Opcode::St, Opcode::Stmatrix};
constexpr std::array kTensor{Opcode::Mma, Opcode::Wmma, Opcode::Wgmma, Opcode::Tcgen05,
                             Opcode::Movmatrix};
constexpr std::array kCompare{Opcode::Setp, Opcode::Set, Opcode::Selp, Opcode::Slct, Opcode::Testp};
constexpr std::array kMove{Opcode::Mov, Opcode::Cvt, Opcode::Cvta, Opcode::Isspacep};
constexpr std::array kLogic{Opcode::And, Opcode::Or,  Opcode::Xor,  Opcode::Not, Opcode::Cnot,
                            Opcode::Shl, Opcode::Shr, Opcode::Lop3, Opcode::Shf, Opcode::Prmt,
                            Opcode::Bfe, Opcode::Bfi, Opcode::Brev, Opcode::Bmsk};

} // namespace

probe::OpcodeClass opcodeClassOf(const ir::InstructionForm& form) {
  Opcode opcode = form.opcode();
  if (form.has(ir::kCall))
    return probe::kCall;
  if (form.has(ir::kReturn) || form.has(ir::kExit) || form.has(ir::kTrap))
    return probe::kReturn;
  if (form.has(ir::kBranch))
    return probe::kBranch;
  if (form.has(ir::kCtaBarrier) || form.has(ir::kClusterBarrier) || form.has(ir::kFence) ||
      opcode == Opcode::Mbarrier || (opcode == Opcode::Bar && form.hasModifier("warp")))
    return probe::kBarrier;
  if (form.has(ir::kTexture))
    return probe::kTexture;
  if (among(opcode, kTensor))
    return probe::kTensor;
  if (form.has(ir::kAtomic) && (opcode == Opcode::Atom || opcode == Opcode::Red))
    return probe::kAtomic;
  if (among(opcode, kLoads))
    return probe::kLoad;
  if (among(opcode, kStores))
    return probe::kStore;
  if (form.has(ir::kWarpCollective))
    return probe::kWarp;
  if (form.has(ir::kUnknown) || form.accessesMemory() || form.has(ir::kSideEffects) ||
      form.has(ir::kAsynchronous))
    return probe::kOther;
  if (among(opcode, kCompare))
    return probe::kCompare;
  if (among(opcode, kMove))
    return probe::kMove;
  if (among(opcode, kLogic))
    return probe::kLogic;
  auto type = form.lastType();
  if (!type)
    return probe::kOther;
  if (*type == ir::ScalarType::F64)
    return probe::kDoubleArithmetic;
  if (ir::isFloatType(*type))
    return probe::kFloatArithmetic;
  if (*type == ir::ScalarType::Pred)
    return probe::kLogic;
  return probe::kIntegerArithmetic;
}

probe::StateSpace stateSpaceOf(const ir::InstructionForm& form) {
  probe::OpcodeClass cls = opcodeClassOf(form);
  if (cls != probe::kLoad && cls != probe::kStore && cls != probe::kAtomic)
    return probe::kNoSpace;
  switch (form.stateSpace()) {
  case ir::StateSpace::Generic:
    return probe::kGeneric;
  case ir::StateSpace::Global:
    return probe::kGlobal;
  case ir::StateSpace::Shared:
    return probe::kShared;
  case ir::StateSpace::Local:
    return probe::kLocal;
  case ir::StateSpace::Const:
    return probe::kConst;
  case ir::StateSpace::Param:
    return probe::kParam;
  default:
    return probe::kOtherSpace;
  }
}

probe::AccessKind accessKindOf(const ir::InstructionForm& form) {
  switch (opcodeClassOf(form)) {
  case probe::kLoad:
    return probe::kRead;
  case probe::kStore:
    return probe::kWrite;
  case probe::kAtomic:
    return probe::kAtomicAccess;
  default:
    return probe::kNoAccess;
  }
}

uint32_t accessBytesOf(const ir::InstructionForm& form) {
  if (accessKindOf(form) == probe::kNoAccess)
    return 0;
  auto type = form.lastType();
  if (!type)
    return 0;
  unsigned bits = ir::scalarTypeBits(*type);
  return (bits + 7) / 8 * form.vectorWidth();
}

} // namespace ocelot::instrumentors
