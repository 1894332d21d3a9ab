#pragma once

#include "runtime/api/RuntimeBridge.h"

namespace ocelot::runtime::driverapi {

/// Ocelot's runtime for the shim (docs/driver-api.md, "How the shim finds Ocelot's runtime"):
/// the bridge of an Ocelot libcudart.so.13 the process already holds (the usual `ocelot run`
/// case: one runtime, shared by the application and the shim), else of the one loaded by absolute
/// path from $OCELOT_CUDART_DIR or the folder above the shim's own. Where there is none, a table
/// whose calls fail with cudaErrorInitializationError, after one log line on stderr naming where
/// it looked: never null.
const OcelotRuntimeBridge& findRuntimeBridge();

} // namespace ocelot::runtime::driverapi
