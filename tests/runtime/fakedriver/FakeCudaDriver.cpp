// A stand-in libcuda.so.1 for testing Ocelot's driver path on machines without a GPU: Ocelot's
// runtime dlopen()s it, resolves every function through cuGetProcAddress_v2 and drives one fake
// device whose memory is host memory. Kernels do not run; what the runtime hands to the "driver"
// (PTX modules, links, launches) is appended to $OCELOT_FAKE_DRIVER_LOG/driver.log and PTX texts
// are written next to it, so tests can check that Ocelot's module reached cuModuleLoadDataEx.
//
// OCELOT_FAKE_DRIVER selects the machine it pretends to be:
//   gpu (default)  one sm_90 device
//   old            a CUDA 12.8 driver (too old for a CUDA 13 runtime)
//   nodevice       a driver without a GPU: cuInit fails with CUDA_ERROR_NO_DEVICE
//   refuse-ptx     like gpu, but cuModuleLoadDataEx and cuLinkAddData reject every PTX text

#include <cuda.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace {

std::string mode() {
  const char* value = std::getenv("OCELOT_FAKE_DRIVER");
  return value != nullptr ? value : "gpu";
}

std::mutex gMutex;
int gModules = 0;

/// Whether launches are logged: without a log, cuLaunchKernel does nothing but check the context,
/// so that tests/benchmarks/runtime/LaunchOverheadBenchmark.cpp measures the runtime alone.
bool logging() {
  static const bool enabled = std::getenv("OCELOT_FAKE_DRIVER_LOG") != nullptr;
  return enabled;
}

void log(const std::string& line) {
  const char* directory = std::getenv("OCELOT_FAKE_DRIVER_LOG");
  if (directory == nullptr)
    return;
  std::lock_guard lock(gMutex);
  std::ofstream(std::string(directory) + "/driver.log", std::ios::app) << line << '\n';
}

void writeFile(const std::string& name, const std::string& text) {
  const char* directory = std::getenv("OCELOT_FAKE_DRIVER_LOG");
  if (directory != nullptr)
    std::ofstream(std::string(directory) + "/" + name, std::ios::binary) << text;
}

struct FakeModule {
  std::map<std::string, std::vector<char>> globals;
  std::vector<std::string> functions;
};

struct FakeLink {
  std::vector<std::string> units;
  std::string cubin = "fake linked cubin";
};

int gContext = 1; // the address is the primary context's handle
thread_local CUcontext tCurrent = nullptr;

CUcontext primaryContext() {
  return reinterpret_cast<CUcontext>(&gContext);
}

CUresult loadModule(CUmodule* module, const std::string& what) {
  auto* loaded = new FakeModule;
  *module = reinterpret_cast<CUmodule>(loaded);
  std::lock_guard lock(gMutex);
  ++gModules;
  (void)what;
  return CUDA_SUCCESS;
}

/// External memory and semaphore handles are numbered from fixed bases, so tests can tell that the
/// runtime hands the driver's own handle to the application and back; every call is logged with
/// the handles it received.
uintptr_t gExternalMemories = 0xe0000;
uintptr_t gExternalSemaphores = 0x5e000;

std::string hex(const void* handle) {
  char text[32];
  std::snprintf(text, sizeof text, "%p", handle);
  return text;
}

std::string semaphoreList(const CUexternalSemaphore* semaphores, unsigned int count) {
  std::string list;
  for (unsigned int i = 0; i < count; ++i)
    list += " " + hex(semaphores[i]);
  return list;
}

} // namespace

extern "C" {

CUresult cuDriverGetVersion(int* version) {
  *version = mode() == "old" ? 12080 : 13000;
  return CUDA_SUCCESS;
}

CUresult cuInit(unsigned int) {
  return mode() == "nodevice" ? CUDA_ERROR_NO_DEVICE : CUDA_SUCCESS;
}

CUresult cuGetErrorName(CUresult error, const char** name) {
  *name = error == CUDA_ERROR_NO_DEVICE ? "CUDA_ERROR_NO_DEVICE" : "CUDA_ERROR_FAKE";
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int* count) {
  *count = mode() == "nodevice" ? 0 : 1;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice* device, int ordinal) {
  if (ordinal != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  *device = 0;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char* name, int length, CUdevice) {
  std::snprintf(name, static_cast<size_t>(length), "Ocelot fake GPU");
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetAttribute(int* value, CUdevice_attribute attribute, CUdevice) {
  switch (attribute) {
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
    *value = 9;
    break;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
    *value = 0;
    break;
  case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
    *value = 132;
    break;
  // An H100's launch limits, which the runtime checks before it launches.
  case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X:
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y:
    *value = 1024;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z:
    *value = 64;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X:
    *value = 2147483647;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y:
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z:
    *value = 65535;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK:
    *value = 49152;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN:
    *value = 232448;
    break;
  default:
    *value = 1;
  }
  return CUDA_SUCCESS;
}

CUresult cuDeviceTotalMem(size_t* bytes, CUdevice) {
  *bytes = size_t{80} << 30;
  return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext* context, CUdevice) {
  *context = primaryContext();
  return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRelease(CUdevice) {
  return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxReset(CUdevice) {
  log("reset");
  return CUDA_SUCCESS;
}

CUresult cuCtxGetCurrent(CUcontext* context) {
  *context = tCurrent;
  return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext context) {
  tCurrent = context;
  return CUDA_SUCCESS;
}

// cuda.h's cuCtxGetDevice (the exported symbol of that name, one parameter) and what
// cuGetProcAddress("cuCtxGetDevice", 13000) returns, CUDA 13's cuCtxGetDevice_v2 (which names the
// context too), as NVIDIA's driver has them: a caller of the one-parameter declaration must reach
// the first (tests/driverapi/ForwardingTest.cpp). Each logs which one was called.
CUresult cuCtxGetDevice(CUdevice* device) {
  log("ctxGetDevice");
  if (tCurrent != primaryContext())
    return CUDA_ERROR_INVALID_CONTEXT;
  *device = 0;
  return CUDA_SUCCESS;
}

CUresult cuCtxGetDevice_v2(CUdevice* device, CUcontext context) {
  log("ctxGetDevice_v2");
  if (context == nullptr)
    context = tCurrent;
  if (context != primaryContext())
    return CUDA_ERROR_INVALID_CONTEXT;
  *device = 0;
  return CUDA_SUCCESS;
}

// What cuGetProcAddress("cuCtxSynchronize", 13000) returns: the CUDA 13 signature, which names the
// context (null: the current one).
CUresult cuCtxSynchronize_v2(CUcontext context) {
  if (context == nullptr)
    context = tCurrent;
  return context == primaryContext() ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

/// Device allocations by address and size, so that cuPointerGetAttributes knows device memory (the
/// runtime asks before copies whose kind names a device side, as a real driver would answer).
std::map<CUdeviceptr, size_t>& deviceAllocations() {
  static std::map<CUdeviceptr, size_t> allocations;
  return allocations;
}

CUresult cuMemAlloc(CUdeviceptr* pointer, size_t bytes) {
  if (tCurrent != primaryContext())
    return CUDA_ERROR_INVALID_CONTEXT;
  *pointer = reinterpret_cast<CUdeviceptr>(std::calloc(1, bytes));
  if (*pointer == 0)
    return CUDA_ERROR_OUT_OF_MEMORY;
  std::lock_guard lock(gMutex);
  deviceAllocations()[*pointer] = bytes;
  return CUDA_SUCCESS;
}

CUresult cuMemFree(CUdeviceptr pointer) {
  {
    std::lock_guard lock(gMutex);
    deviceAllocations().erase(pointer);
  }
  std::free(reinterpret_cast<void*>(pointer));
  return CUDA_SUCCESS;
}

CUresult cuMemGetInfo(size_t* free, size_t* total) {
  *free = size_t{79} << 30;
  *total = size_t{80} << 30;
  return CUDA_SUCCESS;
}

CUresult cuMemcpy(CUdeviceptr destination, CUdeviceptr source, size_t bytes) {
  std::memmove(reinterpret_cast<void*>(destination), reinterpret_cast<void*>(source), bytes);
  return CUDA_SUCCESS;
}

CUresult cuMemcpyAsync(CUdeviceptr destination, CUdeviceptr source, size_t bytes, CUstream) {
  return cuMemcpy(destination, source, bytes);
}

CUresult cuMemsetD8(CUdeviceptr destination, unsigned char value, size_t bytes) {
  std::memset(reinterpret_cast<void*>(destination), value, bytes);
  return CUDA_SUCCESS;
}

CUresult cuMemsetD8Async(CUdeviceptr destination, unsigned char value, size_t bytes, CUstream) {
  return cuMemsetD8(destination, value, bytes);
}

CUresult cuModuleLoadDataEx(CUmodule* module, const void* image, unsigned int, CUjit_option*,
                            void**) {
  std::string text(static_cast<const char*>(image));
  if (mode() == "refuse-ptx") {
    log("refused ptx");
    return CUDA_ERROR_INVALID_PTX;
  }
  int number = 0;
  {
    std::lock_guard lock(gMutex);
    number = gModules + 1;
  }
  writeFile("loaded-" + std::to_string(number) + ".ptx", text);
  log("load ptx module " + std::to_string(number) + " bytes " + std::to_string(text.size()));
  return loadModule(module, "ptx");
}

CUresult cuModuleLoadData(CUmodule* module, const void* image) {
  uint32_t magic = 0;
  std::memcpy(&magic, image, sizeof magic);
  if (magic == 0xBA55ED50)
    log("load fatbinary container");
  else if (std::memcmp(image, "fake linked cubin", 17) == 0)
    log("load linked cubin");
  else
    log("load unknown image");
  return loadModule(module, "image");
}

CUresult cuModuleUnload(CUmodule module) {
  delete reinterpret_cast<FakeModule*>(module);
  return CUDA_SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction* function, CUmodule module, const char* name) {
  auto* loaded = reinterpret_cast<FakeModule*>(module);
  std::lock_guard lock(gMutex);
  loaded->functions.emplace_back(name);
  *function = reinterpret_cast<CUfunction>(new std::string(name));
  return CUDA_SUCCESS;
}

CUresult cuModuleGetGlobal(CUdeviceptr* address, size_t* bytes, CUmodule module, const char* name) {
  auto* loaded = reinterpret_cast<FakeModule*>(module);
  std::lock_guard lock(gMutex);
  auto& storage = loaded->globals[name];
  if (storage.empty())
    storage.resize(256);
  if (address != nullptr)
    *address = reinterpret_cast<CUdeviceptr>(storage.data());
  if (bytes != nullptr)
    *bytes = storage.size();
  return CUDA_SUCCESS;
}

CUresult cuLinkCreate(unsigned int, CUjit_option*, void**, CUlinkState* state) {
  *state = reinterpret_cast<CUlinkState>(new FakeLink);
  return CUDA_SUCCESS;
}

CUresult cuLinkAddData(CUlinkState state, CUjitInputType type, void* data, size_t size,
                       const char* name, unsigned int, CUjit_option*, void**) {
  if (type != CU_JIT_INPUT_PTX || mode() == "refuse-ptx")
    return CUDA_ERROR_INVALID_PTX;
  auto* link = reinterpret_cast<FakeLink*>(state);
  link->units.emplace_back(static_cast<const char*>(data), size - 1);
  writeFile(std::string("linked-") + name, link->units.back());
  log(std::string("link add ") + name);
  return CUDA_SUCCESS;
}

CUresult cuLinkComplete(CUlinkState state, void** cubin, size_t* size) {
  auto* link = reinterpret_cast<FakeLink*>(state);
  log("link complete " + std::to_string(link->units.size()) + " units");
  *cubin = link->cubin.data();
  *size = link->cubin.size();
  return CUDA_SUCCESS;
}

CUresult cuLinkDestroy(CUlinkState state) {
  delete reinterpret_cast<FakeLink*>(state);
  return CUDA_SUCCESS;
}

CUresult cuLaunchKernel(CUfunction function, unsigned int gridX, unsigned int gridY,
                        unsigned int gridZ, unsigned int blockX, unsigned int blockY,
                        unsigned int blockZ, unsigned int, CUstream, void**, void**) {
  if (tCurrent != primaryContext())
    return CUDA_ERROR_INVALID_CONTEXT;
  if (!logging())
    return CUDA_SUCCESS;
  log("launch " + *reinterpret_cast<std::string*>(function) + " grid " +
      std::to_string(gridX * gridY * gridZ) + " block " + std::to_string(blockX * blockY * blockZ));
  return CUDA_SUCCESS;
}

CUresult cuStreamCreateWithPriority(CUstream* stream, unsigned int, int) {
  *stream = reinterpret_cast<CUstream>(new int(0));
  return CUDA_SUCCESS;
}

CUresult cuStreamDestroy(CUstream stream) {
  delete reinterpret_cast<int*>(stream);
  return CUDA_SUCCESS;
}

CUresult cuStreamSynchronize(CUstream) {
  return CUDA_SUCCESS;
}
CUresult cuStreamQuery(CUstream) {
  return CUDA_SUCCESS;
}
CUresult cuStreamWaitEvent(CUstream, CUevent, unsigned int) {
  return CUDA_SUCCESS;
}

CUresult cuEventCreate(CUevent* event, unsigned int) {
  *event = reinterpret_cast<CUevent>(new int(0));
  return CUDA_SUCCESS;
}

CUresult cuEventDestroy(CUevent event) {
  delete reinterpret_cast<int*>(event);
  return CUDA_SUCCESS;
}

CUresult cuEventRecord(CUevent, CUstream) {
  return CUDA_SUCCESS;
}
CUresult cuEventSynchronize(CUevent) {
  return CUDA_SUCCESS;
}
CUresult cuEventQuery(CUevent) {
  return CUDA_SUCCESS;
}

CUresult cuEventElapsedTime(float* milliseconds, CUevent, CUevent) {
  *milliseconds = 0.5f;
  return CUDA_SUCCESS;
}

// --- Host memory, host functions, launches with attributes: enough for the runtime's own
// validation and the thread stress test to reach the driver. Host allocations are tracked so that
// cuPointerGetAttributes and cuMemFreeHost can tell them from other memory.
std::map<void*, size_t>& hostAllocations() {
  static std::map<void*, size_t> allocations;
  return allocations;
}

CUresult cuMemHostAlloc(void** pointer, size_t bytes, unsigned int) {
  if (bytes > (size_t{1} << 40))
    return CUDA_ERROR_OUT_OF_MEMORY;
  *pointer = std::calloc(1, bytes);
  std::lock_guard lock(gMutex);
  hostAllocations()[*pointer] = bytes;
  return CUDA_SUCCESS;
}

CUresult cuMemFreeHost(void* pointer) {
  {
    std::lock_guard lock(gMutex);
    if (hostAllocations().erase(pointer) == 0)
      return CUDA_ERROR_INVALID_VALUE;
  }
  std::free(pointer);
  return CUDA_SUCCESS;
}

CUresult cuPointerGetAttributes(unsigned int count, CUpointer_attribute* attributes, void** data,
                                CUdeviceptr pointer) {
  bool host = false, device = false;
  {
    std::lock_guard lock(gMutex);
    host = hostAllocations().count(reinterpret_cast<void*>(pointer)) != 0;
    auto& allocations = deviceAllocations();
    auto it = allocations.upper_bound(pointer);
    device = it != allocations.begin() && pointer - std::prev(it)->first < std::prev(it)->second;
  }
  for (unsigned int i = 0; i < count; ++i) {
    switch (attributes[i]) {
    case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
      *static_cast<unsigned int*>(data[i]) =
          host ? CU_MEMORYTYPE_HOST : (device ? CU_MEMORYTYPE_DEVICE : 0);
      break;
    case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
      *static_cast<int*>(data[i]) = host || device ? 0 : -2;
      break;
    case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
      *static_cast<CUdeviceptr*>(data[i]) = host || device ? pointer : 0;
      break;
    case CU_POINTER_ATTRIBUTE_HOST_POINTER:
      *static_cast<void**>(data[i]) = host ? reinterpret_cast<void*>(pointer) : nullptr;
      break;
    default:
      *static_cast<int*>(data[i]) = 0;
    }
  }
  return CUDA_SUCCESS;
}

CUresult cuLaunchHostFunc(CUstream, CUhostFn function, void* userData) {
  // The fake device has no queue: earlier work is "done", so the function runs now.
  function(userData);
  return CUDA_SUCCESS;
}

CUresult cuLaunchKernelEx(const CUlaunchConfig* config, CUfunction function, void**, void**) {
  std::string line = "launchEx " + *reinterpret_cast<std::string*>(function) + " grid " +
                     std::to_string(config->gridDimX) + " block " +
                     std::to_string(config->blockDimX);
  for (unsigned int i = 0; i < config->numAttrs; ++i)
    line += " attribute " + std::to_string(config->attrs[i].id);
  log(line);
  return CUDA_SUCCESS;
}

CUresult cuStreamGetFlags(CUstream, unsigned int* flags) {
  *flags = 0;
  return CUDA_SUCCESS;
}

CUresult cuEventRecordWithFlags(CUevent, CUstream, unsigned int) {
  return CUDA_SUCCESS;
}

// External memory and semaphores (gExternalMemories, gExternalSemaphores).

CUresult cuImportExternalMemory(CUexternalMemory* memory,
                                const CUDA_EXTERNAL_MEMORY_HANDLE_DESC* description) {
  if (description->size == 0)
    return CUDA_ERROR_INVALID_VALUE;
  {
    std::lock_guard lock(gMutex);
    *memory = reinterpret_cast<CUexternalMemory>(++gExternalMemories);
  }
  log("importExternalMemory " + hex(*memory));
  return CUDA_SUCCESS;
}

CUresult cuExternalMemoryGetMappedBuffer(CUdeviceptr* pointer, CUexternalMemory memory,
                                         const CUDA_EXTERNAL_MEMORY_BUFFER_DESC* description) {
  log("externalMemoryGetMappedBuffer " + hex(memory));
  *pointer = reinterpret_cast<CUdeviceptr>(memory) * 0x1000 + description->offset;
  return CUDA_SUCCESS;
}

CUresult cuDestroyExternalMemory(CUexternalMemory memory) {
  log("destroyExternalMemory " + hex(memory));
  return CUDA_SUCCESS;
}

CUresult cuImportExternalSemaphore(CUexternalSemaphore* semaphore,
                                   const CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC*) {
  {
    std::lock_guard lock(gMutex);
    *semaphore = reinterpret_cast<CUexternalSemaphore>(++gExternalSemaphores);
  }
  log("importExternalSemaphore " + hex(*semaphore));
  return CUDA_SUCCESS;
}

CUresult cuDestroyExternalSemaphore(CUexternalSemaphore semaphore) {
  log("destroyExternalSemaphore " + hex(semaphore));
  return CUDA_SUCCESS;
}

CUresult cuSignalExternalSemaphoresAsync(const CUexternalSemaphore* semaphores,
                                         const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS*,
                                         unsigned int count, CUstream) {
  log("signalExternalSemaphores" + semaphoreList(semaphores, count));
  return CUDA_SUCCESS;
}

CUresult cuWaitExternalSemaphoresAsync(const CUexternalSemaphore* semaphores,
                                       const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS*,
                                       unsigned int count, CUstream) {
  log("waitExternalSemaphores" + semaphoreList(semaphores, count));
  return CUDA_SUCCESS;
}

CUresult cuGetProcAddress(const char* symbol, void** function, int cudaVersion, cuuint64_t,
                          CUdriverProcAddressQueryResult* status) {
  // Name -> function, as a real driver resolves them for cudaVersion 13000. The names the runtime
  // asks for are the unversioned ones; cuda.h maps several of them to their _v2 definitions above.
  static const std::map<std::string, void*> kFunctions = {
      {"cuInit", reinterpret_cast<void*>(&cuInit)},
      {"cuDriverGetVersion", reinterpret_cast<void*>(&cuDriverGetVersion)},
      {"cuGetErrorName", reinterpret_cast<void*>(&cuGetErrorName)},
      {"cuDeviceGetCount", reinterpret_cast<void*>(&cuDeviceGetCount)},
      {"cuDeviceGet", reinterpret_cast<void*>(&cuDeviceGet)},
      {"cuDeviceGetName", reinterpret_cast<void*>(&cuDeviceGetName)},
      {"cuDeviceGetAttribute", reinterpret_cast<void*>(&cuDeviceGetAttribute)},
      {"cuDeviceTotalMem", reinterpret_cast<void*>(&cuDeviceTotalMem)},
      {"cuDevicePrimaryCtxRetain", reinterpret_cast<void*>(&cuDevicePrimaryCtxRetain)},
      {"cuDevicePrimaryCtxRelease", reinterpret_cast<void*>(&cuDevicePrimaryCtxRelease)},
      {"cuDevicePrimaryCtxReset", reinterpret_cast<void*>(&cuDevicePrimaryCtxReset)},
      {"cuCtxGetCurrent", reinterpret_cast<void*>(&cuCtxGetCurrent)},
      {"cuCtxSetCurrent", reinterpret_cast<void*>(&cuCtxSetCurrent)},
      {"cuCtxSynchronize", reinterpret_cast<void*>(&cuCtxSynchronize_v2)},
      {"cuCtxGetDevice", reinterpret_cast<void*>(&cuCtxGetDevice_v2)},
      {"cuMemAlloc", reinterpret_cast<void*>(&cuMemAlloc)},
      {"cuMemFree", reinterpret_cast<void*>(&cuMemFree)},
      {"cuMemGetInfo", reinterpret_cast<void*>(&cuMemGetInfo)},
      {"cuMemcpy", reinterpret_cast<void*>(&cuMemcpy)},
      {"cuMemcpyAsync", reinterpret_cast<void*>(&cuMemcpyAsync)},
      {"cuMemsetD8", reinterpret_cast<void*>(&cuMemsetD8)},
      {"cuMemsetD8Async", reinterpret_cast<void*>(&cuMemsetD8Async)},
      {"cuModuleLoadData", reinterpret_cast<void*>(&cuModuleLoadData)},
      {"cuModuleLoadDataEx", reinterpret_cast<void*>(&cuModuleLoadDataEx)},
      {"cuModuleUnload", reinterpret_cast<void*>(&cuModuleUnload)},
      {"cuModuleGetFunction", reinterpret_cast<void*>(&cuModuleGetFunction)},
      {"cuModuleGetGlobal", reinterpret_cast<void*>(&cuModuleGetGlobal)},
      {"cuLinkCreate", reinterpret_cast<void*>(&cuLinkCreate)},
      {"cuLinkAddData", reinterpret_cast<void*>(&cuLinkAddData)},
      {"cuLinkComplete", reinterpret_cast<void*>(&cuLinkComplete)},
      {"cuLinkDestroy", reinterpret_cast<void*>(&cuLinkDestroy)},
      {"cuLaunchKernel", reinterpret_cast<void*>(&cuLaunchKernel)},
      {"cuStreamCreateWithPriority", reinterpret_cast<void*>(&cuStreamCreateWithPriority)},
      {"cuStreamDestroy", reinterpret_cast<void*>(&cuStreamDestroy)},
      {"cuStreamSynchronize", reinterpret_cast<void*>(&cuStreamSynchronize)},
      {"cuStreamQuery", reinterpret_cast<void*>(&cuStreamQuery)},
      {"cuStreamWaitEvent", reinterpret_cast<void*>(&cuStreamWaitEvent)},
      {"cuEventCreate", reinterpret_cast<void*>(&cuEventCreate)},
      {"cuEventDestroy", reinterpret_cast<void*>(&cuEventDestroy)},
      {"cuEventRecord", reinterpret_cast<void*>(&cuEventRecord)},
      {"cuEventSynchronize", reinterpret_cast<void*>(&cuEventSynchronize)},
      {"cuEventQuery", reinterpret_cast<void*>(&cuEventQuery)},
      {"cuEventElapsedTime", reinterpret_cast<void*>(&cuEventElapsedTime)},
      {"cuMemHostAlloc", reinterpret_cast<void*>(&cuMemHostAlloc)},
      {"cuMemFreeHost", reinterpret_cast<void*>(&cuMemFreeHost)},
      {"cuPointerGetAttributes", reinterpret_cast<void*>(&cuPointerGetAttributes)},
      {"cuLaunchHostFunc", reinterpret_cast<void*>(&cuLaunchHostFunc)},
      {"cuLaunchKernelEx", reinterpret_cast<void*>(&cuLaunchKernelEx)},
      {"cuStreamGetFlags", reinterpret_cast<void*>(&cuStreamGetFlags)},
      {"cuEventRecordWithFlags", reinterpret_cast<void*>(&cuEventRecordWithFlags)},
      {"cuImportExternalMemory", reinterpret_cast<void*>(&cuImportExternalMemory)},
      {"cuExternalMemoryGetMappedBuffer",
       reinterpret_cast<void*>(&cuExternalMemoryGetMappedBuffer)},
      {"cuDestroyExternalMemory", reinterpret_cast<void*>(&cuDestroyExternalMemory)},
      {"cuImportExternalSemaphore", reinterpret_cast<void*>(&cuImportExternalSemaphore)},
      {"cuDestroyExternalSemaphore", reinterpret_cast<void*>(&cuDestroyExternalSemaphore)},
      {"cuSignalExternalSemaphoresAsync",
       reinterpret_cast<void*>(&cuSignalExternalSemaphoresAsync)},
      {"cuWaitExternalSemaphoresAsync", reinterpret_cast<void*>(&cuWaitExternalSemaphoresAsync)},
  };
  auto found = kFunctions.find(symbol);
  bool ok = found != kFunctions.end() && cudaVersion >= 13000;
  *function = ok ? found->second : nullptr;
  if (status != nullptr)
    *status = ok ? CU_GET_PROC_ADDRESS_SUCCESS : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  return ok ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}

} // extern "C"
