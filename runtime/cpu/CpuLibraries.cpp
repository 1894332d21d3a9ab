// The CPU device's libraries (cudaLibraryLoadData & co.): modules loaded from PTX images.

#include "runtime/cpu/CpuLibraries.h"

#include "runtime/cpu/CpuDevice.h"

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace ocelot::runtime::cpu {

cudaError_t CpuLibraries::load(const void* image, const char* file, cudaJitOption*, void**,
                               unsigned int, cudaLibraryOption*, void**, unsigned int,
                               cudaLibrary_t* library) {
  std::string text;
  if (image != nullptr) {
    text = static_cast<const char*>(image);
  } else {
    std::FILE* in = std::fopen(file, "rb");
    if (in == nullptr)
      return cudaErrorFileNotFound;
    char buffer[4096];
    for (size_t got; (got = std::fread(buffer, 1, sizeof buffer, in)) != 0;)
      text.append(buffer, got);
    std::fclose(in);
  }
  if (text.find(".version") == std::string::npos) {
    // Not PTX (a cubin, a fatbinary, garbage): like the driver's lazy loading, the load itself
    // succeeds and using the library fails.
    auto placeholder = std::make_unique<char>();
    *library = reinterpret_cast<cudaLibrary_t>(placeholder.get());
    std::lock_guard lock(device_.mutex_);
    device_.unusableLibraries_[placeholder.get()] = std::move(placeholder);
    return cudaSuccess;
  }
  ModuleImage moduleImage;
  moduleImage.form = ModuleImage::Form::Ptx;
  moduleImage.ptx = {std::move(text)};
  moduleImage.label = "library";
  DeviceModule module = nullptr;
  std::string log;
  if (cudaError_t error = device_.loadModule(moduleImage, &module, &log); error != cudaSuccess) {
    std::fprintf(stderr, "ocelot: %s\n", log.c_str());
    return error;
  }
  *library = static_cast<cudaLibrary_t>(module);
  return cudaSuccess;
}

cudaError_t CpuLibraries::unload(cudaLibrary_t library) {
  {
    std::lock_guard lock(device_.mutex_);
    if (device_.unusableLibraries_.erase(library) != 0)
      return cudaSuccess;
  }
  return device_.unloadModule(library);
}

cudaError_t CpuLibraries::kernel(cudaLibrary_t library, const char* name, cudaKernel_t* kernel) {
  DeviceFunction handle = nullptr;
  if (cudaError_t error = device_.function(library, name, &handle); error != cudaSuccess)
    return error;
  *kernel = static_cast<cudaKernel_t>(handle);
  return cudaSuccess;
}

cudaError_t CpuLibraries::kernelCount(cudaLibrary_t library, unsigned int* count) {
  std::lock_guard lock(device_.mutex_);
  auto it = device_.modules_.find(static_cast<CpuModule*>(static_cast<void*>(library)));
  if (it == device_.modules_.end())
    return cudaErrorInvalidResourceHandle;
  unsigned int kernels = 0;
  for (const ModuleFunction& function : it->second->functions())
    kernels += function.function->isEntry() ? 1 : 0;
  *count = kernels;
  return cudaSuccess;
}

cudaError_t CpuLibraries::kernels(cudaLibrary_t library, cudaKernel_t* kernels,
                                  unsigned int count) {
  std::vector<std::string> names;
  {
    std::lock_guard lock(device_.mutex_);
    auto it = device_.modules_.find(static_cast<CpuModule*>(static_cast<void*>(library)));
    if (it == device_.modules_.end())
      return cudaErrorInvalidResourceHandle;
    for (const ModuleFunction& function : it->second->functions())
      if (function.function->isEntry())
        names.emplace_back(function.name);
  }
  for (unsigned int i = 0; i < count && i < names.size(); ++i)
    if (cudaError_t error = kernel(library, names[i].c_str(), &kernels[i]); error != cudaSuccess)
      return error;
  return cudaSuccess;
}

cudaError_t CpuLibraries::global(cudaLibrary_t library, const char* name, bool, void** address,
                                 size_t* bytes) {
  return device_.global(library, name, address, bytes);
}

cudaError_t CpuLibraries::kernelFunction(cudaKernel_t kernel, DeviceFunction* function) {
  std::lock_guard lock(device_.mutex_);
  if (!device_.functions_.count(kernel))
    return cudaErrorInvalidResourceHandle;
  *function = kernel;
  return cudaSuccess;
}

cudaError_t CpuLibraries::kernelName(cudaKernel_t kernel, const char** name) {
  std::lock_guard lock(device_.mutex_);
  auto it = device_.functions_.find(kernel);
  if (it == device_.functions_.end())
    return cudaErrorInvalidResourceHandle;
  *name = it->second->name.c_str();
  return cudaSuccess;
}

} // namespace ocelot::runtime::cpu
