#include "ocelot/Demangle.h"

#include <cstdlib>
#include <cxxabi.h>
#include <memory>

namespace ocelot {

std::string demangle(std::string_view mangled) {
  std::string name(mangled);
  if (!name.starts_with("_Z"))
    return name;
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> text(
      abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), &std::free);
  return status == 0 && text != nullptr ? std::string(text.get()) : name;
}

} // namespace ocelot
