#pragma once

#include <cstddef>

namespace ocelot {

/// The width of the terminal text goes to, in columns: $COLUMNS when it is a positive number,
/// else the size of the terminal on `fd` (TIOCGWINSZ), else 0 (not a terminal: no limit).
size_t terminalColumns(int fd = 2);

} // namespace ocelot
