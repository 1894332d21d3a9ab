#pragma once

#include <cuda.h>

#include <string>

namespace ocelot::runtime::driverapi {

/// NVIDIA's libcuda.so.1 behind Ocelot's: found by absolute path (never by soname, which names
/// Ocelot's own library once it is on the library path) and never this library itself.
class RealDriver {
public:
  /// The driver at $OCELOT_REAL_LIBCUDA, else the first NVIDIA libcuda.so.1 in the usual system
  /// folders and $LD_LIBRARY_PATH that is not this library. Null when there is none.
  static RealDriver* find();

  const std::string& path() const { return path_; }
  /// A driver function for the CUDA 13.0 ABI (cuGetProcAddress_v2 of the real driver), or null.
  void* symbol(const char* name, int cudaVersion = 13000, cuuint64_t flags = 0) const;

  /// A function the driver exports under exactly this symbol name (cuMemAlloc_v2, ..._ptsz).
  void* exported(const char* symbol) const;

  /// A typed function the driver exports under `symbol`; use OCELOT_REAL_FUNCTION, which names
  /// the symbol of the declaration the type comes from.
  template <class Function> Function exportedAs(const char* symbol) const {
    void* address = exported(symbol);
    Function function = nullptr;
    static_assert(sizeof function == sizeof address);
    __builtin_memcpy(&function, &address, sizeof function);
    return function;
  }

private:
  /// Whether an address lies in this library (the shim), which a forward must never reach.
  static bool isOwn(const void* address);

  RealDriver(void* library, std::string path, decltype(&::cuGetProcAddress) getProcAddress)
      : library_(library), path_(std::move(path)), getProcAddress_(getProcAddress) {}

  void* library_;
  std::string path_;
  decltype(&::cuGetProcAddress) getProcAddress_;
};

} // namespace ocelot::runtime::driverapi

#define OCELOT_REAL_STRINGIZE_(x) #x
#define OCELOT_REAL_STRINGIZE(x) OCELOT_REAL_STRINGIZE_(x)

/// NVIDIA's `function` (a RealDriver&), with exactly the ABI of cuda.h's declaration of it: the
/// symbol that declaration names after cuda.h's macros (cuMemAlloc is cuMemAlloc_v2). Never
/// cuGetProcAddress(name, 13000): for cuCtxGetDevice and cuCtxSynchronize that answers their
/// CUDA 13 "_v2" (which take a context too), and a call with the old signature passes garbage for
/// it (CuPy crashed in cuCtxGetDevice on an H200 this way).
#define OCELOT_REAL_FUNCTION(real, function)                                                       \
  (real).exportedAs<decltype(&function)>(OCELOT_REAL_STRINGIZE(function))
