#include "runtime/core/Runtime.h"

#include "runtime/core/ErrorTable.h"

#include <cuda_runtime_api.h>

namespace ocelot::runtime {

Runtime::Runtime(std::function<PlatformResult()> platformFactory, LogLevel logLevel,
                 std::unique_ptr<PtxDump> dump)
    : logger_(logLevel), modules_(logger_, pipeline_), dump_(std::move(dump)),
      platformFactory_(std::move(platformFactory)) {}

ThreadState& Runtime::createThreadState() {
  // Per-thread by nature: each host thread has its own last error, current device and launch
  // configurations. One state serves all Runtime objects of a thread, and there is one Runtime.
  thread_local ThreadState state;
  tThreadState = &state;
  return state;
}

// --- Errors ----------------------------------------------------------------------------------

// A sticky error reaches the thread's last error through the call that reported it; like NVIDIA's
// runtime, cudaGetLastError then clears it as any other error (later calls report it again).
cudaError_t Runtime::getLastError() {
  if (cudaError_t error = initialize(); error != cudaSuccess)
    return error;
  cudaError_t last = thread().lastError;
  thread().lastError = cudaSuccess;
  return last;
}

cudaError_t Runtime::peekAtLastError() {
  if (cudaError_t error = initialize(); error != cudaSuccess)
    return error;
  return thread().lastError;
}

cudaError_t Runtime::record(cudaError_t error) {
  thread().record(error);
  return error;
}

cudaError_t Runtime::notImplemented(const char* function) {
  {
    std::lock_guard lock(unsupportedMutex_);
    if (unsupportedReported_.insert(function).second)
      logger_.warn(std::string(function) +
                   " is not implemented by Ocelot yet; it returns cudaErrorNotSupported");
  }
  if (cudaError_t error = initialize(); error != cudaSuccess)
    return error;
  return cudaErrorNotSupported;
}

cudaError_t Runtime::deviceResult(cudaError_t error) {
  if (isStickyError(error) && resetEpoch_.load(std::memory_order_acquire) % 2 == 0) {
    cudaError_t expected = cudaSuccess;
    stickyError_.compare_exchange_strong(expected, error);
  }
  return error;
}

cudaError_t Runtime::deviceResult(cudaError_t error, uint64_t epoch) {
  if (isStickyError(error) && epoch % 2 == 0 &&
      resetEpoch_.load(std::memory_order_acquire) == epoch) {
    cudaError_t expected = cudaSuccess;
    stickyError_.compare_exchange_strong(expected, error);
  }
  return error;
}

// --- Initialization, versions, devices ---------------------------------------------------------

cudaError_t Runtime::initialize() {
  if (initializeDone_.load(std::memory_order_acquire)) [[likely]] {
    if (platform_.platform == nullptr)
      return platform_.error;
    return forks_ == ForkGuard::forks() ? cudaSuccess : inForkedChild();
  }
  std::call_once(initialized_, [this] {
    forks_ = ForkGuard::forks();
    ForkGuard::watch();
    try {
      platform_ = platformFactory_();
    } catch (const std::exception& exception) {
      platform_ = {nullptr, cudaErrorInitializationError, 0, exception.what()};
    }
    if (platform_.platform == nullptr) {
      logger_.warn("no usable CUDA device: " + platform_.reason + "; CUDA calls return " +
                   errorName(platform_.error));
      initializeDone_.store(true, std::memory_order_release);
      return;
    }
    Platform& platform = *platform_.platform;
    for (int ordinal = 0; ordinal < platform.deviceCount(); ++ordinal) {
      Device& device = platform.device(ordinal);
      devices_.push_back(&device);
      launchLimits_.push_back(LaunchLimits::of(device));
      logger_.info(platform.name() + ": device " + std::to_string(ordinal) + ": " + device.name() +
                   " (sm_" + std::to_string(device.computeCapability().number()) + ")");
    }
    initializeDone_.store(true, std::memory_order_release);
  });
  return platform_.platform != nullptr ? cudaSuccess : platform_.error;
}

cudaError_t Runtime::inForkedChild() {
  // The platform's threads stayed in the parent: nothing here may wait for them or take locks they
  // may have held at the fork, so the platform is left alone (never used, never destroyed).
  if (!forkReported_.exchange(true))
    logger_.warn("this process was forked after it used CUDA; the child cannot use the device its "
                 "parent initialized, so CUDA calls return cudaErrorInitializationError (as with "
                 "NVIDIA's runtime): use CUDA only after fork, or exec in the child");
  return cudaErrorInitializationError;
}

cudaError_t Runtime::driverGetVersion(int* version) {
  if (version == nullptr)
    return cudaErrorInvalidValue;
  // Without a usable driver NVIDIA's runtime still answers, with the version of whatever driver it
  // found (0 for none).
  initialize();
  *version =
      platform_.platform != nullptr ? platform_.platform->driverVersion() : platform_.driverVersion;
  return cudaSuccess;
}

cudaError_t Runtime::runtimeGetVersion(int* version) {
  if (version == nullptr)
    return cudaErrorInvalidValue;
  *version = CUDART_VERSION;
  return cudaSuccess;
}

cudaError_t Runtime::getDeviceCount(int* count) {
  cudaError_t error = initialize();
  // A forked child still counts the devices (NVIDIA's runtime does), though it cannot use them.
  if (error == cudaErrorInitializationError && platform_.platform != nullptr &&
      forks_ != ForkGuard::forks())
    error = cudaSuccess;
  if (error != cudaSuccess) {
    if (error == cudaErrorNoDevice && count != nullptr)
      *count = 0;
    return error;
  }
  if (count == nullptr)
    return cudaErrorInvalidValue;
  *count = platform_.platform->deviceCount();
  return cudaSuccess;
}

cudaError_t Runtime::getDevice(int* device) {
  if (cudaError_t error = initialize(); error != cudaSuccess)
    return error;
  if (device == nullptr)
    return cudaErrorInvalidValue;
  *device = thread().currentDevice;
  return cudaSuccess;
}

cudaError_t Runtime::setDevice(int device) {
  if (cudaError_t error = initialize(); error != cudaSuccess)
    return error;
  if (device < 0 || device >= platform_.platform->deviceCount())
    return cudaErrorInvalidDevice;
  thread().currentDevice = device;
  // Since CUDA 12, cudaSetDevice initializes the device's primary context right away.
  return deviceResult(platform_.platform->device(device).activate());
}

cudaError_t Runtime::initDevice(int device, unsigned int deviceFlags, unsigned int flags) {
  if (cudaError_t error = initialize(); error != cudaSuccess)
    return error;
  if (device < 0 || device >= platform_.platform->deviceCount())
    return cudaErrorInvalidDevice;
  if ((flags & ~static_cast<unsigned int>(cudaInitDeviceFlagsAreValid)) != 0)
    return cudaErrorInvalidValue;
  Device& selected = platform_.platform->device(device);
  if ((flags & cudaInitDeviceFlagsAreValid) != 0) {
    if ((deviceFlags & ~static_cast<unsigned int>(cudaDeviceMask)) != 0)
      return cudaErrorInvalidValue;
    if (cudaError_t error = selected.setFlags(deviceFlags); error != cudaSuccess)
      return error;
  }
  return deviceResult(selected.activate());
}

cudaError_t Runtime::deviceGetAttribute(int* value, int attribute, int device) {
  if (cudaError_t error = initialize(); error != cudaSuccess)
    return error;
  if (value == nullptr || attribute < 1 || attribute >= cudaDevAttrMax)
    return cudaErrorInvalidValue;
  if (device < 0 || device >= platform_.platform->deviceCount())
    return cudaErrorInvalidDevice;
  return platform_.platform->device(device).attribute(static_cast<cudaDeviceAttr>(attribute),
                                                      value);
}

cudaError_t Runtime::currentDevice(Device** device, int* ordinal) {
  return currentDevice(thread(), device, ordinal);
}

cudaError_t Runtime::deviceSynchronize() {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  return deviceResult(device->synchronize());
}

cudaError_t Runtime::deviceReset() {
  if (cudaError_t error = initialize(); error != cudaSuccess)
    return error;
  int ordinal = thread().currentDevice;
  if (ordinal < 0 || ordinal >= platform_.platform->deviceCount())
    return cudaErrorInvalidDevice;
  // The reset destroys the device's modules, functions and libraries; the next use loads the
  // modules again (so module-scope variables get their initial values again).
  auto forgetModules = [&] {
    modules_.forgetDevice(ordinal);
    kernelHandles_.forgetDevice(ordinal);
    if (ordinal < RegisteredFunction::kCachedDevices)
      for (FatbinaryRegistration* registration : registry_.fatbinaries())
        for (const RegisteredFunction* function : registry_.functionsOf(*registration))
          function->deviceFunctions[static_cast<size_t>(ordinal)].store(nullptr,
                                                                        std::memory_order_release);
  };
  forgetInstrumentation(ordinal); // first: pending profiles still read their buffers
  directLaunchEpoch_.fetch_add(1, std::memory_order_acq_rel); // the shim's direct launches end
  forgetModules();
  resetEpoch_.fetch_add(1, std::memory_order_acq_rel); // odd: errors now are the old context's
  stickyError_.store(cudaSuccess);
  cudaError_t result = platform_.platform->device(ordinal).reset();
  directLaunchEpoch_.fetch_add(1, std::memory_order_acq_rel); // and any taken while it ran
  // Launches that other threads made while the reset ran (undefined behaviour for the application)
  // loaded modules, functions and buffers that the reset destroyed: drop them too. Otherwise
  // every later launch of those kernels would use a function of the destroyed context and fail
  // (on a GPU; seen as launches between resets without any profile), and instrumented launches'
  // profiles report a disturbed launch instead of what the destroyed buffers held.
  forgetModules();
  forgetInstrumentation(ordinal, /*afterReset=*/true);
  // Calls that overlapped the reset may have made the destroyed context's error sticky again.
  stickyError_.store(cudaSuccess);
  resetEpoch_.fetch_add(1, std::memory_order_acq_rel);
  return result;
}

cudaError_t Runtime::deviceByOrdinal(int ordinal, Device** device) {
  if (cudaError_t error = initialize(); error != cudaSuccess)
    return error;
  if (ordinal < 0 || ordinal >= platform_.platform->deviceCount())
    return cudaErrorInvalidDevice;
  *device = &platform_.platform->device(ordinal);
  return cudaSuccess;
}

} // namespace ocelot::runtime
