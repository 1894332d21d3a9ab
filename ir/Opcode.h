#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace ocelot::ir {

/// Every PTX opcode of ir/Opcodes.def, and Unknown for opcodes the table does not know (they still
/// parse and round-trip; InstructionForm::opcodeName() keeps their spelling). Each instruction
/// form gets its opcode once, when the module interns the form, so code that asks what an
/// instruction is compares enums, never strings.
enum class Opcode : uint8_t {
  Unknown,
#define OCELOT_OPCODE(Name, spelling, Family, Definitions, Flags, Operands, example) Name,
#include "ir/Opcodes.def"
};

/// How many Opcode values there are, Unknown included.
// clang-format off
inline constexpr size_t kOpcodeCount = 1
#define OCELOT_OPCODE(Name, spelling, Family, Definitions, Flags, Operands, example) + 1
#include "ir/Opcodes.def"
    ;
// clang-format on

/// The PTX spelling of `opcode` ("add" for Opcode::Add); "" for Unknown.
std::string_view opcodeName(Opcode opcode);

/// The opcode spelled `name` (the part of an instruction before the first dot), or Unknown.
Opcode opcodeFromName(std::string_view name);

} // namespace ocelot::ir
