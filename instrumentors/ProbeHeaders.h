#pragma once

#include <string>
#include <utility>
#include <vector>

namespace ocelot::instrumentors {

/// The device headers a probe source includes, as (include name, text) pairs: "ocelot/probe.cuh"
/// and "ocelot/ProbeTypes.h", embedded at build time so that NVRTC needs no include path.
const std::vector<std::pair<std::string, std::string>>& probeHeaders();

} // namespace ocelot::instrumentors
