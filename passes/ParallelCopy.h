#pragma once

#include "ir/Operand.h"

#include <functional>
#include <vector>

namespace ocelot::passes {

/// One register-to-register copy `destination <- source`.
struct Copy {
  ir::RegisterRef destination;
  ir::RegisterRef source;
  friend bool operator==(const Copy&, const Copy&) = default;
};

/// Orders a parallel copy (all sources read before any destination is written; destinations
/// distinct) into a sequence of ordinary copies with the same effect. A copy is emitted once no
/// pending copy still reads its destination; what remains are cycles (`a <- b, b <- a`, the swap
/// problem of SSA destruction), broken by saving one destination in a temporary from
/// `makeTemporary(like)`, a fresh register of the type of `like`. Self-copies vanish.
std::vector<Copy>
sequentializeParallelCopy(std::vector<Copy> copies,
                          const std::function<ir::RegisterRef(ir::RegisterRef)>& makeTemporary);

} // namespace ocelot::passes
