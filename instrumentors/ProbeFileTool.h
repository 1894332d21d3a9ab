#pragma once

#include "ocelot/Plugin.h"

namespace ocelot::instrumentors {

/// Registers `probe`: a probe tool whose probes come from files named in its options, PTX
/// (`probe:ptx=probes.ptx`, nvcc -rdc=true -ptx output) or CUDA C compiled at run time with NVRTC
/// (`probe:source=probes.cu`, `arch=N` for compute_N, 75 by default); several files separated by
/// ','. Its result is a ProbeResult. A file that cannot be read or compiled, or probes that
/// cannot be used, fail the instrumentor's creation with a message that says why.
int registerProbeFileTool(const ocelot_plugin_host_v1* host);

} // namespace ocelot::instrumentors
