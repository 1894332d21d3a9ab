#include "instrumentors/NvrtcCompiler.h"

#include "instrumentors/ProbeHeaders.h"

#include <dlfcn.h>
#include <mutex>
#include <stdexcept>
#include <vector>

namespace ocelot::instrumentors {

namespace {

// The few NVRTC entry points Ocelot uses, as nvrtc.h declares them (nvrtcResult is an int enum,
// 0 is NVRTC_SUCCESS; nvrtcProgram is an opaque pointer).
using Program = void*;
using CreateProgram = int (*)(Program*, const char*, const char*, int, const char* const*,
                              const char* const*);
using CompileProgram = int (*)(Program, int, const char* const*);
using GetSize = int (*)(Program, size_t*);
using GetText = int (*)(Program, char*);
using DestroyProgram = int (*)(Program*);
using ErrorString = const char* (*)(int);

struct Nvrtc {
  void* library = nullptr;
  CreateProgram create = nullptr;
  CompileProgram compile = nullptr;
  GetSize logSize = nullptr;
  GetText log = nullptr;
  GetSize ptxSize = nullptr;
  GetText ptx = nullptr;
  DestroyProgram destroy = nullptr;
  ErrorString errorString = nullptr;
  std::string error;
};

const Nvrtc& nvrtc() {
  static Nvrtc loaded;
  static std::once_flag once;
  std::call_once(once, [] {
    for (const char* name : {"libnvrtc.so.13", "libnvrtc.so"}) {
      loaded.library = ::dlopen(name, RTLD_NOW | RTLD_LOCAL);
      if (loaded.library != nullptr)
        break;
    }
    if (loaded.library == nullptr) {
      const char* why = ::dlerror();
      loaded.error = std::string("NVRTC is not available (") +
                     (why != nullptr ? why : "not found") +
                     "); compile the probes with nvcc (ocelot_add_probe_tool) or put the CUDA "
                     "toolkit's lib64 on LD_LIBRARY_PATH";
      return;
    }
    auto symbol = [&](const char* name) { return ::dlsym(loaded.library, name); };
    loaded.create = reinterpret_cast<CreateProgram>(symbol("nvrtcCreateProgram"));
    loaded.compile = reinterpret_cast<CompileProgram>(symbol("nvrtcCompileProgram"));
    loaded.logSize = reinterpret_cast<GetSize>(symbol("nvrtcGetProgramLogSize"));
    loaded.log = reinterpret_cast<GetText>(symbol("nvrtcGetProgramLog"));
    loaded.ptxSize = reinterpret_cast<GetSize>(symbol("nvrtcGetPTXSize"));
    loaded.ptx = reinterpret_cast<GetText>(symbol("nvrtcGetPTX"));
    loaded.destroy = reinterpret_cast<DestroyProgram>(symbol("nvrtcDestroyProgram"));
    loaded.errorString = reinterpret_cast<ErrorString>(symbol("nvrtcGetErrorString"));
    if (!loaded.create || !loaded.compile || !loaded.logSize || !loaded.log || !loaded.ptxSize ||
        !loaded.ptx || !loaded.destroy || !loaded.errorString)
      loaded.error = "the NVRTC library lacks functions Ocelot needs";
  });
  return loaded;
}

} // namespace

std::string compileProbeSource(const std::string& source, const std::string& name,
                               unsigned architecture) {
  const Nvrtc& api = nvrtc();
  if (!api.error.empty())
    throw std::runtime_error(api.error);
  std::vector<const char*> headers, names;
  for (const auto& [headerName, text] : probeHeaders()) {
    names.push_back(headerName.c_str());
    headers.push_back(text.c_str());
  }
  Program program = nullptr;
  int rc = api.create(&program, source.c_str(), name.c_str(), static_cast<int>(headers.size()),
                      headers.data(), names.data());
  if (rc != 0)
    throw std::runtime_error(name + ": NVRTC cannot create the program: " + api.errorString(rc));
  std::string arch = "--gpu-architecture=compute_" + std::to_string(architecture);
  const char* options[] = {arch.c_str(), "--relocatable-device-code=true", "-std=c++17"};
  rc = api.compile(program, 3, options);
  std::string log;
  size_t size = 0;
  if (api.logSize(program, &size) == 0 && size > 1) {
    log.resize(size);
    api.log(program, log.data());
    log.resize(size - 1);
  }
  if (rc != 0) {
    api.destroy(&program);
    throw std::runtime_error(name + " does not compile (" + api.errorString(rc) + "):\n" + log);
  }
  std::string ptx;
  if (api.ptxSize(program, &size) == 0 && size > 0) {
    ptx.resize(size);
    api.ptx(program, ptx.data());
    ptx.resize(size - 1);
  }
  api.destroy(&program);
  return ptx;
}

} // namespace ocelot::instrumentors
