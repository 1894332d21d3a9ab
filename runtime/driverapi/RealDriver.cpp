#include "runtime/driverapi/RealDriver.h"

#include "runtime/driverapi/OwnLibraryFile.h"

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <filesystem>
#include <fstream>
#include <string_view>
#include <vector>

namespace ocelot::runtime::driverapi {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> candidates() {
  std::vector<fs::path> paths;
  if (const char* chosen = std::getenv("OCELOT_REAL_LIBCUDA"); chosen != nullptr && *chosen)
    paths.emplace_back(chosen);
  // Where distributions and NVIDIA's installer put the driver, then the library path (containers
  // mount it there). The toolkit's stubs folder holds a libcuda.so that is no driver: skipped.
  for (const char* folder :
       {"/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib", "/usr/lib/aarch64-linux-gnu",
        "/usr/local/nvidia/lib64", "/usr/local/nvidia/lib", "/usr/lib/wsl/lib"})
    paths.push_back(fs::path(folder) / "libcuda.so.1");
  // The folders the dynamic linker's configuration adds (where driver installers register).
  std::error_code error;
  for (const auto& entry : fs::directory_iterator("/etc/ld.so.conf.d", error)) {
    if (entry.path().extension() != ".conf")
      continue;
    std::ifstream conf(entry.path());
    for (std::string line; std::getline(conf, line);)
      if (!line.empty() && line.front() == '/')
        paths.push_back(fs::path(line) / "libcuda.so.1");
  }
  if (const char* list = std::getenv("LD_LIBRARY_PATH"); list != nullptr) {
    std::string_view rest(list);
    while (!rest.empty()) {
      size_t colon = rest.find(':');
      std::string_view folder = rest.substr(0, colon);
      if (!folder.empty() && folder.find("stubs") == std::string_view::npos)
        paths.push_back(fs::path(folder) / "libcuda.so.1");
      rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
    }
  }
  return paths;
}

} // namespace

RealDriver* RealDriver::find() {
  const fs::path self = ownLibraryFile(reinterpret_cast<const void*>(&candidates));
  for (const fs::path& candidate : candidates()) {
    std::error_code error;
    fs::path resolved = fs::canonical(candidate, error);
    if (error || resolved == self)
      continue;
    void* library = ::dlopen(resolved.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr)
      continue;
    // Another copy of Ocelot's library (a second build tree) is no driver either.
    if (::dlsym(library, "ocelot_driver_shim_real_driver") != nullptr) {
      ::dlclose(library);
      continue;
    }
    void* address = ::dlsym(library, "cuGetProcAddress_v2");
    if (address == nullptr) {
      ::dlclose(library);
      continue;
    }
    decltype(&::cuGetProcAddress) getProcAddress = nullptr;
    std::memcpy(&getProcAddress, &address, sizeof address);
    // Kept for the life of the process, like Ocelot's own DriverApi.
    return new RealDriver(library, resolved.string(), getProcAddress);
  }
  return nullptr;
}

void* RealDriver::exported(const char* symbol) const {
  return ::dlsym(library_, symbol);
}

void* RealDriver::symbol(const char* name, int cudaVersion, cuuint64_t flags) const {
  void* address = nullptr;
  CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  if (getProcAddress_(name, &address, cudaVersion, flags, &status) != CUDA_SUCCESS ||
      status != CU_GET_PROC_ADDRESS_SUCCESS)
    return nullptr;
  // A driver whose own references go through the dynamic linker would hand back the shim's
  // function of that name (ours come first in the process): calling it would recurse forever.
  if (isOwn(address))
    return nullptr;
  return address;
}

bool RealDriver::isOwn(const void* address) {
  static const void* const base = [] {
    Dl_info info{};
    return ::dladdr(reinterpret_cast<const void*>(&candidates), &info) != 0 ? info.dli_fbase
                                                                            : nullptr;
  }();
  Dl_info info{};
  return address != nullptr && ::dladdr(address, &info) != 0 && info.dli_fbase == base;
}

} // namespace ocelot::runtime::driverapi
