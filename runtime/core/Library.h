#pragma once

#include "runtime/core/HandleTable.h"
#include "runtime/core/LaunchParams.h"

#include <cuda_runtime_api.h>

#include <driver_types.h>
#include <string>

namespace ocelot::runtime {

/// A library the application loaded itself (cudaLibraryLoadData & co.: cudaLibrary_t, the
/// CUlibrary itself on the driver). Its kernels are cudaKernel_t handles of the device.
class Library {
public:
  explicit Library(cudaLibrary_t handle) : handle_(handle) {}
  virtual ~Library() = default;
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;

  cudaLibrary_t handle() const { return handle_; }

  virtual cudaError_t kernel(const char* name, cudaKernel_t* kernel) = 0;
  virtual cudaError_t kernelCount(unsigned int* count) = 0;
  virtual cudaError_t kernels(cudaKernel_t* kernels, unsigned int count) = 0;
  /// A .global (managed = false) or .managed variable.
  virtual cudaError_t global(const char* name, bool managed, void** address, size_t* bytes) = 0;
  virtual cudaError_t unifiedFunction(const char* /*name*/, void** /*function*/) {
    return cudaErrorNotSupported;
  }

  /// The PTX Ocelot built for the library: the driver may read it again when it loads lazily.
  void keepSource(std::string text) { source_ = std::move(text); }

private:
  const cudaLibrary_t handle_;
  std::string source_;
};

/// A device's libraries.
class Libraries {
public:
  virtual ~Libraries() = default;

  virtual cudaError_t load(const void* image, const char* file, cudaJitOption* jitOptions,
                           void** jitValues, unsigned int jitCount,
                           cudaLibraryOption* libraryOptions, void** libraryValues,
                           unsigned int libraryCount, Library** library) = 0;
  virtual cudaError_t unload(Library& library) = 0;
  /// The function a library kernel launches as.
  virtual cudaError_t kernelFunction(cudaKernel_t kernel, DeviceFunction* function) = 0;
  virtual cudaError_t kernelName(cudaKernel_t kernel, const char** name) = 0;

  Library* find(cudaLibrary_t handle) {
    if (Library* library = table_.find(handle))
      return library;
    return adopt(handle);
  }

protected:
  /// Handles the table does not know (see Streams::adopt).
  virtual Library* adopt(cudaLibrary_t /*handle*/) { return nullptr; }

  HandleTable<Library> table_;
};

} // namespace ocelot::runtime
