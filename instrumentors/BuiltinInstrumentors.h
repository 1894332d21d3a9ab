#pragma once

#include "ocelot/Plugin.h"

namespace ocelot::instrumentors {

/// Registers Ocelot's own instrumentors (bbcount, ctaclock) through the plugin interface, exactly
/// as a plugin's ocelot_plugin_entry_v1 registers its own. Returns 0 on success.
int registerBuiltinInstrumentors(const ocelot_plugin_host_v1* host);

} // namespace ocelot::instrumentors
