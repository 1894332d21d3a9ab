#include "runtime/cpu/InstructionDecoders.h"

#include "ir/Types.h"

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

} // namespace

FamilyDecoder familyDecoder(ir::SemanticFamily family) {
  using F = ir::SemanticFamily;
  switch (family) {
  case F::Arithmetic:
    return &decodeArithmetic;
  case F::FloatOrHalf:
    return &decodeFloatOrHalf;
  case F::Float:
    return &decodeFloatArithmetic;
  case F::Integer:
    return &decodeIntegerArithmetic;
  case F::Logic:
    return &decodeLogic;
  case F::Comparison:
    return &decodeComparison;
  case F::Move:
    return &decodeMove;
  case F::Conversion:
    return &decodeConversion;
  case F::Memory:
    return &decodeMemory;
  case F::Atomic:
    return &decodeAtomic;
  case F::Warp:
    return &decodeWarp;
  case F::Texture:
    return &decodeTexture;
  case F::AsyncCopy:
    return &decodeAsyncCopy;
  case F::Hint:
    return &decodeHint;
  case F::Barrier:
    return &decodeBarrier;
  case F::Video:
    return &decodeVideo;
  case F::TensorCore:
    return &decodeMatrix;
  case F::None:
  case F::ThreadControl:
  case F::AsyncTensorCore:
  case F::MBarrier:
  case F::BulkCopy:
  case F::Cluster:
    return nullptr;
  }
  return nullptr;
}

std::string_view laterFeature(ir::SemanticFamily family) {
  switch (family) {
  case ir::SemanticFamily::AsyncTensorCore:
    return "tensor cores beyond wmma, mma.sync, ldmatrix/stmatrix and movmatrix";
  case ir::SemanticFamily::MBarrier:
    return "mbarrier";
  case ir::SemanticFamily::BulkCopy:
    return "TMA / cp.async.bulk";
  case ir::SemanticFamily::Cluster:
    return "thread-block clusters";
  default:
    return {};
  }
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
