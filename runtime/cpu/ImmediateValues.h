#pragma once

#include "ir/Operand.h"
#include "ir/Types.h"

#include <cstdint>
#include <optional>

namespace ocelot::runtime::cpu {

/// The register bits of a PTX literal used where a value of `type` is expected: integers are
/// truncated two's complement, `0f`/`0d` literals keep their exact bits (converted when the width
/// differs), decimal floats are rounded to the type. Nullopt for combinations PTX does not allow
/// (a floating literal for a predicate...).
std::optional<uint64_t> immediateBits(const ir::ImmediateOperand& immediate, ir::ScalarType type);

/// Bytes of one value of `type` in memory (.pred takes one byte; sub-byte types round up).
uint32_t scalarTypeBytes(ir::ScalarType type);

} // namespace ocelot::runtime::cpu
