#pragma once

#include "ir/Function.h"
#include "ir/IRBuilder.h"

namespace ocelot::instrumentors {

/// Makes the function's first block a block no branch can target, so that code at its start runs
/// exactly once per call (a kernel whose first block is a loop header would otherwise run entry
/// code on every iteration). When the first block has a label, a new unlabeled block is put in
/// front of it and the declarations and `.loc` lines that precede the label move into it. Returns
/// the first block. Reports the change to `listener`.
ir::BasicBlock& ensureUnlabeledEntry(ir::Function& function, ir::IRChangeListener* listener);

} // namespace ocelot::instrumentors
