#pragma once

#include "ir/Function.h"

#include <string>

namespace ocelot::passes {

class AnalysisManager;

/// The CFG of `function` with its dominators, post-dominators, loops and source lines, as text a
/// person reads (`ocelot ptx cfg`).
std::string printCfgText(ir::Function& function, AnalysisManager& analyses);

/// The same as a Graphviz digraph: blocks as boxes (label, source lines, immediate dominator and
/// the instructions), edges styled by kind (branch solid, fall-through dashed, exit dotted), each
/// natural loop a nested cluster.
std::string printCfgDot(ir::Function& function, AnalysisManager& analyses);

} // namespace ocelot::passes
