#include "ocelot/TerminalWidth.h"

#include <cstdlib>
#include <sys/ioctl.h>
#include <unistd.h>

namespace ocelot {

size_t terminalColumns(int fd) {
  if (const char* columns = std::getenv("COLUMNS"); columns != nullptr && *columns != '\0') {
    char* end = nullptr;
    long value = std::strtol(columns, &end, 10);
    if (*end == '\0' && value > 0 && value < 100000)
      return static_cast<size_t>(value);
  }
  winsize size{};
  if (::isatty(fd) && ::ioctl(fd, TIOCGWINSZ, &size) == 0 && size.ws_col > 0)
    return size.ws_col;
  return 0;
}

} // namespace ocelot
