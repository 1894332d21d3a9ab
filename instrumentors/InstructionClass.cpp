#include "instrumentors/InstructionClass.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace ocelot::instrumentors {

namespace {

template <size_t N>
bool among(std::string_view opcode, const std::array<std::string_view, N>& set) {
  return std::find(set.begin(), set.end(), opcode) != set.end();
}

constexpr std::array<std::string_view, 3> kLoads{"ld", "ldu", "ldmatrix"};
constexpr std::array<std::string_view, 2> kStores{"st", "stmatrix"};
constexpr std::array<std::string_view, 5> kTensor{"mma", "wmma", "wgmma", "tcgen05", "movmatrix"};
constexpr std::array<std::string_view, 5> kCompare{"setp", "set", "selp", "slct", "testp"};
constexpr std::array<std::string_view, 4> kMove{"mov", "cvt", "cvta", "isspace"};
constexpr std::array<std::string_view, 14> kLogic{"and", "or",  "xor",  "not", "cnot",
                                                  "shl", "shr", "lop3", "shf", "prmt",
                                                  "bfe", "bfi", "brev", "bmsk"};

} // namespace

probe::OpcodeClass opcodeClassOf(const ir::InstructionForm& form) {
  std::string_view opcode = form.opcode();
  if (form.has(ir::kCall))
    return probe::kCall;
  if (form.has(ir::kReturn) || form.has(ir::kExit) || form.has(ir::kTrap))
    return probe::kReturn;
  if (form.has(ir::kBranch))
    return probe::kBranch;
  if (form.has(ir::kCtaBarrier) || form.has(ir::kClusterBarrier) || form.has(ir::kFence) ||
      opcode == "mbarrier" || (opcode == "bar" && form.hasModifier("warp")))
    return probe::kBarrier;
  if (form.has(ir::kTexture))
    return probe::kTexture;
  if (among(opcode, kTensor))
    return probe::kTensor;
  if (form.has(ir::kAtomic) && (opcode == "atom" || opcode == "red"))
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
