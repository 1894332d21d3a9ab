#pragma once

#include <string>
#include <vector>

namespace ocelot::tools {

/// `ocelot ptx <action> ...`; `args` excludes "ocelot ptx". Returns the process exit code.
int runPtxCommand(const std::vector<std::string>& args);

/// `ocelot ptx cfg FILE ...`; `args` excludes "ocelot ptx cfg".
int runPtxCfgCommand(const std::vector<std::string>& args);

} // namespace ocelot::tools
