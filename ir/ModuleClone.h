#pragma once

#include "ir/Module.h"

#include <memory>

namespace ocelot::ir {

/// A deep copy of `source`: every item, function, block, statement, operand, table and debug
/// section, with its names interned in the copy's own string pool, its statements and operand
/// lists in the copy's own arena, and every internal reference (instruction forms, the label
/// table's statements, the blocks' function) pointing into the copy. The copy outlives `source`
/// and may be changed (instrumented) while `source` is read by other threads: cloning only reads
/// `source`. Emitting the copy gives the text emitting `source` gives, byte for byte (source
/// lines are copied too).
std::unique_ptr<Module> cloneModule(const Module& source);

} // namespace ocelot::ir
