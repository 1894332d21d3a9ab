#pragma once

#include "instrumentors/InstrumentorRegistry.h"

#include <cstdint>
#include <filesystem>
#include <ostream>
#include <string>
#include <string_view>

namespace ocelot::tools {

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
