#pragma once

#include <memory>
#include <string>
#include <vector>

namespace ocelot::ir {
class Module;
}

namespace ocelot::tools {

/// `ocelot ptx <action> ...`; `args` excludes "ocelot ptx". Returns the process exit code.
int runPtxCommand(const std::vector<std::string>& args);

/// `ocelot ptx cfg FILE ...`; `args` excludes "ocelot ptx cfg".
int runPtxCfgCommand(const std::vector<std::string>& args);

/// `ocelot ptx instrument -i LIST FILE ...`; `args` excludes "ocelot ptx instrument".
int runPtxInstrumentCommand(const std::vector<std::string>& args);

/// `ocelot ptx link FILE FILE... [-o OUT]`; `args` excludes "ocelot ptx link".
int runPtxLinkCommand(const std::vector<std::string>& args);

/// The PTX units in `files` parsed and linked into one module (ir::linkModules), or null with
/// `error` saying why. `verbose` prints renamed and unresolved symbols to stderr. Throws when a
/// file cannot be read.
std::unique_ptr<ir::Module> linkPtxFiles(const std::vector<std::string>& files, bool verbose,
                                         std::string* error);

/// `ocelot run [options] -- APP ARGS...`; `args` excludes "ocelot run".
int runRunCommand(const std::vector<std::string>& args, const char* self);

/// `ocelot report PROFILE.json... [-o report.html] [--trace F] [--tau DIR]`; `args` excludes
/// "ocelot report".
int runReportCommand(const std::vector<std::string>& args);

} // namespace ocelot::tools
