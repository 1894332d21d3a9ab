#pragma once

#include <dlfcn.h>
#include <filesystem>

namespace ocelot::runtime::driverapi {

/// The file of the shared library that holds `symbol` (an address inside it), resolved through
/// links; empty where the loader cannot tell. Ocelot's stand-in libraries (libcuda.so.1,
/// libnvJitLink.so.13) search for NVIDIA's library of the same name and must skip themselves.
inline std::filesystem::path ownLibraryFile(const void* symbol) {
  Dl_info info{};
  if (::dladdr(symbol, &info) == 0 || info.dli_fname == nullptr)
    return {};
  std::error_code ignored;
  return std::filesystem::weakly_canonical(info.dli_fname, ignored);
}

} // namespace ocelot::runtime::driverapi
