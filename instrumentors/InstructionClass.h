#pragma once

// What probes and their placement filters know about an instruction: its opcode class, the state
// space it touches, how (load, store, atomic) and how many bytes per lane.

#include "ir/InstructionForm.h"
#include "ocelot/ProbeTypes.h"

#include <cstdint>

namespace ocelot::instrumentors {

probe::OpcodeClass opcodeClassOf(const ir::InstructionForm& form);
/// kNoSpace for instructions that do not access memory through an address.
probe::StateSpace stateSpaceOf(const ir::InstructionForm& form);
probe::AccessKind accessKindOf(const ir::InstructionForm& form);
/// Bytes one lane accesses: the type's size times the vector width; 0 when unknown or not a
/// memory access.
uint32_t accessBytesOf(const ir::InstructionForm& form);

} // namespace ocelot::instrumentors
