// Ocelot's libcuda.so.1: the CUkernel and CUlibrary calls beyond loading and lookup, for libraries
// Ocelot loaded (PTX through cuLibraryLoadData, as Numba-CUDA does). Their CUkernel is the module's
// CUfunction (ModuleApi.cpp), so each call is the function's call; a kernel or library Ocelot did
// not load is NVIDIA's business on a GPU.

#include "runtime/driverapi/DriverShim.h"

using namespace ocelot::runtime::driverapi;

namespace {

/// The function of a kernel Ocelot loaded, or null.
CUfunction ours(CUkernel kernel) {
  auto function = reinterpret_cast<CUfunction>(kernel);
  return shim().stub(function) != nullptr ? function : nullptr;
}

bool ours(CUlibrary library) {
  return shim().registration(reinterpret_cast<CUmodule>(library)) != nullptr;
}

} // namespace

extern "C" {

// The device argument names where the kernel is loaded; a library of Ocelot's is loaded on the
// device that was current then, and its function answers for that device.
CUresult CUDAAPI cuKernelGetAttribute(int* value, CUfunction_attribute which, CUkernel kernel,
                                      CUdevice device) {
  CUfunction function = ours(kernel);
  if (function == nullptr) {
    OCELOT_FORWARD(cuKernelGetAttribute, value, which, kernel, device);
    return CUDA_ERROR_INVALID_HANDLE;
  }
  return cuFuncGetAttribute(value, which, function);
}

CUresult CUDAAPI cuKernelSetAttribute(CUfunction_attribute which, int value, CUkernel kernel,
                                      CUdevice device) {
  CUfunction function = ours(kernel);
  if (function == nullptr) {
    OCELOT_FORWARD(cuKernelSetAttribute, which, value, kernel, device);
    return CUDA_ERROR_INVALID_HANDLE;
  }
  return cuFuncSetAttribute(function, which, value);
}

CUresult CUDAAPI cuKernelSetCacheConfig(CUkernel kernel, CUfunc_cache config, CUdevice device) {
  CUfunction function = ours(kernel);
  if (function == nullptr) {
    OCELOT_FORWARD(cuKernelSetCacheConfig, kernel, config, device);
    return CUDA_ERROR_INVALID_HANDLE;
  }
  if (config < CU_FUNC_CACHE_PREFER_NONE || config > CU_FUNC_CACHE_PREFER_EQUAL)
    return CUDA_ERROR_INVALID_VALUE;
  OCELOT_FORWARD(cuFuncSetCacheConfig, function, config);
  return CUDA_SUCCESS; // a preference, which the CPU device has no cache to apply to
}

CUresult CUDAAPI cuKernelGetName(const char** name, CUkernel kernel) {
  CUfunction function = ours(kernel);
  if (function == nullptr) {
    OCELOT_FORWARD(cuKernelGetName, name, kernel);
    return CUDA_ERROR_INVALID_HANDLE;
  }
  return cuFuncGetName(name, function);
}

CUresult CUDAAPI cuKernelGetParamInfo(CUkernel kernel, size_t index, size_t* offset, size_t* size) {
  CUfunction function = ours(kernel);
  if (function == nullptr) {
    OCELOT_FORWARD(cuKernelGetParamInfo, kernel, index, offset, size);
    return CUDA_ERROR_INVALID_HANDLE;
  }
  return cuFuncGetParamInfo(function, index, offset, size);
}

CUresult CUDAAPI cuKernelGetLibrary(CUlibrary* library, CUkernel kernel) {
  CUfunction function = ours(kernel);
  if (function == nullptr) {
    OCELOT_FORWARD(cuKernelGetLibrary, library, kernel);
    return CUDA_ERROR_INVALID_HANDLE;
  }
  if (library == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  CUmodule module = shim().moduleOf(function);
  if (module == nullptr)
    return CUDA_ERROR_INVALID_HANDLE;
  *library = reinterpret_cast<CUlibrary>(module);
  return CUDA_SUCCESS;
}

// A managed variable of Ocelot's module is one of its globals (the runtime allocates it managed).
CUresult CUDAAPI cuLibraryGetManaged(CUdeviceptr* address, size_t* bytes, CUlibrary library,
                                     const char* name) {
  if (!ours(library)) {
    OCELOT_FORWARD(cuLibraryGetManaged, address, bytes, library, name);
    return CUDA_ERROR_INVALID_HANDLE;
  }
  return cuLibraryGetGlobal(address, bytes, library, name);
}

// Unified functions come with a fatbinary's host code; a module Ocelot loaded has none.
CUresult CUDAAPI cuLibraryGetUnifiedFunction(void** function, CUlibrary library, const char* name) {
  if (!ours(library)) {
    OCELOT_FORWARD(cuLibraryGetUnifiedFunction, function, library, name);
    return CUDA_ERROR_INVALID_HANDLE;
  }
  if (function == nullptr || name == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  *function = nullptr;
  return CUDA_ERROR_NOT_FOUND;
}

} // extern "C"
