// Runtime: libraries the application loads itself (cudaLibraryLoadData & co.). PTX libraries go
// through Ocelot's pipeline like registered modules; cubins, fatbinaries and text Ocelot cannot
// parse reach the device unchanged, which then answers exactly as for NVIDIA's runtime.

#include "runtime/core/Library.h"
#include "runtime/core/Runtime.h"

#include <cstdint>
#include <cstring>
#include <mutex>
#include <string_view>

namespace ocelot::runtime {
namespace {

/// Whether an in-memory image is PTX text (cubins and fatbinaries start with their magic numbers;
/// anything else must be a NUL-terminated text, as the driver requires).
bool looksLikePtx(const void* image, std::string_view* text) {
  const auto* bytes = static_cast<const unsigned char*>(image);
  if (bytes[0] == 0x7f && bytes[1] == 'E' && bytes[2] == 'L' && bytes[3] == 'F')
    return false;
  uint32_t magic = 0;
  std::memcpy(&magic, bytes, sizeof magic);
  if (magic == 0xBA55ED50u || magic == 0x466243B1u)
    return false;
  *text = std::string_view(static_cast<const char*>(image));
  return text->find(".version") != std::string_view::npos;
}

} // namespace

cudaError_t Runtime::libraryLoad(cudaLibrary_t* library, const void* image, const char* file,
                                 cudaJitOption* jitOptions, void** jitValues, unsigned int jitCount,
                                 cudaLibraryOption* libraryOptions, void** libraryValues,
                                 unsigned int libraryCount) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (library == nullptr || (image == nullptr && file == nullptr) ||
      (jitCount != 0 && (jitOptions == nullptr || jitValues == nullptr)) ||
      (libraryCount != 0 && (libraryOptions == nullptr || libraryValues == nullptr)))
    return cudaErrorInvalidValue;

  Libraries* libraries = device->libraries();
  if (libraries == nullptr)
    return cudaErrorNotSupported;

  std::string built;
  std::string_view text;
  if (image != nullptr && looksLikePtx(image, &text)) {
    auto result = pipeline_.buildText(text, "library");
    if (result)
      built = std::move(*result);
    else
      logger_.warn(result.error().reason + "; loading the library unchanged");
  }
  const void* loaded = built.empty() ? image : built.c_str();
  cudaError_t error = libraries->load(loaded, file, jitOptions, jitValues, jitCount, libraryOptions,
                                      libraryValues, libraryCount, library);
  if (error == cudaSuccess && !built.empty()) {
    // The driver may read the text again when it loads the library lazily: keep it.
    std::lock_guard lock(librariesMutex_);
    libraryTexts_[*library] = std::move(built);
  }
  return deviceResult(error);
}

cudaError_t Runtime::libraryUnload(cudaLibrary_t library) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (library == nullptr)
    return cudaErrorInvalidResourceHandle;
  Libraries* libraries = device->libraries();
  if (libraries == nullptr)
    return cudaErrorNotSupported;
  cudaError_t error = libraries->unload(library);
  if (error == cudaSuccess) {
    kernelHandles_.forgetLibrary(library);
    std::lock_guard lock(librariesMutex_);
    libraryTexts_.erase(library);
  }
  return deviceResult(error);
}

cudaError_t Runtime::libraryGetKernel(cudaKernel_t* kernel, cudaLibrary_t library,
                                      const char* name) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (kernel == nullptr || name == nullptr)
    return cudaErrorInvalidValue;
  if (library == nullptr)
    return cudaErrorInvalidResourceHandle;
  Libraries* libraries = device->libraries();
  if (libraries == nullptr)
    return cudaErrorNotSupported;
  cudaError_t error = libraries->kernel(library, name, kernel);
  if (error == cudaSuccess)
    kernelHandles_.addLibraryKernel(*kernel, library);
  return deviceResult(error);
}

cudaError_t Runtime::libraryGetKernelCount(unsigned int* count, cudaLibrary_t library) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (count == nullptr)
    return cudaErrorInvalidValue;
  if (library == nullptr)
    return cudaErrorInvalidResourceHandle;
  Libraries* libraries = device->libraries();
  if (libraries == nullptr)
    return cudaErrorNotSupported;
  return deviceResult(libraries->kernelCount(library, count));
}

cudaError_t Runtime::libraryEnumerateKernels(cudaKernel_t* kernels, unsigned int count,
                                             cudaLibrary_t library) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (kernels == nullptr || count == 0)
    return cudaErrorInvalidValue;
  if (library == nullptr)
    return cudaErrorInvalidResourceHandle;
  Libraries* libraries = device->libraries();
  if (libraries == nullptr)
    return cudaErrorNotSupported;
  cudaError_t error = libraries->kernels(library, kernels, count);
  if (error == cudaSuccess)
    for (unsigned int i = 0; i < count; ++i)
      if (kernels[i] != nullptr)
        kernelHandles_.addLibraryKernel(kernels[i], library);
  return deviceResult(error);
}

cudaError_t Runtime::libraryGetGlobal(void** address, size_t* bytes, cudaLibrary_t library,
                                      const char* name, bool managed) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (name == nullptr || (address == nullptr && bytes == nullptr))
    return cudaErrorInvalidValue;
  if (library == nullptr)
    return cudaErrorInvalidResourceHandle;
  Libraries* libraries = device->libraries();
  if (libraries == nullptr)
    return cudaErrorNotSupported;
  return deviceResult(libraries->global(library, name, managed, address, bytes));
}

cudaError_t Runtime::libraryGetUnifiedFunction(void** function, cudaLibrary_t library,
                                               const char* name) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (function == nullptr || name == nullptr)
    return cudaErrorInvalidValue;
  if (library == nullptr)
    return cudaErrorInvalidResourceHandle;
  Libraries* libraries = device->libraries();
  if (libraries == nullptr)
    return cudaErrorNotSupported;
  return deviceResult(libraries->unifiedFunction(library, name, function));
}

} // namespace ocelot::runtime
