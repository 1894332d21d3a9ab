#include "runtime/cpu/InstructionDecoders.h"

#include "ir/Types.h"

#include <array>
#include <utility>

namespace ocelot::runtime::cpu {
namespace {

/// add/sub/mul/mad/div/abs/neg/min/max take integer, floating and half types alike.
bool decodeArithmetic(DecodeContext& context) {
  const auto type = context.type();
  if (!type)
    return context.fail("no type");
  switch (*type) {
  case ir::ScalarType::F32:
  case ir::ScalarType::F64:
    return decodeFloatArithmetic(context);
  case ir::ScalarType::F16:
  case ir::ScalarType::F16x2:
  case ir::ScalarType::BF16:
  case ir::ScalarType::BF16x2:
    return decodeHalfArithmetic(context);
  default:
    return decodeIntegerArithmetic(context);
  }
}

/// Opcodes whose floating-point forms are the only ones (sqrt, sin...) still come in half forms.
bool decodeFloatOrHalf(DecodeContext& context) {
  const auto type = context.type();
  if (type && (*type == ir::ScalarType::F16 || *type == ir::ScalarType::F16x2 ||
               *type == ir::ScalarType::BF16 || *type == ir::ScalarType::BF16x2))
    return decodeHalfArithmetic(context);
  return decodeFloatArithmetic(context);
}

constexpr std::pair<std::string_view, FamilyDecoder> kFamilies[] = {
    {"add", &decodeArithmetic},
    {"sub", &decodeArithmetic},
    {"mul", &decodeArithmetic},
    {"mad", &decodeArithmetic},
    {"div", &decodeArithmetic},
    {"abs", &decodeArithmetic},
    {"neg", &decodeArithmetic},
    {"min", &decodeArithmetic},
    {"max", &decodeArithmetic},
    {"fma", &decodeFloatOrHalf},
    {"rcp", &decodeFloatOrHalf},
    {"sqrt", &decodeFloatOrHalf},
    {"rsqrt", &decodeFloatOrHalf},
    {"sin", &decodeFloatOrHalf},
    {"cos", &decodeFloatOrHalf},
    {"lg2", &decodeFloatOrHalf},
    {"ex2", &decodeFloatOrHalf},
    {"tanh", &decodeFloatOrHalf},
    {"copysign", &decodeFloatArithmetic},
    {"testp", &decodeFloatArithmetic},
    {"addc", &decodeIntegerArithmetic},
    {"subc", &decodeIntegerArithmetic},
    {"madc", &decodeIntegerArithmetic},
    {"mul24", &decodeIntegerArithmetic},
    {"mad24", &decodeIntegerArithmetic},
    {"sad", &decodeIntegerArithmetic},
    {"rem", &decodeIntegerArithmetic},
    {"popc", &decodeIntegerArithmetic},
    {"clz", &decodeIntegerArithmetic},
    {"bfind", &decodeIntegerArithmetic},
    {"fns", &decodeIntegerArithmetic},
    {"brev", &decodeIntegerArithmetic},
    {"bfe", &decodeIntegerArithmetic},
    {"bfi", &decodeIntegerArithmetic},
    {"szext", &decodeIntegerArithmetic},
    {"bmsk", &decodeIntegerArithmetic},
    {"dp4a", &decodeIntegerArithmetic},
    {"dp2a", &decodeIntegerArithmetic},
    {"and", &decodeLogic},
    {"or", &decodeLogic},
    {"xor", &decodeLogic},
    {"not", &decodeLogic},
    {"cnot", &decodeLogic},
    {"lop3", &decodeLogic},
    {"shf", &decodeLogic},
    {"shl", &decodeLogic},
    {"shr", &decodeLogic},
    {"setp", &decodeComparison},
    {"set", &decodeComparison},
    {"selp", &decodeComparison},
    {"slct", &decodeComparison},
    {"mov", &decodeMove},
    {"prmt", &decodeMove},
    {"cvta", &decodeMove},
    {"isspacep", &decodeMove},
    {"cvt", &decodeConversion},
    {"ld", &decodeMemory},
    {"ldu", &decodeMemory},
    {"st", &decodeMemory},
    {"membar", &decodeMemory},
    {"fence", &decodeMemory},
    {"atom", &decodeAtomic},
    {"red", &decodeAtomic},
    {"shfl", &decodeWarp},
    {"vote", &decodeWarp},
    {"match", &decodeWarp},
    {"redux", &decodeWarp},
    {"activemask", &decodeWarp},
    {"elect", &decodeWarp},
    {"tex", &decodeTexture},
    {"tld4", &decodeTexture},
    {"txq", &decodeTexture},
    {"suld", &decodeTexture},
    {"sust", &decodeTexture},
    {"suq", &decodeTexture},
    {"cp", &decodeAsyncCopy},
    {"mbarrier", &decodeAsyncCopy},
    {"prefetch", &decodeHint},
    {"prefetchu", &decodeHint},
    {"griddepcontrol", &decodeHint},
    {"pmevent", &decodeHint},
    {"applypriority", &decodeHint},
    {"discard", &decodeHint},
    {"createpolicy", &decodeHint},
    {"setmaxnreg", &decodeHint},
    {"vadd", &decodeVideo},
    {"vsub", &decodeVideo},
    {"vabsdiff", &decodeVideo},
    {"vmin", &decodeVideo},
    {"vmax", &decodeVideo},
    {"vshl", &decodeVideo},
    {"vshr", &decodeVideo},
    {"vmad", &decodeVideo},
    {"vset", &decodeVideo},
    {"vadd2", &decodeVideo},
    {"vsub2", &decodeVideo},
    {"vavrg2", &decodeVideo},
    {"vabsdiff2", &decodeVideo},
    {"vmin2", &decodeVideo},
    {"vmax2", &decodeVideo},
    {"vset2", &decodeVideo},
    {"vadd4", &decodeVideo},
    {"vsub4", &decodeVideo},
    {"vavrg4", &decodeVideo},
    {"vabsdiff4", &decodeVideo},
    {"vmin4", &decodeVideo},
    {"vmax4", &decodeVideo},
    {"vset4", &decodeVideo},
    {"wmma", &decodeMatrix},
    {"mma", &decodeMatrix},
    {"ldmatrix", &decodeMatrix},
    {"stmatrix", &decodeMatrix},
};

} // namespace

FamilyDecoder familyDecoder(std::string_view opcode) {
  for (const auto& [name, decoder] : kFamilies)
    if (name == opcode)
      return decoder;
  return nullptr;
}

RoundingMode DecodeContext::rounding(RoundingMode fallback) const {
  for (std::string_view modifier : form.modifiers()) {
    if (modifier == "rn" || modifier == "rni")
      return RoundingMode::NearestEven;
    if (modifier == "rz" || modifier == "rzi")
      return RoundingMode::TowardZero;
    if (modifier == "rm" || modifier == "rmi")
      return RoundingMode::Down;
    if (modifier == "rp" || modifier == "rpi")
      return RoundingMode::Up;
    if (modifier == "rna")
      return RoundingMode::NearestAway;
  }
  return fallback;
}

bool DecodeContext::hasRounding() const {
  return has("rn") || has("rz") || has("rm") || has("rp") || has("rna") || hasIntegerRounding();
}

bool DecodeContext::hasIntegerRounding() const {
  return has("rni") || has("rzi") || has("rmi") || has("rpi");
}

} // namespace ocelot::runtime::cpu
