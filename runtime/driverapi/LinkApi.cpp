// Ocelot's libcuda.so.1: the JIT linker (cuLinkCreate & co.). Numba and others hand their PTX to
// the driver's linker and load the cubin it returns, which Ocelot could only run uninstrumented.
// When a link has exactly one input and that input is PTX, cuLinkComplete returns the PTX itself:
// the caller loads it with cuModuleLoadData(Ex) like a cubin, the shim receives PTX, and the module
// takes Ocelot's pipeline and instrumentation. Any other link (several inputs, cubins, libraries)
// is the real linker's on a GPU, and not supported on the CPU device.

#include "runtime/driverapi/DriverShim.h"

#include <fstream>
#include <iterator>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

using namespace ocelot::runtime::driverapi;

namespace {

/// What the shim remembers of one link.
struct Link {
  std::vector<CUjitInputType> inputs;
  std::string ptx; ///< the one PTX input, NUL-terminated
};

class Links {
public:
  void add(CUlinkState state) {
    std::lock_guard lock(mutex_);
    links_[state] = std::make_unique<Link>();
  }
  /// Runs `body` on the link's record under the lock; false when the state is unknown.
  template <class Body> bool with(CUlinkState state, Body body) {
    std::lock_guard lock(mutex_);
    auto it = links_.find(state);
    if (it == links_.end())
      return false;
    body(*it->second);
    return true;
  }
  bool remove(CUlinkState state) {
    std::lock_guard lock(mutex_);
    return links_.erase(state) != 0;
  }

private:
  std::mutex mutex_;
  std::unordered_map<CUlinkState, std::unique_ptr<Link>> links_;
};

Links& links() {
  static Links* const table = new Links(); // never destroyed, like the shim
  return *table;
}

void record(CUlinkState state, CUjitInputType type, const char* bytes, size_t size) {
  links().with(state, [&](Link& link) {
    link.inputs.push_back(type);
    if (type == CU_JIT_INPUT_PTX) {
      link.ptx.assign(bytes, size);
      // PTX handed over in memory ends at its first NUL; make sure there is one.
      if (link.ptx.empty() || link.ptx.back() != '\0')
        link.ptx.push_back('\0');
    }
  });
}

} // namespace

extern "C" {
// The CUDA 5.5 symbols of the linker, which NVIDIA's driver still exports (same signatures as
// the _v2 ones cuda.h names): a state one of them makes must be the shim's too.
CUresult CUDAAPI ocelotLinkCreateV5050(unsigned int count, CUjit_option* options, void** values,
                                       CUlinkState* state) __asm__("cuLinkCreate")
    __attribute__((visibility("default")));
CUresult CUDAAPI ocelotLinkAddDataV5050(CUlinkState state, CUjitInputType type, void* data,
                                        size_t size, const char* name, unsigned int count,
                                        CUjit_option* options,
                                        void** values) __asm__("cuLinkAddData")
    __attribute__((visibility("default")));
CUresult CUDAAPI ocelotLinkAddFileV5050(CUlinkState state, CUjitInputType type, const char* path,
                                        unsigned int count, CUjit_option* options,
                                        void** values) __asm__("cuLinkAddFile")
    __attribute__((visibility("default")));

CUresult CUDAAPI cuLinkCreate(unsigned int count, CUjit_option* options, void** values,
                              CUlinkState* state) {
  if (state == nullptr || (count != 0 && (options == nullptr || values == nullptr)))
    return CUDA_ERROR_INVALID_VALUE;
  if (RealDriver* real = shim().real()) {
    static const auto create = OCELOT_REAL_FUNCTION(*real, cuLinkCreate);
    if (CUresult error = create(count, options, values, state); error != CUDA_SUCCESS)
      return error;
  } else {
    *state = reinterpret_cast<CUlinkState>(new char); // a handle only; the record is in links()
  }
  links().add(*state);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuLinkAddData(CUlinkState state, CUjitInputType type, void* data, size_t size,
                               const char* name, unsigned int count, CUjit_option* options,
                               void** values) {
  if (data == nullptr || size == 0)
    return CUDA_ERROR_INVALID_VALUE;
  record(state, type, static_cast<const char*>(data), size);
  OCELOT_FORWARD(cuLinkAddData, state, type, data, size, name, count, options, values);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuLinkAddFile(CUlinkState state, CUjitInputType type, const char* path,
                               unsigned int count, CUjit_option* options, void** values) {
  if (path == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  std::ifstream file(path, std::ios::binary);
  if (!file)
    return CUDA_ERROR_FILE_NOT_FOUND;
  std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  record(state, type, bytes.data(), bytes.size());
  OCELOT_FORWARD(cuLinkAddFile, state, type, path, count, options, values);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuLinkComplete(CUlinkState state, void** image, size_t* size) {
  if (image == nullptr || size == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  bool onePtx = false;
  bool known = links().with(state, [&](Link& link) {
    onePtx = link.inputs.size() == 1 && link.inputs.front() == CU_JIT_INPUT_PTX;
    if (onePtx) {
      *image = link.ptx.data();
      *size = link.ptx.size();
    }
  });
  if (onePtx)
    return CUDA_SUCCESS;
  OCELOT_FORWARD(cuLinkComplete, state, image, size);
  if (!known)
    return CUDA_ERROR_INVALID_HANDLE;
  return shim().notSupported("cuLinkComplete (of anything but one PTX input)");
}

CUresult CUDAAPI cuLinkDestroy(CUlinkState state) {
  const bool known = links().remove(state);
  OCELOT_FORWARD(cuLinkDestroy, state);
  if (!known)
    return CUDA_ERROR_INVALID_HANDLE;
  delete reinterpret_cast<char*>(state);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI ocelotLinkCreateV5050(unsigned int count, CUjit_option* options, void** values,
                                       CUlinkState* state) {
  return cuLinkCreate(count, options, values, state);
}

CUresult CUDAAPI ocelotLinkAddDataV5050(CUlinkState state, CUjitInputType type, void* data,
                                        size_t size, const char* name, unsigned int count,
                                        CUjit_option* options, void** values) {
  return cuLinkAddData(state, type, data, size, name, count, options, values);
}

CUresult CUDAAPI ocelotLinkAddFileV5050(CUlinkState state, CUjitInputType type, const char* path,
                                        unsigned int count, CUjit_option* options, void** values) {
  return cuLinkAddFile(state, type, path, count, options, values);
}

} // extern "C"
