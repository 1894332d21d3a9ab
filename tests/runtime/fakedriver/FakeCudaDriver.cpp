// A stand-in libcuda.so.1 for testing Ocelot's driver path on machines without a GPU: Ocelot's
// runtime dlopen()s it, resolves every function through cuGetProcAddress_v2 and drives one fake
// device whose memory is host memory. Kernels do not run; what the runtime hands to the "driver"
// (PTX modules, links, launches) is appended to $OCELOT_FAKE_DRIVER_LOG/driver.log and PTX texts
// are written next to it, so tests can check that Ocelot's module reached cuModuleLoadDataEx.
// Graphs are lists of nodes; launching an executable graph runs nothing but logs the function and
// arguments each kernel node has at that moment (and cuGraphExecDestroy what they have at the end).
//
// OCELOT_FAKE_DRIVER selects the machine it pretends to be:
//   gpu (default)  one sm_90 device
//   old            a CUDA 12.8 driver (too old for a CUDA 13 runtime)
//   nodevice       a driver without a GPU: cuInit fails with CUDA_ERROR_NO_DEVICE
//   refuse-ptx     like gpu, but cuModuleLoadDataEx and cuLinkAddData reject every PTX text
//   refuse-graph-function  like gpu, but an executable graph's kernel node cannot change to a
//                  function of another module (cuGraphExecKernelNodeSetParams, cuGraphExecUpdate)
//   refuse-node-sets  like gpu, but only cuGraphExecUpdate can change an executable graph's kernel
//                  node to a function of another module
//   refuse-child-nodes  like gpu, but cuGraphExecKernelNodeSetParams refuses nodes inside child
//                  graphs (cuGraphExecChildGraphNodeSetParams changes them)
//   unrecoverable  like gpu, but after a cuDevicePrimaryCtxReset no context can be made again:
//                  cuDevicePrimaryCtxRetain answers CUDA_ERROR_ILLEGAL_ADDRESS (an H200 after an
//                  illegal-address fault and cudaDeviceReset)
//   nosignal       like gpu, but instrumented kernels never write their completion word (as a
//                  kernel that ended without signalling would leave it)
//
// Instrumented kernels (those with Ocelot's hidden parameter) write their completion word at their
// launch (instrumentors/LaunchClock.h). Registered host memory is mapped at its own address.

#include <cuda.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
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
  std::string ptx; ///< empty for images that are not PTX
  int number = 0;  ///< 1, 2, ... in load order
};

/// A function's parameters as cuFuncGetParamInfo reports them: offset and size of each.
using ParamLayout = std::vector<std::pair<size_t, size_t>>;
std::map<CUfunction, ParamLayout> gParamLayouts;
/// Functions whose last parameter is Ocelot's hidden one (`__ocelot_instrumentation[N]`): its
/// last pointer is the launch's completion word (instrumentors/LaunchClock.h), which the fake
/// "kernel" writes at its launch, as the real one does at its end (mode `nosignal`: never).
std::map<CUfunction, bool> gSignalling;
/// The CUfunctions handed out (each its kernel's name), owned until the process ends.
std::vector<std::unique_ptr<std::string>> gFunctionNames;
std::map<CUfunction, int> gFunctionModules;

/// The parameters of entry `name` in `ptx`, from its .param declarations (the scalar and byte-array
/// forms nvcc emits), each aligned to its size or .align.
ParamLayout parseParams(const std::string& ptx, const std::string& name) {
  ParamLayout layout;
  size_t at = ptx.find(".entry " + name + "(");
  if (at == std::string::npos)
    return layout;
  size_t end = ptx.find(')', at);
  std::string list = ptx.substr(at, end - at);
  size_t offset = 0;
  for (size_t param = list.find(".param"); param != std::string::npos;
       param = list.find(".param", param + 1)) {
    size_t next = list.find(".param", param + 1);
    std::string declaration = list.substr(param, next == std::string::npos ? next : next - param);
    size_t size = 4, align = 4;
    if (declaration.find("64") != std::string::npos)
      size = align = 8;
    if (size_t bracket = declaration.find('['); bracket != std::string::npos) {
      size = std::stoul(declaration.substr(bracket + 1));
      align = 1;
      if (size_t a = declaration.find(".align "); a != std::string::npos)
        align = std::stoul(declaration.substr(a + 7));
    }
    offset = (offset + align - 1) / align * align;
    layout.emplace_back(offset, size);
    offset += size;
  }
  return layout;
}

struct FakeLink {
  std::vector<std::string> units;
  std::string cubin = "fake linked cubin";
};

int gContext = 1; // the address is the primary context's handle
thread_local CUcontext tCurrent = nullptr;

CUcontext primaryContext() {
  return reinterpret_cast<CUcontext>(&gContext);
}

CUresult loadModule(CUmodule* module, const std::string& ptx) {
  auto* loaded = new FakeModule;
  loaded->ptx = ptx;
  *module = reinterpret_cast<CUmodule>(loaded);
  std::lock_guard lock(gMutex);
  loaded->number = ++gModules;
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

static std::atomic<bool> gUnrecoverable{false}; ///< mode "unrecoverable", after a reset

CUresult cuDevicePrimaryCtxRetain(CUcontext* context, CUdevice) {
  if (gUnrecoverable) {
    *context = nullptr;
    return CUDA_ERROR_ILLEGAL_ADDRESS;
  }
  *context = primaryContext();
  return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRelease(CUdevice) {
  return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxReset(CUdevice) {
  log("reset");
  if (mode() == "unrecoverable")
    gUnrecoverable = true;
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
  if (logging())
    log("memcpyAsync " + std::to_string(bytes));
  return cuMemcpy(destination, source, bytes);
}

CUresult cuMemsetD8(CUdeviceptr destination, unsigned char value, size_t bytes) {
  std::memset(reinterpret_cast<void*>(destination), value, bytes);
  return CUDA_SUCCESS;
}

CUresult cuMemsetD8Async(CUdeviceptr destination, unsigned char value, size_t bytes, CUstream) {
  if (logging())
    log("memsetAsync " + std::to_string(bytes));
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
  return loadModule(module, text);
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
  return loadModule(module, "");
}

CUresult cuModuleUnload(CUmodule module) {
  delete reinterpret_cast<FakeModule*>(module);
  return CUDA_SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction* function, CUmodule module, const char* name) {
  auto* loaded = reinterpret_cast<FakeModule*>(module);
  std::lock_guard lock(gMutex);
  loaded->functions.emplace_back(name);
  gFunctionNames.push_back(std::make_unique<std::string>(name));
  *function = reinterpret_cast<CUfunction>(gFunctionNames.back().get());
  gParamLayouts[*function] = parseParams(loaded->ptx, name);
  gFunctionModules[*function] = loaded->number;
  const size_t at = loaded->ptx.find(std::string(".entry ") + name + "(");
  const size_t end = at == std::string::npos ? at : loaded->ptx.find(')', at);
  gSignalling[*function] =
      at != std::string::npos &&
      loaded->ptx.substr(at, end - at).find("__ocelot_instrumentation") != std::string::npos;
  return CUDA_SUCCESS;
}

// Logged: the driver shim must name a kernel it did not load only for a launch it profiles.
CUresult cuFuncGetName(const char** name, CUfunction function) {
  if (name == nullptr || function == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  log("funcGetName");
  *name = reinterpret_cast<std::string*>(function)->c_str();
  return CUDA_SUCCESS;
}

CUresult cuFuncGetParamInfo(CUfunction function, size_t index, size_t* offset, size_t* size) {
  std::lock_guard lock(gMutex);
  auto found = gParamLayouts.find(function);
  if (found == gParamLayouts.end() || index >= found->second.size())
    return CUDA_ERROR_INVALID_VALUE;
  *offset = found->second[index].first;
  *size = found->second[index].second;
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

/// What an instrumented kernel does last: writes its completion word, if it has one.
void signalCompletion(CUfunction function, void** kernelParams) {
  static const bool never = mode() == "nosignal";
  if (kernelParams == nullptr || never)
    return;
  std::lock_guard lock(gMutex);
  auto signalling = gSignalling.find(function);
  auto layout = gParamLayouts.find(function);
  if (signalling == gSignalling.end() || !signalling->second || layout == gParamLayouts.end() ||
      layout->second.empty())
    return;
  const auto [offset, bytes] = layout->second.back();
  if (bytes < 8)
    return;
  uint64_t word = 0;
  std::memcpy(&word, static_cast<const char*>(kernelParams[layout->second.size() - 1]) + bytes - 8,
              8);
  if (word != 0)
    __atomic_store_n(reinterpret_cast<uint32_t*>(word), 1u, __ATOMIC_RELEASE);
}

CUresult cuLaunchKernel(CUfunction function, unsigned int gridX, unsigned int gridY,
                        unsigned int gridZ, unsigned int blockX, unsigned int blockY,
                        unsigned int blockZ, unsigned int, CUstream, void** kernelParams, void**) {
  if (tCurrent != primaryContext())
    return CUDA_ERROR_INVALID_CONTEXT;
  signalCompletion(function, kernelParams);
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
  if (logging())
    log("streamWaitEvent");
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
  if (logging())
    log("eventRecord");
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

/// Registered ranges (cuMemHostRegister), mapped at their own addresses (unified addressing).
std::map<void*, size_t>& registeredRanges() {
  static std::map<void*, size_t> ranges;
  return ranges;
}

CUresult cuMemHostRegister_v2(void* pointer, size_t bytes, unsigned int) {
  if (pointer == nullptr || bytes == 0)
    return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(gMutex);
  return registeredRanges().emplace(pointer, bytes).second
             ? CUDA_SUCCESS
             : CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
}

CUresult cuMemHostUnregister(void* pointer) {
  std::lock_guard lock(gMutex);
  return registeredRanges().erase(pointer) != 0 ? CUDA_SUCCESS
                                                : CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
}

CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr* device, void* pointer, unsigned int) {
  std::lock_guard lock(gMutex);
  auto& ranges = registeredRanges();
  auto it = ranges.upper_bound(pointer);
  const bool host = hostAllocations().count(pointer) != 0;
  if (!host && (it == ranges.begin() ||
                static_cast<char*>(pointer) >=
                    static_cast<char*>(std::prev(it)->first) + std::prev(it)->second))
    return CUDA_ERROR_INVALID_VALUE;
  *device = reinterpret_cast<CUdeviceptr>(pointer);
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

CUresult cuLaunchKernelEx(const CUlaunchConfig* config, CUfunction function, void** kernelParams,
                          void**) {
  signalCompletion(function, kernelParams);
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
  if (logging())
    log("eventRecord");
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

// --- Graphs: lists of nodes; only kernel nodes have parameters --------------------------------

struct FakeKernel {
  CUfunction function = nullptr;
  unsigned int grid = 0;
  unsigned int block[3] = {1, 1, 1};
  std::vector<std::vector<unsigned char>> arguments; ///< one per parameter of `function`
};

struct FakeGraph;

struct FakeNode {
  CUgraphNodeType type = CU_GRAPH_NODE_TYPE_EMPTY;
  FakeKernel kernel;
  FakeGraph* child = nullptr; ///< owned: a child graph node's copy of its graph
  FakeNode* origin = nullptr; ///< in a clone: the node it was cloned from
  std::vector<FakeNode*> dependencies;
};

struct FakeGraph {
  std::vector<FakeNode*> nodes;
};

/// One kernel node of an executable graph: the template's node, the parameters the executable
/// graph holds for it, and the top-level child graph node it is in (or null).
struct FakeExecKernel {
  FakeNode* node = nullptr;
  FakeKernel kernel;
  FakeNode* child = nullptr;
};

struct FakeExec {
  std::vector<FakeExecKernel> kernels;
};

void destroyGraph(FakeGraph* graph) {
  for (FakeNode* node : graph->nodes) {
    if (node->child != nullptr)
      destroyGraph(node->child);
    delete node;
  }
  delete graph;
}

FakeGraph* cloneGraph(const FakeGraph& graph) {
  auto* clone = new FakeGraph;
  std::map<FakeNode*, FakeNode*> copies;
  for (FakeNode* node : graph.nodes) {
    auto* copy = new FakeNode(*node);
    copy->origin = node;
    if (node->child != nullptr)
      copy->child = cloneGraph(*node->child);
    for (FakeNode*& dependency : copy->dependencies)
      dependency = copies[dependency];
    copies[node] = copy;
    clone->nodes.push_back(copy);
  }
  return clone;
}

/// The kernel nodes of `graph`, child graphs flattened in node order.
void flattenKernels(const FakeGraph& graph, FakeNode* child, std::vector<FakeExecKernel>* out) {
  for (FakeNode* node : graph.nodes) {
    if (node->type == CU_GRAPH_NODE_TYPE_KERNEL)
      out->push_back({node, node->kernel, child});
    else if (node->type == CU_GRAPH_NODE_TYPE_GRAPH)
      flattenKernels(*node->child, child != nullptr ? child : node, out);
  }
}

/// The kernel a node runs with `params`: the arguments copied as the function's layout says.
CUresult toFakeKernel(const CUDA_KERNEL_NODE_PARAMS& params, FakeKernel* kernel) {
  std::lock_guard lock(gMutex);
  auto layout = gParamLayouts.find(params.func);
  if (params.func == nullptr || layout == gParamLayouts.end() || params.kernelParams == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  kernel->function = params.func;
  kernel->grid = params.gridDimX * params.gridDimY * params.gridDimZ;
  kernel->block[0] = params.blockDimX;
  kernel->block[1] = params.blockDimY;
  kernel->block[2] = params.blockDimZ;
  kernel->arguments.clear();
  for (size_t index = 0; index < layout->second.size(); ++index) {
    const auto* bytes = static_cast<const unsigned char*>(params.kernelParams[index]);
    kernel->arguments.emplace_back(bytes, bytes + layout->second[index].second);
  }
  return CUDA_SUCCESS;
}

/// "NAME module M grid G params P args HEX HEX ..."
std::string describe(const FakeKernel& kernel) {
  std::lock_guard lock(gMutex);
  std::string text = *reinterpret_cast<std::string*>(kernel.function) + " module " +
                     std::to_string(gFunctionModules[kernel.function]) + " grid " +
                     std::to_string(kernel.grid) + " params " +
                     std::to_string(kernel.arguments.size()) + " args";
  for (const auto& argument : kernel.arguments) {
    text += ' ';
    for (size_t i = argument.size(); i-- > 0;) { // most significant byte first
      char digits[3];
      std::snprintf(digits, sizeof digits, "%02x", argument[i]);
      text += digits;
    }
  }
  return text;
}

CUresult cuGraphCreate(CUgraph* graph, unsigned int) {
  *graph = reinterpret_cast<CUgraph>(new FakeGraph);
  return CUDA_SUCCESS;
}

CUresult cuGraphDestroy(CUgraph graph) {
  auto* fake = reinterpret_cast<FakeGraph*>(graph);
  std::string types;
  for (FakeNode* node : fake->nodes)
    types += node->type == CU_GRAPH_NODE_TYPE_KERNEL  ? " kernel"
             : node->type == CU_GRAPH_NODE_TYPE_GRAPH ? " graph"
                                                      : " other";
  log("graph destroyed with nodes:" + types);
  for (FakeNode* node : fake->nodes)
    if (node->type == CU_GRAPH_NODE_TYPE_KERNEL)
      log("graph destroyed kernel node " + describe(node->kernel));
  destroyGraph(fake);
  return CUDA_SUCCESS;
}

CUresult cuGraphClone(CUgraph* clone, CUgraph graph) {
  *clone = reinterpret_cast<CUgraph>(cloneGraph(*reinterpret_cast<FakeGraph*>(graph)));
  return CUDA_SUCCESS;
}

CUresult cuGraphNodeFindInClone(CUgraphNode* found, CUgraphNode original, CUgraph clone) {
  for (FakeNode* node : reinterpret_cast<FakeGraph*>(clone)->nodes)
    if (node->origin == reinterpret_cast<FakeNode*>(original)) {
      *found = reinterpret_cast<CUgraphNode>(node);
      return CUDA_SUCCESS;
    }
  return CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGraphChildGraphNodeGetGraph(CUgraphNode node, CUgraph* graph) {
  auto* fake = reinterpret_cast<FakeNode*>(node);
  if (fake->type != CU_GRAPH_NODE_TYPE_GRAPH)
    return CUDA_ERROR_INVALID_VALUE;
  *graph = reinterpret_cast<CUgraph>(fake->child);
  return CUDA_SUCCESS;
}

CUresult cuGraphKernelNodeSetParams_v2(CUgraphNode node, const CUDA_KERNEL_NODE_PARAMS* params) {
  auto* fake = reinterpret_cast<FakeNode*>(node);
  if (fake->type != CU_GRAPH_NODE_TYPE_KERNEL)
    return CUDA_ERROR_INVALID_VALUE;
  return toFakeKernel(*params, &fake->kernel);
}

CUresult cuGraphAddNode_v2(CUgraphNode* node, CUgraph graph, const CUgraphNode* dependencies,
                           const CUgraphEdgeData*, size_t count, CUgraphNodeParams* params) {
  auto added = std::make_unique<FakeNode>();
  added->type = params->type;
  for (size_t i = 0; i < count; ++i)
    added->dependencies.push_back(reinterpret_cast<FakeNode*>(dependencies[i]));
  if (params->type == CU_GRAPH_NODE_TYPE_KERNEL) {
    CUDA_KERNEL_NODE_PARAMS kernel{};
    kernel.func = params->kernel.func;
    kernel.gridDimX = params->kernel.gridDimX;
    kernel.gridDimY = params->kernel.gridDimY;
    kernel.gridDimZ = params->kernel.gridDimZ;
    kernel.blockDimX = params->kernel.blockDimX;
    kernel.blockDimY = params->kernel.blockDimY;
    kernel.blockDimZ = params->kernel.blockDimZ;
    kernel.kernelParams = params->kernel.kernelParams;
    if (CUresult result = toFakeKernel(kernel, &added->kernel); result != CUDA_SUCCESS)
      return result;
  } else if (params->type == CU_GRAPH_NODE_TYPE_GRAPH) {
    added->child = cloneGraph(*reinterpret_cast<FakeGraph*>(params->graph.graph));
  } else if (params->type != CU_GRAPH_NODE_TYPE_EMPTY) {
    return CUDA_ERROR_NOT_SUPPORTED;
  }
  *node = reinterpret_cast<CUgraphNode>(added.get());
  reinterpret_cast<FakeGraph*>(graph)->nodes.push_back(added.release());
  return CUDA_SUCCESS;
}

CUresult cuGraphGetNodes(CUgraph graph, CUgraphNode* nodes, size_t* count) {
  const auto& all = reinterpret_cast<FakeGraph*>(graph)->nodes;
  if (nodes != nullptr)
    for (size_t i = 0; i < std::min(*count, all.size()); ++i)
      nodes[i] = reinterpret_cast<CUgraphNode>(all[i]);
  *count = all.size();
  return CUDA_SUCCESS;
}

CUresult cuGraphNodeGetDependencies_v2(CUgraphNode node, CUgraphNode* dependencies,
                                       CUgraphEdgeData* edges, size_t* count) {
  const auto& all = reinterpret_cast<FakeNode*>(node)->dependencies;
  if (dependencies != nullptr)
    for (size_t i = 0; i < std::min(*count, all.size()); ++i) {
      dependencies[i] = reinterpret_cast<CUgraphNode>(all[i]);
      if (edges != nullptr)
        edges[i] = CUgraphEdgeData{};
    }
  *count = all.size();
  return CUDA_SUCCESS;
}

CUresult cuGraphNodeGetType(CUgraphNode node, CUgraphNodeType* type) {
  *type = reinterpret_cast<FakeNode*>(node)->type;
  return CUDA_SUCCESS;
}

CUresult cuGraphKernelNodeGetParams_v2(CUgraphNode node, CUDA_KERNEL_NODE_PARAMS* params) {
  // Like the driver's: kernelParams point into the node's own copies.
  auto* fake = reinterpret_cast<FakeNode*>(node);
  if (fake->type != CU_GRAPH_NODE_TYPE_KERNEL)
    return CUDA_ERROR_INVALID_VALUE;
  static thread_local std::vector<void*> pointers;
  pointers.clear();
  for (auto& argument : fake->kernel.arguments)
    pointers.push_back(argument.data());
  *params = CUDA_KERNEL_NODE_PARAMS{};
  params->func = fake->kernel.function;
  params->gridDimX = fake->kernel.grid;
  params->gridDimY = params->gridDimZ = 1;
  params->blockDimX = fake->kernel.block[0];
  params->blockDimY = fake->kernel.block[1];
  params->blockDimZ = fake->kernel.block[2];
  params->kernelParams = pointers.data();
  return CUDA_SUCCESS;
}

CUresult cuGraphInstantiateWithFlags(CUgraphExec* exec, CUgraph graph, unsigned long long) {
  auto* made = new FakeExec;
  flattenKernels(*reinterpret_cast<FakeGraph*>(graph), nullptr, &made->kernels);
  *exec = reinterpret_cast<CUgraphExec>(made);
  return CUDA_SUCCESS;
}

CUresult cuGraphInstantiateWithParams(CUgraphExec* exec, CUgraph graph,
                                      CUDA_GRAPH_INSTANTIATE_PARAMS* params) {
  params->result_out = CUDA_GRAPH_INSTANTIATE_SUCCESS;
  params->hErrNode_out = nullptr;
  return cuGraphInstantiateWithFlags(exec, graph, params->flags);
}

CUresult cuGraphExecKernelNodeSetParams_v2(CUgraphExec exec, CUgraphNode node,
                                           const CUDA_KERNEL_NODE_PARAMS* params) {
  if (logging())
    log("graph exec node set");
  for (auto& [owner, kernel, child] : reinterpret_cast<FakeExec*>(exec)->kernels)
    if (owner == reinterpret_cast<FakeNode*>(node)) {
      if (child != nullptr && mode() == "refuse-child-nodes")
        return CUDA_ERROR_INVALID_VALUE;
      FakeKernel set;
      if (CUresult result = toFakeKernel(*params, &set); result != CUDA_SUCCESS)
        return result;
      if (mode() == "refuse-graph-function" || mode() == "refuse-node-sets") {
        std::lock_guard lock(gMutex);
        if (gFunctionModules[set.function] != gFunctionModules[kernel.function])
          return CUDA_ERROR_INVALID_VALUE;
      }
      kernel = std::move(set);
      return CUDA_SUCCESS;
    }
  return CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGraphExecNodeSetParams(CUgraphExec exec, CUgraphNode node, CUgraphNodeParams* params) {
  if (params->type != CU_GRAPH_NODE_TYPE_KERNEL)
    return CUDA_ERROR_NOT_SUPPORTED;
  CUDA_KERNEL_NODE_PARAMS kernel{};
  kernel.func = params->kernel.func;
  kernel.gridDimX = params->kernel.gridDimX;
  kernel.gridDimY = params->kernel.gridDimY;
  kernel.gridDimZ = params->kernel.gridDimZ;
  kernel.blockDimX = params->kernel.blockDimX;
  kernel.blockDimY = params->kernel.blockDimY;
  kernel.blockDimZ = params->kernel.blockDimZ;
  kernel.kernelParams = params->kernel.kernelParams;
  return cuGraphExecKernelNodeSetParams_v2(exec, node, &kernel);
}

CUresult cuGraphExecChildGraphNodeSetParams(CUgraphExec exec, CUgraphNode node, CUgraph graph) {
  // The executable graph's kernels of that child graph node take `graph`'s, node by node.
  std::vector<FakeExecKernel> from;
  flattenKernels(*reinterpret_cast<FakeGraph*>(graph), nullptr, &from);
  size_t next = 0;
  for (auto& entry : reinterpret_cast<FakeExec*>(exec)->kernels)
    if (entry.child == reinterpret_cast<FakeNode*>(node)) {
      if (next == from.size())
        return CUDA_ERROR_INVALID_VALUE;
      entry.kernel = from[next++].kernel;
    }
  log("graph exec child set " + std::to_string(next) + " kernel nodes");
  return next == from.size() ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGraphExecUpdate_v2(CUgraphExec exec, CUgraph graph, CUgraphExecUpdateResultInfo* info) {
  // The executable graph's kernels take `graph`'s in order (the fake's pairing).
  std::vector<FakeExecKernel> from;
  flattenKernels(*reinterpret_cast<FakeGraph*>(graph), nullptr, &from);
  auto& kernels = reinterpret_cast<FakeExec*>(exec)->kernels;
  *info = CUgraphExecUpdateResultInfo{};
  if (from.size() != kernels.size()) {
    info->result = CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED;
    return CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
  }
  if (mode() == "refuse-graph-function") {
    std::lock_guard lock(gMutex);
    for (size_t i = 0; i < from.size(); ++i)
      if (gFunctionModules[from[i].kernel.function] !=
          gFunctionModules[kernels[i].kernel.function]) {
        info->result = CU_GRAPH_EXEC_UPDATE_ERROR_UNSUPPORTED_FUNCTION_CHANGE;
        return CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
      }
  }
  for (size_t i = 0; i < from.size(); ++i)
    kernels[i].kernel = from[i].kernel;
  log("graph exec updated");
  info->result = CU_GRAPH_EXEC_UPDATE_SUCCESS;
  return CUDA_SUCCESS;
}

CUresult cuGraphLaunch(CUgraphExec exec, CUstream) {
  if (tCurrent != primaryContext())
    return CUDA_ERROR_INVALID_CONTEXT;
  for (const auto& entry : reinterpret_cast<FakeExec*>(exec)->kernels)
    log("graph launch node " + describe(entry.kernel));
  return CUDA_SUCCESS;
}

CUresult cuGraphExecDestroy(CUgraphExec exec) {
  auto* fake = reinterpret_cast<FakeExec*>(exec);
  for (const auto& entry : fake->kernels)
    log("graph exec destroyed with node " + describe(entry.kernel));
  delete fake;
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
      {"cuMemHostRegister", reinterpret_cast<void*>(&cuMemHostRegister_v2)},
      {"cuMemHostUnregister", reinterpret_cast<void*>(&cuMemHostUnregister)},
      {"cuMemHostGetDevicePointer", reinterpret_cast<void*>(&cuMemHostGetDevicePointer_v2)},
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
      {"cuFuncGetParamInfo", reinterpret_cast<void*>(&cuFuncGetParamInfo)},
      {"cuGraphCreate", reinterpret_cast<void*>(&cuGraphCreate)},
      {"cuGraphDestroy", reinterpret_cast<void*>(&cuGraphDestroy)},
      {"cuGraphAddNode", reinterpret_cast<void*>(&cuGraphAddNode_v2)},
      {"cuGraphGetNodes", reinterpret_cast<void*>(&cuGraphGetNodes)},
      {"cuGraphNodeGetType", reinterpret_cast<void*>(&cuGraphNodeGetType)},
      {"cuGraphNodeGetDependencies", reinterpret_cast<void*>(&cuGraphNodeGetDependencies_v2)},
      {"cuGraphKernelNodeGetParams", reinterpret_cast<void*>(&cuGraphKernelNodeGetParams_v2)},
      {"cuGraphInstantiateWithFlags", reinterpret_cast<void*>(&cuGraphInstantiateWithFlags)},
      {"cuGraphInstantiateWithParams", reinterpret_cast<void*>(&cuGraphInstantiateWithParams)},
      {"cuGraphExecKernelNodeSetParams",
       reinterpret_cast<void*>(&cuGraphExecKernelNodeSetParams_v2)},
      {"cuGraphExecNodeSetParams", reinterpret_cast<void*>(&cuGraphExecNodeSetParams)},
      {"cuGraphLaunch", reinterpret_cast<void*>(&cuGraphLaunch)},
      {"cuGraphExecUpdate", reinterpret_cast<void*>(&cuGraphExecUpdate_v2)},
      {"cuGraphClone", reinterpret_cast<void*>(&cuGraphClone)},
      {"cuGraphNodeFindInClone", reinterpret_cast<void*>(&cuGraphNodeFindInClone)},
      {"cuGraphChildGraphNodeGetGraph", reinterpret_cast<void*>(&cuGraphChildGraphNodeGetGraph)},
      {"cuGraphKernelNodeSetParams", reinterpret_cast<void*>(&cuGraphKernelNodeSetParams_v2)},
      {"cuGraphExecChildGraphNodeSetParams",
       reinterpret_cast<void*>(&cuGraphExecChildGraphNodeSetParams)},
      {"cuGraphExecDestroy", reinterpret_cast<void*>(&cuGraphExecDestroy)},
  };
  auto found = kFunctions.find(symbol);
  bool ok = found != kFunctions.end() && cudaVersion >= 13000;
  *function = ok ? found->second : nullptr;
  if (status != nullptr)
    *status = ok ? CU_GET_PROC_ADDRESS_SUCCESS : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  return ok ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}

} // extern "C"
