// Ocelot's libnvJitLink.so.13. Numba-CUDA (through cuda.core's Linker) and other JIT pipelines link
// their PTX with nvJitLink and load the cubin it returns, which Ocelot can only run uninstrumented.
// This library stands in for NVIDIA's (docs/driver-api.md, "nvJitLink"): every call goes to the
// real library, and when a link has exactly one input and that input is PTX, the "linked cubin"
// it hands back is that PTX itself; when all its inputs are LTO-IR (what Numba-CUDA hands it), it
// is the PTX NVIDIA's library emits for the same link with -ptx. The caller loads it like a cubin
// (cuLibraryLoadData, cuModuleLoadData), Ocelot's libcuda.so.1 receives PTX, and the module takes
// Ocelot's pipeline and instrumentation, as the driver's own linker does in LinkApi.cpp. The real
// link still runs first, so that errors and logs are NVIDIA's. Without a real library (the CPU
// device), a link of one PTX input still completes. OCELOT_NVJITLINK_PTX=0 hands back the real
// cubin.
//
// cuda.pathfinder (how cuda.bindings finds nvJitLink) takes a library of this soname that is
// already loaded in the process before searching for one: `ocelot run` preloads this one.

#include "runtime/driverapi/nvjitlink/RealNvJitLink.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

using ocelot::runtime::driverapi::nvjitlink::RealNvJitLink;

namespace {

/// What Ocelot keeps of one link; the handle the caller holds is its address.
struct Link {
  nvJitLinkHandle real = nullptr;
  std::vector<std::string> options;
  std::vector<nvJitLinkInputType> inputs;
  std::vector<std::string> ltoInputs; ///< the LTO-IR inputs' bytes, to link again for PTX
  std::string ptx;       ///< the last PTX input, or the PTX of the LTO-IR; NUL-terminated
  bool handsPtx = false; ///< complete, and its "cubin" is `ptx`
  bool completed = false;
  std::string error; ///< Ocelot's own error, reported as the error log
};

class Links {
public:
  Link* add(std::unique_ptr<Link> link) {
    std::lock_guard lock(mutex_);
    Link* raw = link.get();
    links_.emplace(raw, std::move(link));
    return raw;
  }
  Link* find(nvJitLinkHandle handle) {
    std::lock_guard lock(mutex_);
    auto it = links_.find(reinterpret_cast<Link*>(handle));
    return it != links_.end() ? it->second.get() : nullptr;
  }
  std::unique_ptr<Link> remove(nvJitLinkHandle handle) {
    std::lock_guard lock(mutex_);
    auto it = links_.find(reinterpret_cast<Link*>(handle));
    if (it == links_.end())
      return nullptr;
    std::unique_ptr<Link> link = std::move(it->second);
    links_.erase(it);
    return link;
  }

private:
  std::mutex mutex_;
  std::unordered_map<Link*, std::unique_ptr<Link>> links_;
};

Links& links() {
  static Links* const table = new Links(); // never destroyed: callers may link during exit
  return *table;
}

bool passThroughPtx() {
  static const bool enabled = [] {
    const char* value = std::getenv("OCELOT_NVJITLINK_PTX");
    return value == nullptr || std::string_view(value) != "0";
  }();
  return enabled;
}

/// NVJITLINK_INPUT_ANY decided by content, as the real library does for the types Ocelot cares
/// about: PTX is text that declares its version.
nvJitLinkInputType resolvedType(nvJitLinkInputType type, const char* bytes, size_t size) {
  if (type != NVJITLINK_INPUT_ANY)
    return type;
  std::string_view head(bytes, size < 4096 ? size : 4096);
  if (head.size() >= 4 && head.substr(0, 4) == "\177ELF")
    return NVJITLINK_INPUT_CUBIN;
  return head.find(".version") != std::string_view::npos &&
                 head.find(".target") != std::string_view::npos
             ? NVJITLINK_INPUT_PTX
             : NVJITLINK_INPUT_ANY;
}

void record(Link& link, nvJitLinkInputType type, const char* bytes, size_t size) {
  type = resolvedType(type, bytes, size);
  link.inputs.push_back(type);
  if (type == NVJITLINK_INPUT_LTOIR)
    link.ltoInputs.emplace_back(bytes, size);
  if (type == NVJITLINK_INPUT_PTX) {
    link.ptx.assign(bytes, size);
    // PTX handed over in memory ends at its first NUL; the loader wants one.
    if (link.ptx.empty() || link.ptx.back() != '\0')
      link.ptx.push_back('\0');
  }
}

bool onePtxInput(const Link& link) {
  return link.inputs.size() == 1 && link.inputs.front() == NVJITLINK_INPUT_PTX;
}

bool onlyLtoInputs(const Link& link) {
  return !link.inputs.empty() && link.ltoInputs.size() == link.inputs.size();
}

/// A link of LTO-IR only (Numba-CUDA compiles to LTO-IR by default): NVIDIA's library links the
/// same inputs with the same options again, plus -ptx, and the PTX it emits becomes the link's
/// "cubin". Empty where that link fails (the caller then gets NVIDIA's cubin).
std::string ptxOfLtoLink(const Link& link, std::string* why) {
  const RealNvJitLink* real = RealNvJitLink::get();
  std::vector<const char*> options;
  bool ptxOption = false;
  for (const std::string& option : link.options) {
    options.push_back(option.c_str());
    ptxOption = ptxOption || option == "-ptx";
  }
  if (!ptxOption)
    options.push_back("-ptx");
  nvJitLinkHandle handle = nullptr;
  nvJitLinkResult result =
      real->create(&handle, static_cast<uint32_t>(options.size()), options.data());
  for (size_t i = 0; result == NVJITLINK_SUCCESS && i < link.ltoInputs.size(); ++i)
    result = real->addData(handle, NVJITLINK_INPUT_LTOIR, link.ltoInputs[i].data(),
                           link.ltoInputs[i].size(), "ocelot-lto-input");
  if (result == NVJITLINK_SUCCESS)
    result = real->complete(handle);
  size_t size = 0;
  if (result == NVJITLINK_SUCCESS)
    result = real->linkedPtxSize(handle, &size);
  std::string ptx;
  if (result == NVJITLINK_SUCCESS && size > 1) {
    ptx.assign(size, '\0');
    result = real->linkedPtx(handle, ptx.data());
  }
  if (result != NVJITLINK_SUCCESS || ptx.empty()) {
    *why = "linking it again with -ptx failed (nvJitLink error " + std::to_string(result) + ")";
    ptx.clear();
  } else if (ptx.back() != '\0') {
    ptx.push_back('\0');
  }
  if (handle != nullptr)
    real->destroy(&handle);
  return ptx;
}

/// OCELOT_LOG=info or debug: one line per completed link (what it held, what the caller gets),
/// which says why a JIT-linked kernel is or is not instrumented. This library has no logger of its
/// own (it must load without Ocelot's runtime), so it writes Ocelot's log format itself.
void logLink(const Link& link, const std::string& outcome) {
  static const bool enabled = [] {
    const char* level = std::getenv("OCELOT_LOG");
    return level != nullptr &&
           (std::string_view(level) == "info" || std::string_view(level) == "debug");
  }();
  if (!enabled)
    return;
  std::string inputs;
  for (nvJitLinkInputType type : link.inputs) {
    static const char* const kNames[] = {"none",    "cubin", "PTX", "LTO-IR", "fatbinary", "object",
                                         "library", "index", "?",   "?",      "any"};
    inputs += (inputs.empty() ? "" : ", ") +
              std::string(type >= 0 && type <= NVJITLINK_INPUT_ANY ? kNames[type] : "?");
  }
  std::fprintf(stderr, "ocelot[info]: nvJitLink: a link of %zu input(s) (%s): %s\n",
               link.inputs.size(), inputs.c_str(), outcome.c_str());
}

/// A text result (a log) of Ocelot's own: size with its NUL, or its bytes.
nvJitLinkResult textSize(const std::string& text, size_t* size) {
  if (size == nullptr)
    return NVJITLINK_ERROR_NULL_INPUT;
  *size = text.size() + 1;
  return NVJITLINK_SUCCESS;
}
nvJitLinkResult textCopy(const std::string& text, char* out) {
  if (out == nullptr)
    return NVJITLINK_ERROR_NULL_INPUT;
  std::memcpy(out, text.c_str(), text.size() + 1);
  return NVJITLINK_SUCCESS;
}

} // namespace

// Each function is defined under the versioned name nvJitLink.h's inline wrappers call, and
// exported under the plain name too (an alias), as NVIDIA's library does.
#define OCELOT_NVJITLINK_ALIAS(plain, versioned, ...)                                              \
  extern "C" nvJitLinkResult ocelot_##plain(__VA_ARGS__) __asm__(#plain)                           \
      __attribute__((alias(#versioned), visibility("default")));

extern "C" {

nvJitLinkResult __nvJitLinkCreate_13_0(nvJitLinkHandle* handle, uint32_t count,
                                       const char* const* options) {
  if (handle == nullptr)
    return NVJITLINK_ERROR_NULL_INPUT;
  auto link = std::make_unique<Link>();
  if (const RealNvJitLink* real = RealNvJitLink::get()) {
    if (nvJitLinkResult result = real->create(&link->real, count, options);
        result != NVJITLINK_SUCCESS)
      return result;
  } else {
    bool arch = false;
    for (uint32_t i = 0; i < count; ++i) {
      if (options == nullptr || options[i] == nullptr)
        return NVJITLINK_ERROR_NULL_INPUT;
      arch = arch || std::string_view(options[i]).starts_with("-arch=");
    }
    if (!arch)
      return NVJITLINK_ERROR_MISSING_ARCH;
  }
  for (uint32_t i = 0; options != nullptr && i < count; ++i)
    if (options[i] != nullptr)
      link->options.emplace_back(options[i]);
  *handle = reinterpret_cast<nvJitLinkHandle>(links().add(std::move(link)));
  return NVJITLINK_SUCCESS;
}

nvJitLinkResult __nvJitLinkDestroy_13_0(nvJitLinkHandle* handle) {
  if (handle == nullptr)
    return NVJITLINK_ERROR_NULL_INPUT;
  std::unique_ptr<Link> link = links().remove(*handle);
  if (link == nullptr)
    return NVJITLINK_ERROR_INVALID_INPUT;
  nvJitLinkResult result = NVJITLINK_SUCCESS;
  if (link->real != nullptr)
    result = RealNvJitLink::get()->destroy(&link->real);
  *handle = nullptr;
  return result;
}

nvJitLinkResult __nvJitLinkAddData_13_0(nvJitLinkHandle handle, nvJitLinkInputType type,
                                        const void* data, size_t size, const char* name) {
  Link* link = links().find(handle);
  if (link == nullptr)
    return NVJITLINK_ERROR_INVALID_INPUT;
  if (link->real != nullptr) {
    if (nvJitLinkResult result = RealNvJitLink::get()->addData(link->real, type, data, size, name);
        result != NVJITLINK_SUCCESS)
      return result;
  } else if (data == nullptr || size == 0) {
    return NVJITLINK_ERROR_NULL_INPUT;
  }
  record(*link, type, static_cast<const char*>(data), size);
  return NVJITLINK_SUCCESS;
}

nvJitLinkResult __nvJitLinkAddFile_13_0(nvJitLinkHandle handle, nvJitLinkInputType type,
                                        const char* file) {
  Link* link = links().find(handle);
  if (link == nullptr)
    return NVJITLINK_ERROR_INVALID_INPUT;
  if (link->real != nullptr)
    if (nvJitLinkResult result = RealNvJitLink::get()->addFile(link->real, type, file);
        result != NVJITLINK_SUCCESS)
      return result;
  if (file == nullptr)
    return NVJITLINK_ERROR_NULL_INPUT;
  std::ifstream in(file, std::ios::binary);
  if (!in)
    return NVJITLINK_ERROR_INVALID_INPUT;
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  record(*link, type, bytes.data(), bytes.size());
  return NVJITLINK_SUCCESS;
}

nvJitLinkResult __nvJitLinkComplete_13_0(nvJitLinkHandle handle) {
  Link* link = links().find(handle);
  if (link == nullptr)
    return NVJITLINK_ERROR_INVALID_INPUT;
  if (link->real != nullptr) {
    if (nvJitLinkResult result = RealNvJitLink::get()->complete(link->real);
        result != NVJITLINK_SUCCESS)
      return result;
  } else if (!onePtxInput(*link) || !passThroughPtx()) {
    link->error = "Ocelot's libnvJitLink.so.13: only a link of one PTX input completes without "
                  "NVIDIA's library, and " +
                  RealNvJitLink::problem();
    return NVJITLINK_ERROR_INTERNAL;
  }
  link->completed = true;
  std::string why;
  if (passThroughPtx() && link->real != nullptr && onlyLtoInputs(*link)) {
    link->ptx = ptxOfLtoLink(*link, &why);
    link->handsPtx = !link->ptx.empty();
  } else {
    link->handsPtx = passThroughPtx() && onePtxInput(*link);
    if (!link->handsPtx)
      why = passThroughPtx() ? "not one PTX input, nor LTO-IR only" : "OCELOT_NVJITLINK_PTX=0";
  }
  logLink(*link, link->handsPtx ? "the caller gets PTX (Ocelot instruments it)"
                                : "NVIDIA's cubin, not instrumented: " + why);
  return NVJITLINK_SUCCESS;
}

nvJitLinkResult __nvJitLinkGetLinkedCubinSize_13_0(nvJitLinkHandle handle, size_t* size) {
  Link* link = links().find(handle);
  if (link == nullptr)
    return NVJITLINK_ERROR_INVALID_INPUT;
  if (link->handsPtx) {
    if (size == nullptr)
      return NVJITLINK_ERROR_NULL_INPUT;
    *size = link->ptx.size(); // with its NUL
    return NVJITLINK_SUCCESS;
  }
  if (link->real == nullptr)
    return NVJITLINK_ERROR_INTERNAL;
  return RealNvJitLink::get()->linkedCubinSize(link->real, size);
}

nvJitLinkResult __nvJitLinkGetLinkedCubin_13_0(nvJitLinkHandle handle, void* cubin) {
  Link* link = links().find(handle);
  if (link == nullptr)
    return NVJITLINK_ERROR_INVALID_INPUT;
  if (link->handsPtx) {
    if (cubin == nullptr)
      return NVJITLINK_ERROR_NULL_INPUT;
    std::memcpy(cubin, link->ptx.data(), link->ptx.size());
    return NVJITLINK_SUCCESS;
  }
  if (link->real == nullptr)
    return NVJITLINK_ERROR_INTERNAL;
  return RealNvJitLink::get()->linkedCubin(link->real, cubin);
}

nvJitLinkResult __nvJitLinkGetLinkedPtxSize_13_0(nvJitLinkHandle handle, size_t* size) {
  Link* link = links().find(handle);
  if (link == nullptr)
    return NVJITLINK_ERROR_INVALID_INPUT;
  if (link->real == nullptr) // one PTX input linked: the PTX is its own link
    return link->handsPtx ? textSize(std::string(link->ptx.c_str()), size)
                          : NVJITLINK_ERROR_INTERNAL;
  return RealNvJitLink::get()->linkedPtxSize(link->real, size);
}

nvJitLinkResult __nvJitLinkGetLinkedPtx_13_0(nvJitLinkHandle handle, char* ptx) {
  Link* link = links().find(handle);
  if (link == nullptr)
    return NVJITLINK_ERROR_INVALID_INPUT;
  if (link->real == nullptr)
    return link->handsPtx ? textCopy(std::string(link->ptx.c_str()), ptx)
                          : NVJITLINK_ERROR_INTERNAL;
  return RealNvJitLink::get()->linkedPtx(link->real, ptx);
}

nvJitLinkResult __nvJitLinkGetErrorLogSize_13_0(nvJitLinkHandle handle, size_t* size) {
  Link* link = links().find(handle);
  if (link == nullptr)
    return NVJITLINK_ERROR_INVALID_INPUT;
  if (link->real == nullptr || !link->error.empty())
    return textSize(link->error, size);
  return RealNvJitLink::get()->errorLogSize(link->real, size);
}

nvJitLinkResult __nvJitLinkGetErrorLog_13_0(nvJitLinkHandle handle, char* log) {
  Link* link = links().find(handle);
  if (link == nullptr)
    return NVJITLINK_ERROR_INVALID_INPUT;
  if (link->real == nullptr || !link->error.empty())
    return textCopy(link->error, log);
  return RealNvJitLink::get()->errorLog(link->real, log);
}

nvJitLinkResult __nvJitLinkGetInfoLogSize_13_0(nvJitLinkHandle handle, size_t* size) {
  Link* link = links().find(handle);
  if (link == nullptr)
    return NVJITLINK_ERROR_INVALID_INPUT;
  if (link->real == nullptr)
    return textSize("", size);
  return RealNvJitLink::get()->infoLogSize(link->real, size);
}

nvJitLinkResult __nvJitLinkGetInfoLog_13_0(nvJitLinkHandle handle, char* log) {
  Link* link = links().find(handle);
  if (link == nullptr)
    return NVJITLINK_ERROR_INVALID_INPUT;
  if (link->real == nullptr)
    return textCopy("", log);
  return RealNvJitLink::get()->infoLog(link->real, log);
}

nvJitLinkResult nvJitLinkVersion(unsigned int* major, unsigned int* minor) {
  if (const RealNvJitLink* real = RealNvJitLink::get())
    return real->version(major, minor);
  if (major == nullptr || minor == nullptr)
    return NVJITLINK_ERROR_NULL_INPUT;
  *major = 13; // the nvJitLink.h Ocelot was built with
  *minor = 0;
  return NVJITLINK_SUCCESS;
}

} // extern "C"

OCELOT_NVJITLINK_ALIAS(nvJitLinkCreate, __nvJitLinkCreate_13_0, nvJitLinkHandle*, uint32_t,
                       const char* const*)
OCELOT_NVJITLINK_ALIAS(nvJitLinkDestroy, __nvJitLinkDestroy_13_0, nvJitLinkHandle*)
OCELOT_NVJITLINK_ALIAS(nvJitLinkAddData, __nvJitLinkAddData_13_0, nvJitLinkHandle,
                       nvJitLinkInputType, const void*, size_t, const char*)
OCELOT_NVJITLINK_ALIAS(nvJitLinkAddFile, __nvJitLinkAddFile_13_0, nvJitLinkHandle,
                       nvJitLinkInputType, const char*)
OCELOT_NVJITLINK_ALIAS(nvJitLinkComplete, __nvJitLinkComplete_13_0, nvJitLinkHandle)
OCELOT_NVJITLINK_ALIAS(nvJitLinkGetLinkedCubinSize, __nvJitLinkGetLinkedCubinSize_13_0,
                       nvJitLinkHandle, size_t*)
OCELOT_NVJITLINK_ALIAS(nvJitLinkGetLinkedCubin, __nvJitLinkGetLinkedCubin_13_0, nvJitLinkHandle,
                       void*)
OCELOT_NVJITLINK_ALIAS(nvJitLinkGetLinkedPtxSize, __nvJitLinkGetLinkedPtxSize_13_0, nvJitLinkHandle,
                       size_t*)
OCELOT_NVJITLINK_ALIAS(nvJitLinkGetLinkedPtx, __nvJitLinkGetLinkedPtx_13_0, nvJitLinkHandle, char*)
OCELOT_NVJITLINK_ALIAS(nvJitLinkGetErrorLogSize, __nvJitLinkGetErrorLogSize_13_0, nvJitLinkHandle,
                       size_t*)
OCELOT_NVJITLINK_ALIAS(nvJitLinkGetErrorLog, __nvJitLinkGetErrorLog_13_0, nvJitLinkHandle, char*)
OCELOT_NVJITLINK_ALIAS(nvJitLinkGetInfoLogSize, __nvJitLinkGetInfoLogSize_13_0, nvJitLinkHandle,
                       size_t*)
OCELOT_NVJITLINK_ALIAS(nvJitLinkGetInfoLog, __nvJitLinkGetInfoLog_13_0, nvJitLinkHandle, char*)
