#pragma once

#include <string>

namespace ocelot::runtime {

/// The warning to give when OCELOT_LOG names no level Ocelot knows (Logger::levelFromEnvironment
/// then means warn), else empty: a setting that is not valid is never taken silently.
std::string logLevelVariableProblem();

} // namespace ocelot::runtime
