#pragma once

#include "ir/IRBuilder.h"
#include "passes/ControlFlowGraph.h"

#include <string>

namespace ocelot::passes {

/// Puts a new, empty block on the edge `from -> to`, so that code placed in it runs exactly when
/// control takes that edge (SSA destruction puts copies there; edge profiling puts counters):
///  * a fall-through edge gets a block between the two, which falls through into `to`;
///  * a branch edge gets a labelled block at the end of the function ending in `bra.uni` to `to`,
///    and the branch (or a copy of its `.branchtargets` table) is retargeted to it. If the last
///    block could fall through, a `ret` block keeps it from falling into the new one.
/// Returns the new block; code for the edge goes before its terminator (IRBuilder::atEnd). Returns
/// nullptr and says why for edges that cannot be split: edges to the virtual exit, and branch
/// edges to a label declared inside a `{ }` scope (it is not visible from the end of the
/// function). Changes go through `builder` (of the function; its insertion point moves), which
/// reports them to its listener; reuse one builder to split many edges.
ir::BasicBlock* splitEdge(ir::IRBuilder& builder, ir::BasicBlock& from, ir::BasicBlock& to,
                          EdgeKind kind, std::string* why = nullptr);

} // namespace ocelot::passes
