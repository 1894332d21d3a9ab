#pragma once

// The example instruction of every row of ir/Opcodes.def, in the table's order, and the module the
// instruction-table tests run one of them in (header only: ir and CPU tests share it).

#include "ir/Opcode.h"

#include <string>
#include <string_view>

namespace ocelot::test {

struct InstructionExample {
  ir::Opcode opcode;
  std::string_view qualifier; ///< "" for the opcode's general row
  std::string_view text;      ///< the instruction, without its `;`
};

inline constexpr InstructionExample kInstructionExamples[] = {
#define OCELOT_OPCODE(Name, spelling, Family, Definitions, Flags, Operands, example)               \
  {ir::Opcode::Name, "", example},
#define OCELOT_VARIANT(Name, qualifier, Family, Definitions, Flags, Operands, example)             \
  {ir::Opcode::Name, qualifier, example},
#include "ir/Opcodes.def"
};

/// A module whose kernel `k` executes `instruction` once, with every name the examples use
/// declared: registers %p, %h, %r, %rd, %q, %f, %fd; label $Lnext right after the instruction;
/// branch table $Ltargets; function `callee` (one .b32 register parameter).
inline std::string exampleModule(std::string_view instruction) {
  return R"(.version 9.0
.target sm_100a
.address_size 64

.func callee(.reg .b32 a)
{
	ret;
}

.visible .entry k(.param .u64 k_param_0)
{
	.reg .pred %p<8>;
	.reg .b16 %h<8>;
	.reg .b32 %r<10>;
	.reg .b64 %rd<8>;
	.reg .b128 %q<2>;
	.reg .f32 %f<10>;
	.reg .f64 %fd<4>;
$Ltargets: .branchtargets $Lnext;
	)" +
         std::string(instruction) +
         R"(;
$Lnext:
	ret;
}
)";
}

} // namespace ocelot::test
