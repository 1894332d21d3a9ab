#include "ir/Types.h"

#include <array>
#include <utility>

namespace ocelot::ir {

namespace {

std::string_view withoutDot(std::string_view name) {
  if (!name.empty() && name.front() == '.')
    name.remove_prefix(1);
  return name;
}

struct TypeEntry {
  ScalarType type;
  std::string_view name;
  unsigned bits;
};

constexpr std::array kTypes = {
    TypeEntry{ScalarType::Pred, "pred", 1},
    TypeEntry{ScalarType::B8, "b8", 8},
    TypeEntry{ScalarType::B16, "b16", 16},
    TypeEntry{ScalarType::B32, "b32", 32},
    TypeEntry{ScalarType::B64, "b64", 64},
    TypeEntry{ScalarType::B128, "b128", 128},
    TypeEntry{ScalarType::U8, "u8", 8},
    TypeEntry{ScalarType::U16, "u16", 16},
    TypeEntry{ScalarType::U32, "u32", 32},
    TypeEntry{ScalarType::U64, "u64", 64},
    TypeEntry{ScalarType::S8, "s8", 8},
    TypeEntry{ScalarType::S16, "s16", 16},
    TypeEntry{ScalarType::S32, "s32", 32},
    TypeEntry{ScalarType::S64, "s64", 64},
    TypeEntry{ScalarType::F16, "f16", 16},
    TypeEntry{ScalarType::F16x2, "f16x2", 32},
    TypeEntry{ScalarType::BF16, "bf16", 16},
    TypeEntry{ScalarType::BF16x2, "bf16x2", 32},
    TypeEntry{ScalarType::TF32, "tf32", 32},
    TypeEntry{ScalarType::F32, "f32", 32},
    TypeEntry{ScalarType::F64, "f64", 64},
    TypeEntry{ScalarType::E4M3, "e4m3", 8},
    TypeEntry{ScalarType::E5M2, "e5m2", 8},
    TypeEntry{ScalarType::E4M3x2, "e4m3x2", 16},
    TypeEntry{ScalarType::E5M2x2, "e5m2x2", 16},
    TypeEntry{ScalarType::E2M1, "e2m1", 4},
    TypeEntry{ScalarType::E2M1x2, "e2m1x2", 8},
    TypeEntry{ScalarType::E3M2, "e3m2", 8},
    TypeEntry{ScalarType::E2M3, "e2m3", 8},
    TypeEntry{ScalarType::UE8M0, "ue8m0", 8},
    TypeEntry{ScalarType::UE8M0x2, "ue8m0x2", 16},
};

constexpr std::array<std::pair<std::string_view, StateSpace>, 10> kSpaces = {{
    {"reg", StateSpace::Reg},
    {"sreg", StateSpace::SReg},
    {"const", StateSpace::Const},
    {"global", StateSpace::Global},
    {"local", StateSpace::Local},
    {"param", StateSpace::Param},
    {"shared", StateSpace::Shared},
    {"tex", StateSpace::Tex},
    {"generic", StateSpace::Generic},
    {"none", StateSpace::None},
}};

} // namespace

std::optional<StateSpace> stateSpaceFromName(std::string_view name) {
  name = withoutDot(name);
  if (auto colons = name.find("::"); colons != std::string_view::npos)
    name = name.substr(0, colons); // shared::cta, shared::cluster, param::entry ...
  for (const auto& [spelling, space] : kSpaces)
    if (spelling == name && space != StateSpace::None)
      return space;
  return std::nullopt;
}

std::string_view stateSpaceName(StateSpace space) {
  for (const auto& [spelling, s] : kSpaces)
    if (s == space)
      return spelling;
  return "none";
}

std::optional<Linkage> linkageFromName(std::string_view name) {
  name = withoutDot(name);
  if (name == "visible")
    return Linkage::Visible;
  if (name == "extern")
    return Linkage::Extern;
  if (name == "weak")
    return Linkage::Weak;
  if (name == "common")
    return Linkage::Common;
  return std::nullopt;
}

std::string_view linkageName(Linkage linkage) {
  switch (linkage) {
  case Linkage::Visible:
    return "visible";
  case Linkage::Extern:
    return "extern";
  case Linkage::Weak:
    return "weak";
  case Linkage::Common:
    return "common";
  case Linkage::None:
    break;
  }
  return "";
}

std::optional<ScalarType> scalarTypeFromName(std::string_view name) {
  name = withoutDot(name);
  for (const auto& entry : kTypes)
    if (entry.name == name)
      return entry.type;
  return std::nullopt;
}

std::string_view scalarTypeName(ScalarType type) {
  for (const auto& entry : kTypes)
    if (entry.type == type)
      return entry.name;
  return "";
}

unsigned scalarTypeBits(ScalarType type) {
  for (const auto& entry : kTypes)
    if (entry.type == type)
      return entry.bits;
  return 0;
}

bool isFloatType(ScalarType type) {
  switch (type) {
  case ScalarType::F16:
  case ScalarType::F16x2:
  case ScalarType::BF16:
  case ScalarType::BF16x2:
  case ScalarType::TF32:
  case ScalarType::F32:
  case ScalarType::F64:
    return true;
  default:
    return false;
  }
}

bool isSignedIntegerType(ScalarType type) {
  return type == ScalarType::S8 || type == ScalarType::S16 || type == ScalarType::S32 ||
         type == ScalarType::S64;
}

} // namespace ocelot::ir
