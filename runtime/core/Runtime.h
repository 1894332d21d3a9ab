#pragma once

#include "runtime/core/ApiCallLog.h"
#include "runtime/core/Device.h"
#include "runtime/core/DeviceOperation.h"
#include "runtime/core/ForkGuard.h"
#include "runtime/core/KernelHandles.h"
#include "runtime/core/LaunchInterceptor.h"
#include "runtime/core/LaunchLimits.h"
#include "runtime/core/Logger.h"
#include "runtime/core/ModuleCache.h"
#include "runtime/core/ModulePipeline.h"
#include "runtime/core/NvtxRanges.h"
#include "runtime/core/PlatformResult.h"
#include "runtime/core/PtxDump.h"
#include "runtime/core/Registry.h"
#include "runtime/core/Stream.h"
#include "runtime/core/ThreadState.h"

#include <cuda_runtime_api.h>

#include <atomic>
#include <cstddef>
#include <driver_types.h>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>
#include <vector_types.h>

namespace ocelot::runtime {

/// Ocelot's CUDA runtime: the one object that owns all runtime state (registrations, the device
/// platform, loaded modules, the logger, the per-thread API state). The exported C functions in
/// runtime/api are one-line forwards to it. Methods return the cudaError_t the Runtime API call
/// returns; the API layer records failures as the thread's last error.
///
/// Enumeration arguments that come from the application (memcpy kinds, device attributes) arrive as
/// the integers it passed and are validated here before they are used as enumerators.
///
/// Initialization is lazy, as in NVIDIA's runtime: registration only records what the application
/// registers; the first call that needs a device loads the driver. If that fails (no libcuda.so.1,
/// a driver older than CUDA 13.0, no GPU), the error is sticky and every such call reports it,
/// which is exactly what NVIDIA's libcudart.so.13 does on a machine without a GPU.
class Runtime {
public:
  /// The process's runtime. Created on first use and intentionally never destroyed: applications
  /// call the runtime from atexit handlers and static destructors (the unregistration of every
  /// fatbinary is one), which may run after any destructor of ours would have. Inline: every
  /// entry point starts here. create() is defined by the API layer
  /// (runtime/api/ProcessRuntime.cpp), which assembles the runtime from the layers below it.
  static Runtime& instance() {
    static Runtime* const runtime = create();
    return *runtime;
  }
  /// The same, out of line: for Ocelot's other libraries (libcuda.so.1), which must not
  /// instantiate instance()'s static themselves.
  static Runtime& process();

  /// A runtime over a given platform factory (tests use this to run without a driver).
  explicit Runtime(std::function<PlatformResult()> platformFactory,
                   LogLevel logLevel = Logger::levelFromEnvironment(),
                   std::unique_ptr<PtxDump> dump = PtxDump::fromEnvironment());
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  const Logger& logger() const { return logger_; }
  Registry& registry() { return registry_; }
  /// The calling thread's API state (inline: one thread-local access once the state exists).
  ThreadState& thread() {
    if (ThreadState* state = tThreadState) [[likely]]
      return *state;
    return createThreadState();
  }

  // --- Errors (cudaGetLastError & co.) ------------------------------------------------------
  cudaError_t getLastError();
  cudaError_t peekAtLastError();
  /// Makes a failed call the thread's last error and returns it unchanged.
  cudaError_t record(cudaError_t error);
  /// For exported functions Ocelot does not implement yet: logs the name once per process and
  /// returns cudaErrorNotSupported (or the initialization error when there is no usable device,
  /// which is what NVIDIA's runtime would return there).
  cudaError_t notImplemented(const char* function);

  // --- Initialization, versions, devices -----------------------------------------------------
  /// Starts the platform once; the result is sticky. In a child forked after the platform started,
  /// cudaErrorInitializationError (see ForkGuard).
  cudaError_t initialize();
  cudaError_t driverGetVersion(int* version);
  cudaError_t runtimeGetVersion(int* version);
  cudaError_t getDeviceCount(int* count);
  cudaError_t getDevice(int* device);
  cudaError_t setDevice(int device);
  cudaError_t initDevice(int device, unsigned int deviceFlags, unsigned int flags);
  cudaError_t deviceGetAttribute(int* value, int attribute, int device);
  cudaError_t deviceSynchronize();
  cudaError_t deviceReset();
  /// The calling thread's current device, made current on the thread: the initialization error, a
  /// sticky error or cudaErrorInvalidDevice otherwise (what Scope::open answers).
  cudaError_t currentDevice(ThreadState& thread, Device** device, int* ordinal);
  /// A device named by ordinal (cudaDeviceGetAttribute & co.): cudaErrorInvalidDevice otherwise.
  cudaError_t deviceByOrdinal(int ordinal, Device** device);
  /// Passes a device result through, remembering errors that leave the context unusable.
  cudaError_t deviceResult(cudaError_t error);
  /// deviceResult() for a call that began in reset epoch `epoch` (resetEpoch() when it began): an
  /// error of a context that a cudaDeviceReset destroyed since then is not remembered.
  cudaError_t deviceResult(cudaError_t error, uint64_t epoch);
  /// Counts the device resets that have finished; odd while one runs.
  uint64_t resetEpoch() const { return resetEpoch_.load(std::memory_order_acquire); }

  // --- Registration (__cudaRegister*) ---------------------------------------------------------
  void** registerFatBinary(const void* fatCubin);
  void registerFatBinaryEnd(void** handle);
  void unregisterFatBinary(void** handle);
  void registerFunction(void** handle, const void* hostFunction, const char* deviceName);
  void registerVariable(void** handle, const RegisteredVariable& variable);
  /// __cudaInitModule: loads the module on the current device and points the host pointers of its
  /// managed variables at their storage. True on success.
  bool initModule(void** handle);

  // --- Launches --------------------------------------------------------------------------------
  // __cudaPushCallConfiguration and __cudaPopCallConfiguration, around every <<<>>> (inline).
  unsigned int pushCallConfiguration(dim3 grid, dim3 block, size_t sharedMem, cudaStream_t stream) {
    thread().callConfigurations.push({grid, block, sharedMem, stream});
    return 0;
  }
  cudaError_t popCallConfiguration(dim3* grid, dim3* block, size_t* sharedMem, void* stream);
  cudaError_t getKernel(cudaKernel_t* kernel, const void* hostFunction);
  /// cudaLaunchKernel: the kernel named by its host stub.
  cudaError_t launchKernel(const void* hostFunction, dim3 grid, dim3 block, void** args,
                           size_t sharedMem, cudaStream_t stream);
  /// __cudaLaunchKernel: the kernel named by the handle __cudaGetKernel gave out.
  cudaError_t launchKernel(cudaKernel_t kernel, dim3 grid, dim3 block, void** args,
                           size_t sharedMem, cudaStream_t stream);

  // --- Symbols (through the registered names) --------------------------------------------------
  /// The device address and size of a registered variable on the current device (its module
  /// loaded; the device made current): cudaErrorInvalidSymbol for anything else.
  cudaError_t symbolStorage(const void* symbol, Device** device, void** address, size_t* bytes);
  cudaError_t getSymbolAddress(void** address, const void* symbol);
  cudaError_t getSymbolSize(size_t* bytes, const void* symbol);

  // --- Devices: properties, flags, limits, peers (RuntimeDevices.cpp) ------------------------
  cudaError_t getDeviceProperties(cudaDeviceProp* properties, int device);
  cudaError_t chooseDevice(int* device, const cudaDeviceProp* properties);
  cudaError_t setValidDevices(int* devices, int count);
  cudaError_t setDeviceFlags(unsigned int flags);
  cudaError_t getDeviceFlags(unsigned int* flags);
  cudaError_t deviceGetLimit(size_t* value, int limit);
  cudaError_t deviceSetLimit(int limit, size_t value);
  cudaError_t deviceGetCacheConfig(cudaFuncCache* config);
  cudaError_t deviceSetCacheConfig(int config);
  cudaError_t deviceGetSharedMemConfig(cudaSharedMemConfig* config);
  cudaError_t deviceSetSharedMemConfig(int config);
  cudaError_t deviceGetPCIBusId(char* busId, int length, int device);
  cudaError_t deviceGetByPCIBusId(int* device, const char* busId);
  cudaError_t deviceCanAccessPeer(int* canAccess, int device, int peer);
  cudaError_t deviceEnablePeerAccess(int peer, unsigned int flags);
  cudaError_t deviceDisablePeerAccess(int peer);
  cudaError_t deviceGetP2PAttribute(int* value, int attribute, int source, int destination);
  /// cudaDeviceGetHostAtomicCapabilities (peer < 0) and cudaDeviceGetP2PAtomicCapabilities.
  cudaError_t deviceGetAtomicCapabilities(unsigned int* capabilities,
                                          const cudaAtomicOperation* operations, unsigned int count,
                                          int device, int peer);
  cudaError_t deviceFlushGPUDirectRDMAWrites(int target, int scope);
  cudaError_t ctxResetPersistingL2Cache();

  // --- Launch paths beyond <<<>>> (RuntimeLaunch.cpp)
  // ----------------------------------------------
  /// The one launch path: every launch API ends here with `params.function` and `params.stream`
  /// still unset (the stream is `stream`, resolved on the current device).
  cudaError_t launch(const void* function, LaunchParams& params, cudaStream_t stream);

  // --- Kernels: lookup, attributes, occupancy (RuntimeFunctions.cpp) ----------------------------
  cudaError_t getFuncBySymbol(cudaFunction_t* function, const void* symbol);
  cudaError_t funcGetName(const char** name, const void* function);
  cudaError_t funcGetParamInfo(const void* function, size_t index, size_t* offset, size_t* size);
  cudaError_t funcGetAttributes(cudaFuncAttributes* attributes, const void* function);
  cudaError_t funcSetAttribute(const void* function, int attribute, int value);
  cudaError_t funcSetCacheConfig(const void* function, int config);
  cudaError_t funcSetSharedMemConfig(const void* function, int config);
  cudaError_t kernelSetAttributeForDevice(cudaKernel_t kernel, int attribute, int value,
                                          int device);
  cudaError_t occupancyMaxActiveBlocksPerMultiprocessor(int* blocks, const void* function,
                                                        int blockSize, size_t sharedMem,
                                                        unsigned int flags);
  cudaError_t occupancyAvailableDynamicSMemPerBlock(size_t* bytes, const void* function, int blocks,
                                                    int blockSize);
  cudaError_t occupancyMaxPotentialClusterSize(int* size, const void* function,
                                               const cudaLaunchConfig_t* config);
  cudaError_t occupancyMaxActiveClusters(int* clusters, const void* function,
                                         const cudaLaunchConfig_t* config);

  // --- Libraries the application loads (RuntimeLibraries.cpp) -----------------------------------
  cudaError_t libraryLoad(cudaLibrary_t* library, const void* image, const char* file,
                          cudaJitOption* jitOptions, void** jitValues, unsigned int jitCount,
                          cudaLibraryOption* libraryOptions, void** libraryValues,
                          unsigned int libraryCount);
  cudaError_t libraryUnload(cudaLibrary_t library);
  cudaError_t libraryGetKernel(cudaKernel_t* kernel, cudaLibrary_t library, const char* name);
  cudaError_t libraryGetKernelCount(unsigned int* count, cudaLibrary_t library);
  cudaError_t libraryEnumerateKernels(cudaKernel_t* kernels, unsigned int count,
                                      cudaLibrary_t library);
  cudaError_t libraryGetGlobal(void** address, size_t* bytes, cudaLibrary_t library,
                               const char* name, bool managed);
  cudaError_t libraryGetUnifiedFunction(void** function, cudaLibrary_t library, const char* name);

  // --- Modules loaded through the driver API (RuntimeDriverModules.cpp) -----------------------
  // Ocelot's libcuda.so.1 (runtime/driverapi) forwards cuModuleLoadData & co. here. A module
  // becomes a registration like the application's own fatbinaries, so its kernels take the same
  // path: the module pipeline, the instrumentation, the fallback to the original code.
  /// Copies and registers `image` (PTX text, a fatbinary or its wrapper, an ELF cubin) and loads
  /// it on the current device at once, as the driver does (a module it refuses is an error here,
  /// not at the first launch). `origin` names the call in log lines.
  /// `device` (optional) is the module as the current device loaded it (the CUmodule on the
  /// driver).
  cudaError_t moduleLoad(const void* image, const char* origin, void*** module,
                         DeviceModule* device = nullptr);
  /// Waits (bounded) for the profiles of the module's instrumented launches, then unloads it.
  cudaError_t moduleUnload(void** module);
  /// A kernel of a loaded module as something `launch` takes (a stand-in for a host stub):
  /// cudaErrorSymbolNotFound when the module has no such kernel. Each name has one stand-in.
  /// `device` (optional) is the kernel's function on the current device, what the device's own
  /// calls take (the CUfunction on the driver).
  cudaError_t moduleFunction(void** module, const char* name, const void** function,
                             DeviceFunction* device = nullptr);
  cudaError_t moduleGlobal(void** module, const char* name, void** address, size_t* bytes);
  /// The kernel name of a stand-in moduleFunction gave out (null for anything else).
  const char* moduleFunctionName(const void* function);
  /// Where a launch of a driver-API module's kernel may skip the runtime (the shim's direct
  /// launches, docs/driver-api.md): the function the current device loaded for the stand-in
  /// `stub`, while no instrumentor is active and the current device is a GPU. Such a launch stays
  /// valid while instrumentationIdle() holds and directLaunchEpoch() is what it was when the
  /// caller asked (an unload or a device reset changes it).
  bool directLaunchTarget(const void* stub, DeviceFunction* deviceFunction);
  const std::atomic<bool>& instrumentationIdle() const { return instrumentationIdle_; }
  const std::atomic<uint64_t>& directLaunchEpoch() const { return directLaunchEpoch_; }
  /// A launch of a kernel Ocelot did not load (a library's, through the driver API on a GPU), made
  /// by `launch` on `stream` of the current device: profiled with its GPU time and `reason` while
  /// an instrumentor is active, else nullopt (the caller launches it itself). `params` holds grid,
  /// block and shared memory.
  std::optional<cudaError_t> launchForeign(const char* kernelName, LaunchParams& params,
                                           cudaStream_t stream,
                                           const std::function<cudaError_t()>& launch,
                                           const char* reason);
  /// The same with the kernel's name asked for only when the launch is profiled: naming a
  /// library's kernel costs the driver shim a driver call or two, which an unprofiled launch
  /// (no instrumentor active) must not pay.
  std::optional<cudaError_t> launchForeign(const std::function<const char*()>& kernelName,
                                           LaunchParams& params, cudaStream_t stream,
                                           const std::function<cudaError_t()>& launch,
                                           const char* reason);

  // --- Graph nodes (RuntimeGraphs.cpp, RuntimeTools.cpp) --------------------------------------
  /// Generic graph node parameters with a kernel's function (the application's host stub or
  /// cudaKernel_t) translated for the device, and back (for what a node reports).
  cudaError_t deviceNodeParams(const cudaGraphNodeParams& params, Device& device, int ordinal,
                               cudaGraphNodeParams* translated);
  void applicationNodeParams(cudaGraphNodeParams* params) const;
  /// The memcpy node parameters of a copy to (or from) a registered variable.
  cudaError_t symbolCopyNodeParams(const void* symbol, void* memory, size_t bytes, size_t offset,
                                   int kind, bool toSymbol, cudaGraphNodeParams* params);

  // --- Versions, entry points, tools (RuntimeTools.cpp) ----------------------------------------
  cudaError_t getDriverEntryPoint(const char* symbol, void** function, int cudaVersion,
                                  unsigned long long flags,
                                  cudaDriverEntryPointQueryResult* status);
  cudaError_t profilerControl(bool start);
  cudaError_t logsRegisterCallback(cudaLogsCallback_t callback, void* userData,
                                   cudaLogsCallbackHandle* handle);
  cudaError_t logsUnregisterCallback(cudaLogsCallbackHandle handle);
  cudaError_t logsCurrent(cudaLogIterator* iterator, unsigned int flags);
  cudaError_t logsDumpToFile(cudaLogIterator* iterator, const char* path, unsigned int flags);
  cudaError_t logsDumpToMemory(cudaLogIterator* iterator, char* buffer, size_t* size,
                               unsigned int flags);

  // --- Launch interception (RuntimeLaunchInterception.cpp) -------------------------------------
  /// Who takes part in launches (the instrumentation installs itself here; without a factory,
  /// launches are never intercepted). Call before the first launch.
  void setLaunchInterceptorFactory(LaunchInterceptorFactory factory);
  /// The interceptor, created by the factory on first use; null without a factory.
  LaunchInterceptor* launchInterceptor();
  /// Before a device reset: waits (bounded) for pending profiles, then drops the device's
  /// instrumented modules and pooled buffers, which the reset destroys. After it (`afterReset`):
  /// drops what other threads' launches made meanwhile; their profiles report a disturbed launch.
  void forgetInstrumentation(int ordinal, bool afterReset = false);
  /// Host measures on (core/DeviceOperation.h): copies and memsets are timed. Inline:
  /// every copy asks.
  bool hostMeasures() const { return hostMeasures_; }
  /// The API calls of every thread (recorded by the API boundary with host measures on).
  instrumentation::ApiCallLog& apiCalls() { return apiCalls_; }
  /// NVTX ranges and marks (Ocelot as the NVTX injection library: runtime/api/NvtxInjection.cpp).
  instrumentation::NvtxRanges& nvtx() { return nvtx_; }
  /// Runs `run` (one copy or memset enqueued on `stream`) timed by the instrumentation framework.
  cudaError_t timeOperation(Device& device, int ordinal, Stream& stream,
                            instrumentation::DeviceOperation::Kind kind, const char* name,
                            uint64_t bytes, const std::function<cudaError_t()>& run);
  /// cudaGraphLaunch of `exec` on `stream`. While an instrumentor is active, each kernel node of a
  /// registered kernel is offered to the interceptor, which may substitute its instrumented kernel
  /// for this launch; a back end that cannot substitute nodes launches the graph as it is, counted
  /// in the coverage as not instrumented. One relaxed load otherwise.
  cudaError_t launchGraph(GraphExec& exec, Stream& stream, Device& device, int ordinal);
  /// Before a module loaded through the driver API is unloaded: the interceptor drops what it
  /// made from it.
  void forgetDriverModule(uint64_t registrationId);
  /// Before cudaGraphExecDestroy: the interceptor drops what it kept for the executable graph.
  void forgetGraphExec(GraphExec& exec);

private:
  static Runtime* create();
  static ThreadState& createThreadState();
  /// initialize() in a forked child of the process that started the platform.
  cudaError_t inForkedChild();
  /// The calling thread's current device, made current on this thread.
  cudaError_t currentDevice(Device** device, int* ordinal = nullptr);
  /// The loaded module of a registration on the current device.
  cudaError_t moduleOnCurrentDevice(const FatbinaryRegistration& registration, Device** device,
                                    LoadedModule** module);
  /// The same for a module loaded through the driver API, by its handle.
  cudaError_t driverModuleOnCurrentDevice(void** handle, Device** device, LoadedModule** module);
  /// The stream a handle names on `device` (transitional: what the Runtime methods below pass).
  static cudaError_t streamOn(Device& device, cudaStream_t handle, Stream** stream);
  /// Offers a launch to the instrumentation: its result when it launched (instrumented or not),
  /// nullopt when the caller should launch as usual (library kernels, unselected launches).
  std::optional<cudaError_t> launchInstrumented(const void* function, Device& device, int ordinal,
                                                const LaunchParams& params);
  /// What the application calls a kernel (a registered host stub, a kernel handle from
  /// __cudaGetKernel/cudaGetKernel, or a library's cudaKernel_t) as the device's function:
  /// null is cudaErrorInvalidDeviceFunction, anything else unknown cudaErrorInvalidResourceHandle.
  /// Registered kernels load their module on first use and are cached per device.
  cudaError_t resolveFunction(const void* function, Device& device, int ordinal,
                              DeviceFunction* resolved);
  /// The current device and a kernel resolved on it, for the per-kernel queries.
  cudaError_t functionOnCurrentDevice(const void* function, Device** device,
                                      DeviceFunction* resolved);
  void readFatbinary(FatbinaryRegistration& registration);

  Logger logger_;
  Registry registry_;
  ModulePipeline pipeline_;
  ModuleCache modules_;
  std::unique_ptr<PtxDump> dump_; ///< set when OCELOT_DUMP_PTX asks for a dump

  std::function<PlatformResult()> platformFactory_;
  std::once_flag initialized_;
  /// Set once initialize() has run: later calls skip call_once (whose every call costs
  /// thread-local writes and a libc call).
  std::atomic<bool> initializeDone_{false};
  PlatformResult platform_; ///< written once under initialized_
  /// ForkGuard::forks() when the platform started: another count means this is a forked child.
  unsigned forks_ = 0;
  std::atomic<bool> forkReported_{false};
  std::vector<Device*> devices_; ///< the platform's devices by ordinal, filled with it

  /// A context-corrupting error (an illegal address in a kernel...): every later call reports it
  /// until cudaDeviceReset, as in NVIDIA's runtime.
  std::atomic<cudaError_t> stickyError_{cudaSuccess};
  /// Raised by 1 as each cudaDeviceReset starts and again as it ends. A call that overlaps a reset
  /// may see the destroyed context's sticky error (seen on the H200: a thread allocating in a loop
  /// while another reset kept getting cudaErrorIllegalAddress from the faulted context and made it
  /// sticky again after every reset); such errors must not outlive the reset.
  std::atomic<uint64_t> resetEpoch_{0};

  /// Per device: the launch limits the launch path checks (filled once with the platform).
  std::vector<LaunchLimits> launchLimits_;
  KernelHandles kernelHandles_;
  /// The PTX Ocelot emitted for each library it loaded (the driver may read it again lazily).
  std::mutex librariesMutex_;
  std::unordered_map<cudaLibrary_t, std::string> libraryTexts_;

  LaunchInterceptorFactory interceptorFactory_;
  std::once_flag interceptorOnce_;
  std::shared_ptr<LaunchInterceptor> interceptor_; ///< created lazily by the factory
  /// Kept by the interceptor: true while it wants no launches (the launch path's one load).
  std::atomic<bool> instrumentationIdle_{false};
  /// Changes when a function directLaunchTarget() gave may no longer be valid.
  std::atomic<uint64_t> directLaunchEpoch_{0};
  const bool hostMeasures_ = instrumentation::hostMeasuresRequested();
  instrumentation::ApiCallLog apiCalls_;
  instrumentation::NvtxRanges nvtx_;

  /// Modules loaded through the driver API, by registration handle (RuntimeDriverModules.cpp).
  struct DriverModule;
  std::mutex driverModulesMutex_;
  std::unordered_map<void**, std::shared_ptr<DriverModule>> driverModules_;
  std::unordered_map<const void*, std::string> driverFunctionNames_;

  std::mutex unsupportedMutex_;
  std::unordered_set<std::string> unsupportedReported_;
};

// Inline: every API call that uses the current device starts here, every launch too.
inline cudaError_t Runtime::currentDevice(ThreadState& state, Device** device, int* ordinal) {
  // initialize()'s fast path, spelled out.
  if (!initializeDone_.load(std::memory_order_acquire) || platform_.platform == nullptr ||
      forks_ != ForkGuard::forks()) [[unlikely]]
    if (cudaError_t error = initialize(); error != cudaSuccess)
      return error;
  if (cudaError_t sticky = stickyError_.load(); sticky != cudaSuccess) [[unlikely]]
    return sticky;
  const int current = state.currentDevice;
  if (current < 0 || static_cast<size_t>(current) >= devices_.size()) [[unlikely]]
    return cudaErrorInvalidDevice;
  Device& selected = *devices_[static_cast<size_t>(current)];
  if (cudaError_t error = selected.activate(); error != cudaSuccess) [[unlikely]]
    return deviceResult(error);
  *device = &selected;
  if (ordinal != nullptr)
    *ordinal = current;
  return cudaSuccess;
}

inline cudaError_t Runtime::popCallConfiguration(dim3* grid, dim3* block, size_t* sharedMem,
                                                 void* stream) {
  CallConfiguration configuration;
  if (!thread().callConfigurations.pop(&configuration))
    return cudaErrorMissingConfiguration;
  if (grid != nullptr)
    *grid = configuration.grid;
  if (block != nullptr)
    *block = configuration.block;
  if (sharedMem != nullptr)
    *sharedMem = configuration.sharedMem;
  // host_runtime.h passes the address of a cudaStream_t as `void*`.
  if (stream != nullptr)
    *static_cast<cudaStream_t*>(stream) = configuration.stream;
  return cudaSuccess;
}

} // namespace ocelot::runtime
