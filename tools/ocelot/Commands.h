#pragma once

#include <string>
#include <vector>

namespace ocelot::tools {

/// `ocelot ptx <action> ...`; `args` excludes "ocelot ptx". Returns the process exit code.
int runPtxCommand(const std::vector<std::string>& args);

/// `ocelot ptx cfg FILE ...`; `args` excludes "ocelot ptx cfg".
int runPtxCfgCommand(const std::vector<std::string>& args);

/// `ocelot ptx instrument -i LIST FILE ...`; `args` excludes "ocelot ptx instrument".
int runPtxInstrumentCommand(const std::vector<std::string>& args);

/// `ocelot run [options] -- APP ARGS...`; `args` excludes "ocelot run".
int runRunCommand(const std::vector<std::string>& args, const char* self);

/// `ocelot report PROFILE.json... [-o report.html] [--trace F] [--tau DIR]`; `args` excludes
/// "ocelot report".
int runReportCommand(const std::vector<std::string>& args);

} // namespace ocelot::tools
