#include "passes/ParallelCopy.h"

#include <algorithm>

namespace ocelot::passes {

std::vector<Copy>
sequentializeParallelCopy(std::vector<Copy> pending,
                          const std::function<ir::RegisterRef(ir::RegisterRef)>& makeTemporary) {
  std::erase_if(pending, [](const Copy& c) { return c.destination == c.source; });
  std::vector<Copy> sequence;
  auto readers = [&](ir::RegisterRef reg) {
    return std::count_if(pending.begin(), pending.end(),
                         [&](const Copy& c) { return c.source == reg; });
  };
  while (!pending.empty()) {
    // Emit every copy whose destination no pending copy still needs.
    bool progress = true;
    while (progress) {
      progress = false;
      for (size_t i = 0; i < pending.size(); ++i) {
        if (readers(pending[i].destination) != 0)
          continue;
        sequence.push_back(pending[i]);
        pending.erase(pending.begin() + static_cast<std::ptrdiff_t>(i));
        progress = true;
        break;
      }
    }
    if (pending.empty())
      break;
    // Only cycles remain: every destination is still read by exactly one pending copy. Save one
    // destination in a temporary and let its readers read the temporary instead.
    ir::RegisterRef saved = pending.front().destination;
    ir::RegisterRef temporary = makeTemporary(saved);
    sequence.push_back(Copy{temporary, saved});
    for (Copy& c : pending)
      if (c.source == saved)
        c.source = temporary;
  }
  return sequence;
}

} // namespace ocelot::passes
