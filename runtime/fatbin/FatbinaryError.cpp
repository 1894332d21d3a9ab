#include "runtime/fatbin/FatbinaryError.h"

#include <cstdio>

namespace ocelot::runtime::fatbin {

std::string FatbinaryError::message() const {
  char where[40];
  std::snprintf(where, sizeof where, " (at offset 0x%llx)",
                static_cast<unsigned long long>(offset));
  return "fatbinary: " + what + where;
}

} // namespace ocelot::runtime::fatbin
