#pragma once

#include "runtime/core/Device.h"
#include "runtime/core/Logger.h"
#include "runtime/core/ModuleCache.h"
#include "runtime/core/ModulePipeline.h"
#include "runtime/core/PlatformResult.h"
#include "runtime/core/PtxDump.h"
#include "runtime/core/Registry.h"
#include "runtime/core/ThreadState.h"

#include <atomic>
#include <cstddef>
#include <driver_types.h>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_set>
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
  /// fatbinary is one), which may run after any destructor of ours would have.
  static Runtime& instance();

  /// A runtime over a given platform factory (tests use this to run without a driver).
  explicit Runtime(std::function<PlatformResult()> platformFactory,
                   LogLevel logLevel = Logger::levelFromEnvironment(),
                   std::unique_ptr<PtxDump> dump = PtxDump::fromEnvironment());
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  const Logger& logger() const { return logger_; }
  Registry& registry() { return registry_; }
  /// The calling thread's API state.
  ThreadState& thread();

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
  /// Starts the platform once; the result is sticky.
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
  cudaError_t memGetInfo(size_t* free, size_t* total);

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
  unsigned int pushCallConfiguration(dim3 grid, dim3 block, size_t sharedMem, cudaStream_t stream);
  cudaError_t popCallConfiguration(dim3* grid, dim3* block, size_t* sharedMem, void* stream);
  cudaError_t getKernel(cudaKernel_t* kernel, const void* hostFunction);
  /// cudaLaunchKernel: the kernel named by its host stub.
  cudaError_t launchKernel(const void* hostFunction, dim3 grid, dim3 block, void** args,
                           size_t sharedMem, cudaStream_t stream);
  /// __cudaLaunchKernel: the kernel named by the handle __cudaGetKernel gave out.
  cudaError_t launchKernel(cudaKernel_t kernel, dim3 grid, dim3 block, void** args,
                           size_t sharedMem, cudaStream_t stream);

  // --- Memory ----------------------------------------------------------------------------------
  cudaError_t malloc(void** pointer, size_t bytes);
  cudaError_t free(void* pointer);
  cudaError_t memcpy(void* destination, const void* source, size_t bytes, int kind,
                     cudaStream_t stream, bool async);
  cudaError_t memset(void* destination, int value, size_t bytes, cudaStream_t stream, bool async);

  // --- Symbols (through the registered names) --------------------------------------------------
  cudaError_t memcpyToSymbol(const void* symbol, const void* source, size_t bytes, size_t offset,
                             int kind, cudaStream_t stream, bool async);
  cudaError_t memcpyFromSymbol(void* destination, const void* symbol, size_t bytes, size_t offset,
                               int kind, cudaStream_t stream, bool async);
  cudaError_t getSymbolAddress(void** address, const void* symbol);
  cudaError_t getSymbolSize(size_t* bytes, const void* symbol);

  // --- Streams and events ----------------------------------------------------------------------
  cudaError_t streamCreate(cudaStream_t* stream, unsigned int flags, int priority);
  cudaError_t streamDestroy(cudaStream_t stream);
  cudaError_t streamSynchronize(cudaStream_t stream);
  cudaError_t streamQuery(cudaStream_t stream);
  cudaError_t streamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags);
  cudaError_t eventCreate(cudaEvent_t* event, unsigned int flags);
  cudaError_t eventDestroy(cudaEvent_t event);
  cudaError_t eventRecord(cudaEvent_t event, cudaStream_t stream);
  cudaError_t eventSynchronize(cudaEvent_t event);
  cudaError_t eventQuery(cudaEvent_t event);
  cudaError_t eventElapsedTime(float* milliseconds, cudaEvent_t start, cudaEvent_t end);

private:
  /// The calling thread's current device, made current on this thread.
  cudaError_t currentDevice(Device** device, int* ordinal = nullptr);
  /// The loaded module of a registration on the current device.
  cudaError_t moduleOnCurrentDevice(const FatbinaryRegistration& registration, Device** device,
                                    LoadedModule** module);
  /// The device address and size of a registered variable on the current device.
  cudaError_t symbolStorage(const void* symbol, Device** device, void** address, size_t* bytes);
  cudaError_t launch(const RegisteredFunction& function, dim3 grid, dim3 block, void** args,
                     size_t sharedMem, cudaStream_t stream);
  /// Passes a device result through, remembering errors that leave the context unusable.
  cudaError_t deviceResult(cudaError_t error);
  void readFatbinary(FatbinaryRegistration& registration);

  Logger logger_;
  Registry registry_;
  ModulePipeline pipeline_;
  ModuleCache modules_;
  std::unique_ptr<PtxDump> dump_; ///< set when OCELOT_DUMP_PTX asks for a dump

  std::function<PlatformResult()> platformFactory_;
  std::once_flag initialized_;
  PlatformResult platform_; ///< written once under initialized_

  /// A context-corrupting error (an illegal address in a kernel...): every later call reports it
  /// until cudaDeviceReset, as in NVIDIA's runtime.
  std::atomic<cudaError_t> stickyError_{cudaSuccess};

  std::mutex unsupportedMutex_;
  std::unordered_set<std::string> unsupportedReported_;
};

} // namespace ocelot::runtime
