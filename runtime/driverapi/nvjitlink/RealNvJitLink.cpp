#include "runtime/driverapi/nvjitlink/RealNvJitLink.h"

#include "runtime/driverapi/OwnLibraryFile.h"

#include <cstdlib>
#include <dlfcn.h>
#include <filesystem>
#include <mutex>
#include <sstream>
#include <vector>

namespace ocelot::runtime::driverapi::nvjitlink {
namespace {

namespace fs = std::filesystem;

std::string& problemText() {
  static std::string* const text = new std::string();
  return *text;
}

std::vector<fs::path> candidates() {
  std::vector<fs::path> out;
  const char* const name = "libnvJitLink.so.13";
  if (const char* chosen = std::getenv("OCELOT_REAL_NVJITLINK"); chosen != nullptr && *chosen) {
    out.emplace_back(chosen);
    return out; // the user's choice only: a wrong one must fail, not be replaced silently
  }
  if (const char* path = std::getenv("LD_LIBRARY_PATH"); path != nullptr) {
    std::stringstream folders(path);
    for (std::string folder; std::getline(folders, folder, ':');)
      if (!folder.empty())
        out.push_back(fs::path(folder) / name);
  }
  for (const char* variable : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* root = std::getenv(variable); root != nullptr && *root)
      out.push_back(fs::path(root) / "lib64" / name);
  for (const char* folder : {"/usr/local/cuda/lib64", "/usr/local/cuda/targets/x86_64-linux/lib",
                             "/usr/lib/x86_64-linux-gnu", "/usr/lib64"})
    out.push_back(fs::path(folder) / name);
  return out;
}

template <class F> bool bind(void* library, const char* symbol, F* function) {
  *function = reinterpret_cast<F>(::dlsym(library, symbol));
  return *function != nullptr;
}

RealNvJitLink* load() {
  const fs::path self = ownLibraryFile(reinterpret_cast<const void*>(&candidates));
  std::string tried;
  for (const fs::path& candidate : candidates()) {
    std::error_code error;
    if (!fs::exists(candidate, error))
      continue;
    const fs::path file = fs::weakly_canonical(candidate, error);
    if (!self.empty() && file == self)
      continue;
    void* library = ::dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
    if (library == nullptr) {
      const char* why = ::dlerror();
      tried += "\n  " + file.string() + ": " + (why != nullptr ? why : "cannot be loaded");
      continue;
    }
    auto* real = new RealNvJitLink();
    real->path = file.string();
    bool complete = bind(library, "nvJitLinkCreate", &real->create) &&
                    bind(library, "nvJitLinkDestroy", &real->destroy) &&
                    bind(library, "nvJitLinkAddData", &real->addData) &&
                    bind(library, "nvJitLinkAddFile", &real->addFile) &&
                    bind(library, "nvJitLinkComplete", &real->complete) &&
                    bind(library, "nvJitLinkGetLinkedCubinSize", &real->linkedCubinSize) &&
                    bind(library, "nvJitLinkGetLinkedCubin", &real->linkedCubin) &&
                    bind(library, "nvJitLinkGetLinkedPtxSize", &real->linkedPtxSize) &&
                    bind(library, "nvJitLinkGetLinkedPtx", &real->linkedPtx) &&
                    bind(library, "nvJitLinkGetErrorLogSize", &real->errorLogSize) &&
                    bind(library, "nvJitLinkGetErrorLog", &real->errorLog) &&
                    bind(library, "nvJitLinkGetInfoLogSize", &real->infoLogSize) &&
                    bind(library, "nvJitLinkGetInfoLog", &real->infoLog) &&
                    bind(library, "nvJitLinkVersion", &real->version);
    if (complete)
      return real;
    tried += "\n  " + file.string() + ": lacks an nvJitLink function";
    delete real;
    ::dlclose(library);
  }
  problemText() = "no NVIDIA libnvJitLink.so.13 was found (set OCELOT_REAL_NVJITLINK to its path)" +
                  (tried.empty() ? std::string() : "; tried:" + tried);
  return nullptr;
}

} // namespace

const RealNvJitLink* RealNvJitLink::get() {
  static const RealNvJitLink* const real = load(); // never unloaded, like the process's own
  return real;
}

const std::string& RealNvJitLink::problem() {
  get();
  return problemText();
}

} // namespace ocelot::runtime::driverapi::nvjitlink
