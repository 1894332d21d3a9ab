#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ocelot::ir {

/// A PTX ISA version as `.version` writes it: `9.0` is {9, 0}.
struct PtxVersion {
  uint32_t major = 0;
  uint32_t minor = 0;
  friend auto operator<=>(const PtxVersion&, const PtxVersion&) = default;
  std::string toString() const { return std::to_string(major) + "." + std::to_string(minor); }
};

/// The newest PTX ISA version the front end knows: 9.0, the one CUDA 13.0's ptxas and driver
/// accept. Like NVIDIA's JIT, Ocelot refuses a module that declares a newer `.version`
/// (DiagnosticKind::UnsupportedPtxVersion) instead of guessing what it means. Supporting the next
/// PTX ISA means raising this (and adding its opcodes to ir/InstructionTable.cpp).
inline constexpr PtxVersion kNewestPtxVersion{9, 0};

/// `major.minor` with decimal digits only (at most 9 each); nullopt for anything else.
std::optional<PtxVersion> parsePtxVersion(std::string_view text);

} // namespace ocelot::ir
