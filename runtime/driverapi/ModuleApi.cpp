// Ocelot's libcuda.so.1: modules, libraries and their functions. Every module image (and, on the
// CPU device, every library) goes to Ocelot's runtime (Runtime::moduleLoad), which registers it
// like a fatbinary of the application, so that its PTX goes through the module pipeline and its
// launches through the instrumentation. Handles are the device's own (see DriverShim).

#include "runtime/driverapi/DriverShim.h"

#include <fstream>
#include <initializer_list>
#include <iterator>
#include <string>

using namespace ocelot::runtime::driverapi;

namespace {

CUresult load(CUmodule* module, const void* image, const char* origin) {
  if (module == nullptr || image == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  shim().followDriverContext();
  void** registration = nullptr;
  void* device = nullptr; // the CUmodule on a GPU
  if (cudaError_t error = runtimeCalls().moduleLoad(image, origin, &registration, &device);
      error != cudaSuccess)
    return DriverShim::result(error);
  *module = static_cast<CUmodule>(device);
  shim().addModule(*module, registration);
  return CUDA_SUCCESS;
}

/// Whether an image is text (PTX), not an ELF cubin, a fatbinary or a registration wrapper
/// around one. Compared byte by byte: PTX text may be shorter than a magic number.
bool isPtxText(const void* image) {
  const auto* bytes = static_cast<const unsigned char*>(image);
  auto startsWith = [bytes](std::initializer_list<unsigned char> magic) {
    size_t i = 0;
    for (unsigned char byte : magic)
      if (bytes[i++] != byte)
        return false;
    return true;
  };
  return bytes[0] != '\0' && !startsWith({0x7f, 'E', 'L', 'F'}) &&
         !startsWith({0x50, 0xed, 0x55, 0xba}) && // fatbinary (0xba55ed50, little-endian)
         !startsWith({0xb1, 0x43, 0x62, 0x46});   // registration wrapper (0x466243b1)
}

std::string readFile(const char* path, bool* found) {
  std::ifstream file(path, std::ios::binary);
  *found = static_cast<bool>(file);
  return std::string((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
}

CUresult loadFile(CUmodule* module, const char* path, const char* origin) {
  if (module == nullptr || path == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  bool found = false;
  std::string bytes = readFile(path, &found);
  if (!found)
    return CUDA_ERROR_FILE_NOT_FOUND;
  return load(module, bytes.c_str(), origin); // c_str: PTX files need their terminating NUL
}

CUresult unload(CUmodule module) {
  void** registration = shim().forgetModule(module);
  if (registration == nullptr)
    return CUDA_ERROR_INVALID_HANDLE;
  return DriverShim::result(runtimeCalls().moduleUnload(registration));
}

CUresult function(CUfunction* function, CUmodule module, const char* name) {
  if (function == nullptr || name == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  void** registration = shim().registration(module);
  if (registration == nullptr)
    return CUDA_ERROR_INVALID_HANDLE;
  const void* stub = nullptr;
  void* device = nullptr; // the CUfunction on a GPU
  if (cudaError_t error = runtimeCalls().moduleFunction(registration, name, &stub, &device);
      error != cudaSuccess)
    return DriverShim::result(error);
  *function = static_cast<CUfunction>(device);
  shim().addFunction(module, *function, stub);
  return CUDA_SUCCESS;
}

CUresult global(CUdeviceptr* address, size_t* bytes, CUmodule module, const char* name) {
  if (name == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  void** registration = shim().registration(module);
  if (registration == nullptr)
    return CUDA_ERROR_INVALID_HANDLE;
  void* storage = nullptr;
  size_t size = 0;
  if (cudaError_t error = runtimeCalls().moduleGlobal(registration, name, &storage, &size);
      error != cudaSuccess)
    return DriverShim::result(error);
  if (address != nullptr)
    *address = reinterpret_cast<uintptr_t>(storage);
  if (bytes != nullptr)
    *bytes = size;
  return CUDA_SUCCESS;
}

/// Whether a library handle is a module the shim loaded (on a GPU, libraries are NVIDIA's own).
bool ours(CUlibrary library) {
  return shim().registration(reinterpret_cast<CUmodule>(library)) != nullptr;
}

/// cuFuncGetAttribute's answer from the runtime's attributes of the kernel.
CUresult attribute(int* value, CUfunction_attribute which, const cudaFuncAttributes& attributes) {
  switch (which) {
  case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
    *value = attributes.maxThreadsPerBlock;
    break;
  case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES:
    *value = static_cast<int>(attributes.sharedSizeBytes);
    break;
  case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES:
    *value = static_cast<int>(attributes.constSizeBytes);
    break;
  case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES:
    *value = static_cast<int>(attributes.localSizeBytes);
    break;
  case CU_FUNC_ATTRIBUTE_NUM_REGS:
    *value = attributes.numRegs;
    break;
  case CU_FUNC_ATTRIBUTE_PTX_VERSION:
    *value = attributes.ptxVersion;
    break;
  case CU_FUNC_ATTRIBUTE_BINARY_VERSION:
    *value = attributes.binaryVersion;
    break;
  case CU_FUNC_ATTRIBUTE_CACHE_MODE_CA:
    *value = attributes.cacheModeCA;
    break;
  case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
    *value = attributes.maxDynamicSharedSizeBytes;
    break;
  case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
    *value = attributes.preferredShmemCarveout;
    break;
  default:
    return shim().notSupported("cuFuncGetAttribute (this attribute)");
  }
  return CUDA_SUCCESS;
}

} // namespace

extern "C" {

CUresult CUDAAPI cuModuleLoad(CUmodule* module, const char* path) {
  return loadFile(module, path, "cuModuleLoad");
}

CUresult CUDAAPI cuModuleLoadData(CUmodule* module, const void* image) {
  return load(module, image, "cuModuleLoadData");
}

CUresult CUDAAPI cuModuleLoadDataEx(CUmodule* module, const void* image, unsigned int count,
                                    CUjit_option* options, void** values) {
  if (count != 0 && (options == nullptr || values == nullptr))
    return CUDA_ERROR_INVALID_VALUE;
  // JIT options tune the driver's compilation of Ocelot's PTX; the module is Ocelot's to build.
  return load(module, image, "cuModuleLoadDataEx");
}

CUresult CUDAAPI cuModuleLoadFatBinary(CUmodule* module, const void* image) {
  return load(module, image, "cuModuleLoadFatBinary");
}

// A module the shim did not load (on a GPU: one of a library NVIDIA's driver loaded) is the
// driver's business.
CUresult CUDAAPI cuModuleUnload(CUmodule module) {
  if (shim().registration(module) == nullptr)
    OCELOT_FORWARD(cuModuleUnload, module);
  return unload(module);
}

CUresult CUDAAPI cuModuleGetFunction(CUfunction* result, CUmodule module, const char* name) {
  if (shim().registration(module) == nullptr)
    OCELOT_FORWARD(cuModuleGetFunction, result, module, name);
  return function(result, module, name);
}

CUresult CUDAAPI cuModuleGetGlobal(CUdeviceptr* address, size_t* bytes, CUmodule module,
                                   const char* name) {
  if (shim().registration(module) == nullptr)
    OCELOT_FORWARD(cuModuleGetGlobal, address, bytes, module, name);
  return global(address, bytes, module, name);
}

// Libraries of PTX text (Numba-CUDA's kernels, through the shim's linker or directly) are
// Ocelot's modules, on a GPU too: the library handle is the module's, its kernels the module's
// functions (KernelApi.cpp answers the kernel calls). Other images go to NVIDIA's driver unchanged
// on a GPU: NVIDIA's runtime (also the static copies inside cuBLAS, cuDNN, ...) loads its
// fatbinaries this way and passes the handles to library and kernel calls the shim does not
// translate; their kernels launch outside Ocelot's view (cuLaunchKernel logs it once). On the CPU
// device every library is a module of the runtime.
CUresult CUDAAPI cuLibraryLoadData(CUlibrary* library, const void* code, CUjit_option* jitOptions,
                                   void** jitValues, unsigned int jitCount,
                                   CUlibraryOption* libraryOptions, void** libraryValues,
                                   unsigned int libraryCount) {
  if (code == nullptr || !isPtxText(code))
    OCELOT_FORWARD(cuLibraryLoadData, library, code, jitOptions, jitValues, jitCount,
                   libraryOptions, libraryValues, libraryCount);
  if ((jitCount != 0 && (jitOptions == nullptr || jitValues == nullptr)) ||
      (libraryCount != 0 && (libraryOptions == nullptr || libraryValues == nullptr)))
    return CUDA_ERROR_INVALID_VALUE;
  return load(reinterpret_cast<CUmodule*>(library), code, "cuLibraryLoadData");
}

CUresult CUDAAPI cuLibraryLoadFromFile(CUlibrary* library, const char* path,
                                       CUjit_option* jitOptions, void** jitValues,
                                       unsigned int jitCount, CUlibraryOption* libraryOptions,
                                       void** libraryValues, unsigned int libraryCount) {
  if ((jitCount != 0 && (jitOptions == nullptr || jitValues == nullptr)) ||
      (libraryCount != 0 && (libraryOptions == nullptr || libraryValues == nullptr)))
    return CUDA_ERROR_INVALID_VALUE;
  if (library == nullptr || path == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  bool found = false;
  std::string bytes = readFile(path, &found);
  if (!found || !isPtxText(bytes.c_str()))
    OCELOT_FORWARD(cuLibraryLoadFromFile, library, path, jitOptions, jitValues, jitCount,
                   libraryOptions, libraryValues, libraryCount);
  if (!found)
    return CUDA_ERROR_FILE_NOT_FOUND;
  return load(reinterpret_cast<CUmodule*>(library), bytes.c_str(), "cuLibraryLoadFromFile");
}

CUresult CUDAAPI cuLibraryUnload(CUlibrary library) {
  if (!ours(library))
    OCELOT_FORWARD(cuLibraryUnload, library);
  return unload(reinterpret_cast<CUmodule>(library));
}

CUresult CUDAAPI cuLibraryGetKernel(CUkernel* kernel, CUlibrary library, const char* name) {
  if (!ours(library))
    OCELOT_FORWARD(cuLibraryGetKernel, kernel, library, name);
  return function(reinterpret_cast<CUfunction*>(kernel), reinterpret_cast<CUmodule>(library), name);
}

CUresult CUDAAPI cuLibraryGetModule(CUmodule* module, CUlibrary library) {
  if (!ours(library))
    OCELOT_FORWARD(cuLibraryGetModule, module, library);
  if (module == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  if (!ours(library))
    return CUDA_ERROR_INVALID_HANDLE;
  *module = reinterpret_cast<CUmodule>(library);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuLibraryGetGlobal(CUdeviceptr* address, size_t* bytes, CUlibrary library,
                                    const char* name) {
  if (!ours(library))
    OCELOT_FORWARD(cuLibraryGetGlobal, address, bytes, library, name);
  return global(address, bytes, reinterpret_cast<CUmodule>(library), name);
}

CUresult CUDAAPI cuKernelGetFunction(CUfunction* function, CUkernel kernel) {
  if (shim().stub(reinterpret_cast<CUfunction>(kernel)) == nullptr)
    OCELOT_FORWARD(cuKernelGetFunction, function, kernel);
  if (function == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  if (shim().stub(reinterpret_cast<CUfunction>(kernel)) == nullptr)
    return CUDA_ERROR_INVALID_HANDLE;
  *function = reinterpret_cast<CUfunction>(kernel);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuFuncGetAttribute(int* value, CUfunction_attribute which, CUfunction function) {
  OCELOT_FORWARD(cuFuncGetAttribute, value, which, function);
  if (value == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  const void* stub = shim().stub(function);
  if (stub == nullptr)
    return CUDA_ERROR_INVALID_HANDLE;
  cudaFuncAttributes attributes{};
  if (cudaError_t error = runtimeCalls().cudaFuncGetAttributes(&attributes, stub);
      error != cudaSuccess)
    return DriverShim::result(error);
  return attribute(value, which, attributes);
}

// A function of Ocelot's goes to the runtime on a GPU too: it sets the attribute where Ocelot
// launches the kernel (cudaFuncSetAttribute's path), e.g. the opt-in to more dynamic shared memory.
CUresult CUDAAPI cuFuncSetAttribute(CUfunction function, CUfunction_attribute which, int value) {
  const void* stub = shim().stub(function);
  if (stub == nullptr) {
    OCELOT_FORWARD(cuFuncSetAttribute, function, which, value);
    return CUDA_ERROR_INVALID_HANDLE;
  }
  shim().followDriverContext();
  // The settable attributes share their numbers with cudaFuncAttribute.
  return DriverShim::result(
      runtimeCalls().cudaFuncSetAttribute(stub, static_cast<cudaFuncAttribute>(which), value));
}

CUresult CUDAAPI cuFuncGetParamInfo(CUfunction function, size_t index, size_t* offset,
                                    size_t* size) {
  OCELOT_FORWARD(cuFuncGetParamInfo, function, index, offset, size);
  const void* stub = shim().stub(function);
  if (stub == nullptr)
    return CUDA_ERROR_INVALID_HANDLE;
  return DriverShim::result(runtimeCalls().cudaFuncGetParamInfo(stub, index, offset, size));
}

CUresult CUDAAPI cuOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, CUfunction function,
                                                             int blockSize, size_t sharedMem) {
  OCELOT_FORWARD(cuOccupancyMaxActiveBlocksPerMultiprocessor, blocks, function, blockSize,
                 sharedMem);
  const void* stub = shim().stub(function);
  if (stub == nullptr)
    return CUDA_ERROR_INVALID_HANDLE;
  return DriverShim::result(runtimeCalls().cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      blocks, stub, blockSize, sharedMem));
}

CUresult CUDAAPI cuFuncGetName(const char** name, CUfunction function) {
  if (name == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  const void* stub = shim().stub(function);
  if (stub == nullptr) {
    OCELOT_FORWARD(cuFuncGetName, name, function);
    return CUDA_ERROR_INVALID_HANDLE;
  }
  *name = runtimeCalls().moduleFunctionName(stub);
  return *name != nullptr ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

} // extern "C"
