#pragma once

#include <span>
#include <string_view>

namespace ocelot::instrumentors {

/// One option of a built-in instrumentor, for `--help` (`bbcount:mode=per-thread`).
struct InstrumentorOptionHelp {
  std::string_view key;
  std::string_view values;  ///< what may follow '=': "per-warp|per-thread", "N"
  std::string_view meaning; ///< one line, with the default
};

/// The options of the built-in instrumentor `name` (none for ctaclock, and for names that are not
/// built in: plugins describe themselves in their registration's description).
std::span<const InstrumentorOptionHelp> builtinInstrumentorOptions(std::string_view name);

} // namespace ocelot::instrumentors
