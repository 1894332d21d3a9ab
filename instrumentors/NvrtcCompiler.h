#pragma once

#include <string>

namespace ocelot::instrumentors {

/// Compiles a probe source (CUDA C including "ocelot/probe.cuh") to PTX at run time with NVRTC,
/// as `nvcc -rdc=true -ptx -arch=compute_<architecture>` would. NVRTC is loaded with
/// dlopen("libnvrtc.so.13") when first needed; Ocelot never links it. Throws std::runtime_error
/// with a message that says what to do when the library is absent, and with NVRTC's log when the
/// source does not compile. `name` labels the log's lines.
std::string compileProbeSource(const std::string& source, const std::string& name,
                               unsigned architecture = 75);

} // namespace ocelot::instrumentors
