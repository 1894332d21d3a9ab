#pragma once

#include "instrumentors/InstrumentorRegistry.h"

#include <boost/program_options.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace ocelot::tools {

/// A command's usage text followed by its `options`.
using UsagePrinter = void (*)(std::ostream& out,
                              const boost::program_options::options_description& options);

/// Parses a command's `args` into `vm`: `options` are those the usage shows, `hidden` with
/// `positional` take the operands. A bad option prints "COMMAND: reason" and the usage to stderr
/// and gives exit status 2; --help prints the usage to stdout and gives 0; nullopt: go on.
std::optional<int>
parseCommandLine(std::string_view command, const std::vector<std::string>& args,
                 const boost::program_options::options_description& options,
                 const boost::program_options::options_description& hidden,
                 const boost::program_options::positional_options_description& positional,
                 UsagePrinter usage, boost::program_options::variables_map& vm);

/// A count given to option `option`: decimal digits only (no sign, no blanks: `-1` and `1e3` are
/// errors, not 2^64-1 and 1), from `min` to `max`. Throws std::invalid_argument naming the option.
uint64_t parseCount(std::string_view option, const std::string& text, uint64_t min = 0,
                    uint64_t max = UINT64_MAX);

/// Throws std::invalid_argument, naming `option`, when `path` cannot be written: its folder must
/// exist and be writable, and the path must not be a folder or a file without write permission.
/// Called before any work starts, so that a typo does not cost a whole run.
void checkWritable(std::string_view option, const std::filesystem::path& path);

/// The text of FILE, or of standard input when FILE is "-". Throws std::runtime_error with the
/// reason when it cannot be read.
std::string readInput(const std::string& file);
/// What diagnostics call FILE: "<stdin>" for "-".
std::string inputName(const std::string& file);

/// The registered instrumentors with their options, for `--help`.
void printInstrumentorHelp(std::ostream& out, const instrumentors::InstrumentorRegistry& registry);

} // namespace ocelot::tools
