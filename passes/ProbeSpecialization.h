// How one inlined instance of a probe is specialized (passes/ProbeInliner.cpp): which of the
// template's items it emits, given the constants and buffer offsets of its site. Internal to
// passes/.
#pragma once

#include "passes/ProbeInliner.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace ocelot::passes::detail {

/// What one instance emits: per item, skip / emit / emit as an unconditional branch.
struct InstancePlan {
  using Item = InlineTemplate::Item;
  enum Emit : uint8_t { kSkip, kEmit, kAlways };
  std::vector<std::vector<uint8_t>> emit;
  std::vector<bool> reachable;
  bool empty = true;    ///< nothing to emit
  bool straight = true; ///< no branch and no return but a final one among the emitted items
  std::pair<size_t, size_t> finalReturn{SIZE_MAX, SIZE_MAX};
  /// Per write item: the bytes it can touch, as offsets from the caller's buffer, when bounded.
  std::map<const Item*, std::pair<uint64_t, uint64_t>> writeBytes;
};

/// The plan of one instance: items whose guards and branches the site's constants decide are left
/// out, and writes whose bytes can be bounded say where they may land.
InstancePlan
specialize(const InlineTemplate& t,
           const std::function<std::optional<uint64_t>(const InlineTemplate::Item&)>& constantOf,
           const std::function<std::optional<uint64_t>(const InlineTemplate::Item&)>& offsetOf);

} // namespace ocelot::passes::detail
