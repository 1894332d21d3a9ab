#pragma once

#include "runtime/core/CopyRegion.h"
#include "runtime/core/LaunchParams.h"
#include "runtime/core/ModuleImage.h"
#include "runtime/fatbin/Selection.h"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <driver_types.h>
#include <string>
#include <surface_types.h>
#include <texture_types.h>
#include <vector_types.h>

namespace ocelot::runtime {

class Arrays;
class Copies;
class Events;
class ExternalResources;
class Functions;
class Graphs;
class HostMemory;
class Ipc;
class Libraries;
class ManagedMemory;
class MemoryPools;
class Peers;
class Stream;
class Streams;
class Textures;

/// The feature areas of a device: each makes and owns the objects of one kind (streams, events,
/// graphs, ...) or answers one family of calls. The device creates them; an area it leaves null is
/// one it does not have, which the API layer answers with the error NVIDIA's runtime gives there.
/// Every device has streams and events.
struct DeviceAreas {
  Streams* streams = nullptr;
  Events* events = nullptr;
  Graphs* graphs = nullptr;
  MemoryPools* memoryPools = nullptr;
  Arrays* arrays = nullptr;
  Textures* textures = nullptr;
  ExternalResources* externalResources = nullptr;
  HostMemory* hostMemory = nullptr;
  ManagedMemory* managedMemory = nullptr;
  Copies* copies = nullptr;
  Ipc* ipc = nullptr;
  Libraries* libraries = nullptr;
  Peers* peers = nullptr;
  Functions* functions = nullptr;
};

/// One device the runtime can run kernels on. The NVIDIA driver (runtime/driver/DriverDevice) is
/// the first implementation; Ocelot's CPU back end is the second. Every operation answers with the
/// cudaError_t the Runtime API returns for it, so the runtime forwards results unchanged.
///
/// The device itself answers what concerns the device and its context as a whole: identity and
/// properties, context state, memory, modules and the launch. Everything else belongs to its
/// feature areas (DeviceAreas), which make and own the objects of one kind (streams, events,
/// graphs, ...) or answer one family of calls (kernel functions, libraries, peers, ...); calls that
/// run in stream order take the Stream.
///
/// Methods with a default answer cudaErrorNotSupported there (or, for checkCopyKind, accept), so
/// that a device that lacks them still builds; the runtime validates every argument before it
/// calls any method.
///
/// The runtime calls `activate()` on the calling thread before anything else.
class Device {
public:
  virtual ~Device() = default;

  // --- Feature areas ------------------------------------------------------------------------
  Streams& streams() const { return *areas_.streams; }
  Events& events() const { return *areas_.events; }
  Graphs* graphs() const { return areas_.graphs; }
  MemoryPools* memoryPools() const { return areas_.memoryPools; }
  Arrays* arrays() const { return areas_.arrays; }
  Textures* textures() const { return areas_.textures; }
  ExternalResources* externalResources() const { return areas_.externalResources; }
  HostMemory* hostMemory() const { return areas_.hostMemory; }
  ManagedMemory* managedMemory() const { return areas_.managedMemory; }
  Copies* copies() const { return areas_.copies; }
  Ipc* ipc() const { return areas_.ipc; }
  Libraries* libraries() const { return areas_.libraries; }
  Peers* peers() const { return areas_.peers; }
  Functions* functions() const { return areas_.functions; }

  // --- Identity and properties --------------------------------------------------------------
  virtual std::string name() const = 0;
  virtual fatbin::ComputeCapability computeCapability() const = 0;
  /// cudaDeviceGetAttribute (the attribute numbering is the driver's).
  virtual cudaError_t attribute(cudaDeviceAttr attribute, int* value) = 0;
  virtual cudaError_t memoryInfo(size_t* free, size_t* total) = 0;
  /// The 16-byte UUID and the total memory cudaGetDeviceProperties reports.
  virtual cudaError_t uuid(cudaUUID_t* /*uuid*/) { return cudaErrorNotSupported; }
  virtual cudaError_t totalMemory(size_t* /*bytes*/) { return cudaErrorNotSupported; }

  // --- Context ------------------------------------------------------------------------------
  /// Makes this device current for the calling thread (creating its context on first use).
  virtual cudaError_t activate() = 0;
  virtual cudaError_t synchronize() = 0;
  /// Destroys every allocation, module, stream and event of the device (cudaDeviceReset).
  virtual cudaError_t reset() = 0;
  /// cudaSetDeviceFlags / cudaGetDeviceFlags: the flags the device's context is (or will be)
  /// created with. Flags are validated; cudaDeviceMapHost is implicit and reported.
  virtual cudaError_t setFlags(unsigned int /*flags*/) { return cudaErrorNotSupported; }
  virtual cudaError_t flags(unsigned int* /*flags*/) { return cudaErrorNotSupported; }
  virtual cudaError_t limit(cudaLimit /*limit*/, size_t* /*value*/) {
    return cudaErrorNotSupported;
  }
  virtual cudaError_t setLimit(cudaLimit /*limit*/, size_t /*value*/) {
    return cudaErrorNotSupported;
  }
  virtual cudaError_t cacheConfig(cudaFuncCache* /*config*/) { return cudaErrorNotSupported; }
  virtual cudaError_t setCacheConfig(cudaFuncCache /*config*/) { return cudaErrorNotSupported; }
  virtual cudaError_t resetPersistingL2Cache() { return cudaErrorNotSupported; }
  virtual cudaError_t flushRemoteWrites(cudaFlushGPUDirectRDMAWritesTarget /*target*/,
                                        cudaFlushGPUDirectRDMAWritesScope /*scope*/) {
    return cudaErrorNotSupported;
  }
  /// cudaProfilerStart / cudaProfilerStop.
  virtual cudaError_t profilerControl(bool /*start*/) { return cudaErrorNotSupported; }

  // --- Memory -------------------------------------------------------------------------------
  virtual cudaError_t allocate(void** pointer, size_t bytes) = 0;
  virtual cudaError_t free(void* pointer) = 0;
  /// cudaMallocPitch: at least width x height bytes, rows `*pitch` bytes apart.
  virtual cudaError_t allocatePitch(void** /*pointer*/, size_t* /*pitch*/, size_t /*width*/,
                                    size_t /*height*/) {
    return cudaErrorNotSupported;
  }
  /// cudaPointerGetAttributes. Memory the device does not know is cudaMemoryTypeUnregistered
  /// with hostPointer = `pointer` (and success), as in NVIDIA's runtime.
  virtual cudaError_t pointerAttributes(cudaPointerAttributes* /*attributes*/,
                                        const void* /*pointer*/) {
    return cudaErrorNotSupported;
  }
  /// Copies between any two addresses of the unified address space; synchronous unless `async`.
  virtual cudaError_t copy(void* destination, const void* source, size_t bytes, Stream& stream,
                           bool async) = 0;
  virtual cudaError_t fill(void* destination, unsigned char value, size_t bytes, Stream& stream,
                           bool async) = 0;
  /// Whether a 1D copy's kind (a valid cudaMemcpyKind) fits the memory it names: a device-side
  /// pointer of cudaMemcpyHostToDevice, DeviceToHost or DeviceToDevice that is pageable host
  /// memory is cudaErrorInvalidValue in NVIDIA's runtime. The driver checks this itself.
  virtual cudaError_t checkCopyKind(const void* /*destination*/, const void* /*source*/,
                                    int /*kind*/) {
    return cudaSuccess;
  }

  // --- Modules ------------------------------------------------------------------------------
  /// Whether the device executes Ocelot's IR itself (the CPU back end) rather than handing the
  /// PTX text to a JIT: then the module pipeline gives it the parsed units with the text
  /// (ModuleImage::units), so that each module image is parsed once.
  virtual bool runsIr() const { return false; }
  /// Loads a module; `log` receives the device's own diagnostics (JIT or link errors) on failure.
  virtual cudaError_t loadModule(const ModuleImage& image, DeviceModule* module,
                                 std::string* log) = 0;
  virtual cudaError_t unloadModule(DeviceModule module) = 0;
  virtual cudaError_t function(DeviceModule module, const char* name, DeviceFunction* function) = 0;
  virtual cudaError_t global(DeviceModule module, const char* name, void** address,
                             size_t* bytes) = 0;

  // --- Execution ----------------------------------------------------------------------------
  virtual cudaError_t launch(const LaunchParams& params) = 0;

protected:
  /// Filled by the implementation's constructor with the areas it owns.
  DeviceAreas areas_;
};

} // namespace ocelot::runtime
