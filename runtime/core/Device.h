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
/// Streams, events and the other objects are made and owned by the device's feature areas
/// (DeviceAreas); calls that run in stream order take the Stream.
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

  // ==========================================================================================
  // The families below have defaults that answer cudaErrorNotSupported, so that a device that
  // lacks a family (Ocelot's CPU back end, at first) still builds; the runtime validates every
  // argument before it calls them (see docs/runtime.md, "Device interface contract"). Handles
  // (cudaArray_t, cudaGraph_t, cudaMemPool_t, ...) are the device's own, passed through opaquely.
  // ==========================================================================================

  // --- Identity ------------------------------------------------------------------------------
  /// The 16-byte UUID and the total memory cudaGetDeviceProperties reports.
  virtual cudaError_t uuid(cudaUUID_t* /*uuid*/) { return cudaErrorNotSupported; }
  virtual cudaError_t totalMemory(size_t* /*bytes*/) { return cudaErrorNotSupported; }
  /// Peer access between this device and `peer` (never the same device: the runtime answers that).
  virtual cudaError_t canAccessPeer(int* /*canAccess*/, Device& /*peer*/) {
    return cudaErrorNotSupported;
  }
  virtual cudaError_t enablePeerAccess(Device& /*peer*/, unsigned int /*flags*/) {
    return cudaErrorNotSupported;
  }
  virtual cudaError_t disablePeerAccess(Device& /*peer*/) { return cudaErrorNotSupported; }
  virtual cudaError_t p2pAttribute(int* /*value*/, cudaDeviceP2PAttr /*attribute*/,
                                   Device& /*peer*/) {
    return cudaErrorNotSupported;
  }
  virtual cudaError_t atomicCapabilities(unsigned int* /*capabilities*/,
                                         const cudaAtomicOperation* /*operations*/,
                                         unsigned int /*count*/, Device* /*peer*/) {
    return cudaErrorNotSupported;
  }

  // --- Context state (flags, limits, caches) ------------------------------------------------
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

  // --- Pitched memory and pointer attributes ----------------------------------------------
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

  // --- Kernels: attributes, occupancy, libraries ------------------------------------------------
  virtual cudaError_t functionAttributes(cudaFuncAttributes* /*attributes*/,
                                         DeviceFunction /*function*/) {
    return cudaErrorNotSupported;
  }
  virtual cudaError_t setFunctionAttribute(DeviceFunction /*function*/,
                                           cudaFuncAttribute /*attribute*/, int /*value*/) {
    return cudaErrorNotSupported;
  }
  virtual cudaError_t setFunctionCacheConfig(DeviceFunction /*function*/,
                                             cudaFuncCache /*config*/) {
    return cudaErrorNotSupported;
  }
  virtual cudaError_t functionParameter(DeviceFunction /*function*/, size_t /*index*/,
                                        size_t* /*offset*/, size_t* /*size*/) {
    return cudaErrorNotSupported;
  }
  virtual cudaError_t maxActiveBlocks(int* /*blocks*/, DeviceFunction /*function*/,
                                      int /*blockSize*/, size_t /*sharedMem*/,
                                      unsigned int /*flags*/) {
    return cudaErrorNotSupported;
  }
  virtual cudaError_t availableDynamicSharedMemory(size_t* /*bytes*/, DeviceFunction /*function*/,
                                                   int /*blocks*/, int /*blockSize*/) {
    return cudaErrorNotSupported;
  }
  /// Cluster occupancy for `params` (function, grid, block, shared memory, attributes).
  virtual cudaError_t maxPotentialClusterSize(int* /*size*/, const LaunchParams& /*params*/) {
    return cudaErrorNotSupported;
  }
  virtual cudaError_t maxActiveClusters(int* /*clusters*/, const LaunchParams& /*params*/) {
    return cudaErrorNotSupported;
  }
  /// Libraries the application loads itself (cudaLibraryLoadData, ...). Their kernels are the
  /// device's cudaKernel_t handles; `kernelFunction` gives the DeviceFunction to launch.
  virtual cudaError_t loadLibrary(cudaLibrary_t* /*library*/, const void* /*image*/,
                                  const char* /*file*/, cudaJitOption* /*jitOptions*/,
                                  void** /*jitValues*/, unsigned int /*jitCount*/,
                                  cudaLibraryOption* /*libraryOptions*/, void** /*libraryValues*/,
                                  unsigned int /*libraryCount*/) {
    return cudaErrorNotSupported;
  }
  virtual cudaError_t unloadLibrary(cudaLibrary_t /*library*/) { return cudaErrorNotSupported; }
  virtual cudaError_t libraryKernel(cudaKernel_t* /*kernel*/, cudaLibrary_t /*library*/,
                                    const char* /*name*/) {
    return cudaErrorNotSupported;
  }
  virtual cudaError_t libraryKernelCount(unsigned int* /*count*/, cudaLibrary_t /*library*/) {
    return cudaErrorNotSupported;
  }
  virtual cudaError_t libraryKernels(cudaKernel_t* /*kernels*/, unsigned int /*count*/,
                                     cudaLibrary_t /*library*/) {
    return cudaErrorNotSupported;
  }
  /// A .global (managed = false) or .managed variable of a library, or a unified function.
  virtual cudaError_t libraryGlobal(void** /*address*/, size_t* /*bytes*/,
                                    cudaLibrary_t /*library*/, const char* /*name*/,
                                    bool /*managed*/) {
    return cudaErrorNotSupported;
  }
  virtual cudaError_t libraryUnifiedFunction(void** /*function*/, cudaLibrary_t /*library*/,
                                             const char* /*name*/) {
    return cudaErrorNotSupported;
  }
  virtual cudaError_t kernelFunction(DeviceFunction* /*function*/, cudaKernel_t /*kernel*/) {
    return cudaErrorNotSupported;
  }
  virtual cudaError_t kernelName(const char** /*name*/, cudaKernel_t /*kernel*/) {
    return cudaErrorNotSupported;
  }

  // --- Tools ---------------------------------------------------------------------------------
  virtual cudaError_t profilerControl(bool /*start*/) { return cudaErrorNotSupported; }

protected:
  /// Filled by the implementation's constructor with the areas it owns.
  DeviceAreas areas_;
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
  /// cudaGetDriverEntryPoint: the address of a function of the platform's driver API, or a status
  /// that says why there is none (the call itself succeeds either way). `flags` are
  /// cudaEnableDefault/LegacyStream/PerThreadDefaultStream. Platforms without a driver API
  /// answer cudaErrorNotSupported.
  virtual cudaError_t driverEntryPoint(const char* /*symbol*/, void** /*function*/,
                                       int /*cudaVersion*/, unsigned long long /*flags*/,
                                       cudaDriverEntryPointQueryResult* /*status*/) {
    return cudaErrorNotSupported;
  }

  /// The driver's error log (cudaLogs*): callbacks for new entries and dumps of what was logged.
  virtual cudaError_t logsRegisterCallback(cudaLogsCallback_t /*callback*/, void* /*userData*/,
                                           cudaLogsCallbackHandle* /*handle*/) {
    return cudaErrorNotSupported;
  }
  virtual cudaError_t logsUnregisterCallback(cudaLogsCallbackHandle /*handle*/) {
    return cudaErrorNotSupported;
  }
  virtual cudaError_t logsCurrent(cudaLogIterator* /*iterator*/, unsigned int /*flags*/) {
    return cudaErrorNotSupported;
  }
  virtual cudaError_t logsDumpToFile(cudaLogIterator* /*iterator*/, const char* /*path*/,
                                     unsigned int /*flags*/) {
    return cudaErrorNotSupported;
  }
  virtual cudaError_t logsDumpToMemory(cudaLogIterator* /*iterator*/, char* /*buffer*/,
                                       size_t* /*size*/, unsigned int /*flags*/) {
    return cudaErrorNotSupported;
  }
};

} // namespace ocelot::runtime
