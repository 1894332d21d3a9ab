#pragma once

#include "runtime/core/ModuleImage.h"
#include "runtime/fatbin/Selection.h"

#include <cstddef>
#include <driver_types.h>
#include <string>
#include <vector_types.h>

namespace ocelot::runtime {

/// A module a device loaded, and the kernels and globals in it. Opaque to the runtime; each device
/// implementation gives them its own meaning (a CUmodule / CUfunction for the NVIDIA driver).
using DeviceModule = void*;
using DeviceFunction = void*;

/// One kernel launch, after the runtime resolved the kernel and the stream.
struct LaunchParams {
  DeviceFunction function = nullptr;
  dim3 grid;
  dim3 block;
  size_t sharedMem = 0;
  cudaStream_t stream = nullptr; ///< 0 / cudaStreamLegacy / cudaStreamPerThread / a created one
  void** args = nullptr;         ///< one pointer per kernel parameter
};

/// One device the runtime can run kernels on. The NVIDIA driver (runtime/driver/DriverDevice) is
/// the first implementation; Ocelot's CPU back end is the second. Every operation answers with the
/// cudaError_t the Runtime API returns for it, so the runtime forwards results unchanged.
///
/// Streams and events are the device's own handles passed through as cudaStream_t / cudaEvent_t
/// (CUstream and CUevent for the driver, which is also what applications mixing the runtime and
/// the driver API expect). The special stream handles 0, cudaStreamLegacy and cudaStreamPerThread
/// keep their Runtime API meaning.
///
/// The runtime calls `activate()` on the calling thread before anything else.
class Device {
public:
  virtual ~Device() = default;

  // --- Identity and properties --------------------------------------------------------------
  virtual std::string name() const = 0;
  virtual fatbin::ComputeCapability computeCapability() const = 0;
  /// cudaDeviceGetAttribute (the attribute numbering is the driver's).
  virtual cudaError_t attribute(cudaDeviceAttr attribute, int* value) = 0;
  virtual cudaError_t memoryInfo(size_t* free, size_t* total) = 0;

  // --- Context ------------------------------------------------------------------------------
  /// Makes this device current for the calling thread (creating its context on first use).
  virtual cudaError_t activate() = 0;
  virtual cudaError_t synchronize() = 0;
  /// Destroys every allocation, module, stream and event of the device (cudaDeviceReset).
  virtual cudaError_t reset() = 0;

  // --- Memory -------------------------------------------------------------------------------
  virtual cudaError_t allocate(void** pointer, size_t bytes) = 0;
  virtual cudaError_t free(void* pointer) = 0;
  /// Copies between any two addresses of the unified address space; synchronous unless `async`.
  virtual cudaError_t copy(void* destination, const void* source, size_t bytes, cudaStream_t stream,
                           bool async) = 0;
  virtual cudaError_t fill(void* destination, unsigned char value, size_t bytes,
                           cudaStream_t stream, bool async) = 0;

  // --- Modules ------------------------------------------------------------------------------
  /// Loads a module; `log` receives the device's own diagnostics (JIT or link errors) on failure.
  virtual cudaError_t loadModule(const ModuleImage& image, DeviceModule* module,
                                 std::string* log) = 0;
  virtual cudaError_t unloadModule(DeviceModule module) = 0;
  virtual cudaError_t function(DeviceModule module, const char* name, DeviceFunction* function) = 0;
  virtual cudaError_t global(DeviceModule module, const char* name, void** address,
                             size_t* bytes) = 0;

  // --- Execution ----------------------------------------------------------------------------
  virtual cudaError_t launch(const LaunchParams& params) = 0;

  // --- Streams and events -------------------------------------------------------------------
  virtual cudaError_t createStream(cudaStream_t* stream, unsigned int flags, int priority) = 0;
  virtual cudaError_t destroyStream(cudaStream_t stream) = 0;
  virtual cudaError_t synchronizeStream(cudaStream_t stream) = 0;
  virtual cudaError_t queryStream(cudaStream_t stream) = 0;
  virtual cudaError_t waitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags) = 0;
  virtual cudaError_t createEvent(cudaEvent_t* event, unsigned int flags) = 0;
  virtual cudaError_t destroyEvent(cudaEvent_t event) = 0;
  virtual cudaError_t recordEvent(cudaEvent_t event, cudaStream_t stream) = 0;
  virtual cudaError_t synchronizeEvent(cudaEvent_t event) = 0;
  virtual cudaError_t queryEvent(cudaEvent_t event) = 0;
  virtual cudaError_t elapsedTime(float* milliseconds, cudaEvent_t start, cudaEvent_t end) = 0;
};

/// A source of devices: the NVIDIA driver, later Ocelot's CPU back end. The runtime creates one
/// platform when it initializes and keeps it for the life of the process.
class Platform {
public:
  virtual ~Platform() = default;
  virtual std::string name() const = 0;
  /// What cudaDriverGetVersion reports (13000 for CUDA 13.0).
  virtual int driverVersion() const = 0;
  virtual int deviceCount() const = 0;
  virtual Device& device(int ordinal) = 0;
};

} // namespace ocelot::runtime
