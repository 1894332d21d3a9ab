#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace ocelot::ir {

/// PTX state spaces. `shared::cta` and `shared::cluster` are both Shared; the exact spelling stays
/// in the IR (modifiers, declaration words) for emission.
enum class StateSpace : uint8_t {
  None,
  Reg,
  SReg,
  Const,
  Global,
  Local,
  Param,
  Shared,
  Tex,
  Generic, // ld/st/atom without a state-space modifier
};

/// ".global" -> Global, "shared::cluster" -> Shared; the leading dot is optional.
std::optional<StateSpace> stateSpaceFromName(std::string_view name);
std::string_view stateSpaceName(StateSpace space);

enum class Linkage : uint8_t { None, Visible, Extern, Weak, Common };

std::optional<Linkage> linkageFromName(std::string_view name);
std::string_view linkageName(Linkage linkage);

/// Fundamental PTX types. Unknown type names (new ones arrive with new PTX versions) map to
/// std::nullopt and are kept as plain words by the IR.
enum class ScalarType : uint8_t {
  Pred,
  B8,
  B16,
  B32,
  B64,
  B128,
  U8,
  U16,
  U32,
  U64,
  S8,
  S16,
  S32,
  S64,
  F16,
  F16x2,
  BF16,
  BF16x2,
  TF32,
  F32,
  F64,
  E4M3,
  E5M2,
  E4M3x2,
  E5M2x2,
  E2M1,
  E2M1x2,
  E3M2,
  E2M3,
  UE8M0,
  UE8M0x2,
};

std::optional<ScalarType> scalarTypeFromName(std::string_view name);
std::string_view scalarTypeName(ScalarType type);
/// Size in bits of one value of the type (.pred counts as 1).
unsigned scalarTypeBits(ScalarType type);
bool isFloatType(ScalarType type);
bool isSignedIntegerType(ScalarType type);

} // namespace ocelot::ir
