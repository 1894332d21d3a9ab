#pragma once

#include "runtime/core/Device.h"
#include "runtime/cpu/CpuModule.h"
#include "runtime/cpu/DeviceMemory.h"
#include "runtime/cpu/LaunchRunner.h"
#include "runtime/cpu/LaunchServices.h"

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace ocelot::runtime::cpu {

class ExecutionTracer;
struct CpuArray;
struct TextureObject;
struct CpuMipmappedArray;

/// Ocelot's CPU back end as a Device: device memory is host memory from one reserved arena,
/// modules are PTX parsed by Ocelot and decoded per kernel, launches run on a pool of host worker
/// threads (CtaExecutor). Work is executed when it is issued, in issue order, so every stream is
/// trivially in order and "asynchronous" calls have completed when they return; events record the
/// host time at which the preceding work finished, so they time real execution.
///
/// Like a GPU context, a kernel fault (illegal address, trap, assert, watchdog) makes the device
/// unusable: the launch itself succeeds (as an asynchronous launch does) and every later call
/// reports the fault until reset(). Device printf output is buffered and written at the next
/// synchronization point, as CUDA does.
///
/// A later LLVM-JIT back end would be a second executor behind the same device: only
/// loadModule/launch would change (see docs/cpu-backend.md).
class CpuDevice final : public Device {
public:
  /// Fails (returns null with `error`) only when no address space can be reserved.
  static std::unique_ptr<CpuDevice> create(std::string* error);
  ~CpuDevice() override;

  // --- Identity and properties ----------------------------------------------------------------
  std::string name() const override;
  fatbin::ComputeCapability computeCapability() const override { return {9, 0}; }
  cudaError_t attribute(cudaDeviceAttr attribute, int* value) override;
  cudaError_t memoryInfo(size_t* free, size_t* total) override;
  cudaError_t uuid(cudaUUID_t* uuid) override;
  cudaError_t totalMemory(size_t* bytes) override;

  // --- Context ----------------------------------------------------------------------------------
  cudaError_t activate() override { return cudaSuccess; }
  cudaError_t synchronize() override;
  cudaError_t reset() override;
  cudaError_t setFlags(unsigned int flags) override;
  cudaError_t flags(unsigned int* flags) override;
  cudaError_t limit(cudaLimit limit, size_t* value) override;
  cudaError_t setLimit(cudaLimit limit, size_t value) override;
  cudaError_t cacheConfig(cudaFuncCache* config) override;
  cudaError_t setCacheConfig(cudaFuncCache config) override;
  cudaError_t streamPriorityRange(int* least, int* greatest) override;

  // --- Memory -----------------------------------------------------------------------------------
  cudaError_t allocate(void** pointer, size_t bytes) override;
  cudaError_t free(void* pointer) override;
  cudaError_t copy(void* destination, const void* source, size_t bytes, cudaStream_t stream,
                   bool async) override;
  cudaError_t fill(void* destination, unsigned char value, size_t bytes, cudaStream_t stream,
                   bool async) override;
  cudaError_t allocateHost(void** pointer, size_t bytes, unsigned int flags) override;
  cudaError_t freeHost(void* pointer) override;
  cudaError_t registerHost(void* pointer, size_t bytes, unsigned int flags) override;
  cudaError_t unregisterHost(void* pointer) override;
  cudaError_t hostDevicePointer(void** device, void* host) override;
  cudaError_t hostFlags(unsigned int* flags, void* host) override;
  cudaError_t allocateManaged(void** pointer, size_t bytes, unsigned int flags) override;
  cudaError_t allocatePitch(void** pointer, size_t* pitch, size_t width, size_t height) override;
  cudaError_t pointerAttributes(cudaPointerAttributes* attributes, const void* pointer) override;
  cudaError_t copy3D(const CopyRegion& region, cudaStream_t stream, bool async) override;
  cudaError_t copyPeer(void* destination, const void* source, Device& sourceDevice, size_t bytes,
                       cudaStream_t stream, bool async) override;
  cudaError_t copy3DPeer(const CopyRegion& region, Device& sourceDevice, cudaStream_t stream,
                         bool async) override;
  cudaError_t copyBatch(void* const* destinations, const void* const* sources, const size_t* sizes,
                        size_t count, cudaMemcpyAttributes* attributes, size_t* attributeIndices,
                        size_t attributeCount, cudaStream_t stream) override;
  cudaError_t fill2D(void* destination, size_t pitch, unsigned char value, size_t width,
                     size_t height, cudaStream_t stream, bool async) override;
  cudaError_t allocateAsync(void** pointer, size_t bytes, cudaMemPool_t pool,
                            cudaStream_t stream) override;
  cudaError_t freeAsync(void* pointer, cudaStream_t stream) override;
  cudaError_t createPool(cudaMemPool_t* pool, const cudaMemPoolProps& properties) override;
  cudaError_t destroyPool(cudaMemPool_t pool) override;
  cudaError_t poolAttribute(cudaMemPool_t pool, cudaMemPoolAttr attribute, void* value) override;
  cudaError_t setPoolAttribute(cudaMemPool_t pool, cudaMemPoolAttr attribute, void* value) override;
  cudaError_t trimPool(cudaMemPool_t pool, size_t keep) override;
  cudaError_t poolAccess(cudaMemAccessFlags* flags, cudaMemPool_t pool,
                         const cudaMemLocation& location) override;
  cudaError_t setPoolAccess(cudaMemPool_t pool, const cudaMemAccessDesc* descs,
                            size_t count) override;
  cudaError_t defaultPool(cudaMemPool_t* pool, const cudaMemLocation& location,
                          cudaMemAllocationType type) override;
  cudaError_t currentPool(cudaMemPool_t* pool, const cudaMemLocation& location,
                          cudaMemAllocationType type) override;
  cudaError_t setCurrentPool(const cudaMemLocation& location, cudaMemAllocationType type,
                             cudaMemPool_t pool) override;
  cudaError_t prefetch(const void* pointer, size_t bytes, cudaMemLocation location,
                       unsigned int flags, cudaStream_t stream) override;
  cudaError_t advise(const void* pointer, size_t bytes, cudaMemoryAdvise advice,
                     cudaMemLocation location) override;
  cudaError_t rangeAttributes(void** data, size_t* dataSizes, cudaMemRangeAttribute* attributes,
                              size_t count, const void* pointer, size_t bytes) override;
  cudaError_t attachMemory(cudaStream_t stream, void* pointer, size_t bytes,
                           unsigned int flags) override;

  // --- Arrays -----------------------------------------------------------------------------------
  cudaError_t createArray(cudaArray_t* array, const cudaChannelFormatDesc& format,
                          cudaExtent extent, unsigned int flags) override;
  cudaError_t destroyArray(cudaArray_t array) override;
  cudaError_t arrayInfo(cudaChannelFormatDesc* format, cudaExtent* extent, unsigned int* flags,
                        cudaArray_const_t array) override;
  cudaError_t createMipmappedArray(cudaMipmappedArray_t* array, const cudaChannelFormatDesc& format,
                                   cudaExtent extent, unsigned int levels,
                                   unsigned int flags) override;
  cudaError_t destroyMipmappedArray(cudaMipmappedArray_t array) override;
  cudaError_t mipmappedArrayLevel(cudaArray_t* level, cudaMipmappedArray_const_t array,
                                  unsigned int index) override;

  // --- Modules ----------------------------------------------------------------------------------
  cudaError_t loadModule(const ModuleImage& image, DeviceModule* module, std::string* log) override;
  cudaError_t unloadModule(DeviceModule module) override;
  cudaError_t function(DeviceModule module, const char* name, DeviceFunction* function) override;
  cudaError_t global(DeviceModule module, const char* name, void** address, size_t* bytes) override;
  cudaError_t functionAttributes(cudaFuncAttributes* attributes, DeviceFunction function) override;
  cudaError_t setFunctionAttribute(DeviceFunction function, cudaFuncAttribute attribute,
                                   int value) override;
  cudaError_t setFunctionCacheConfig(DeviceFunction function, cudaFuncCache config) override;
  cudaError_t maxActiveBlocks(int* blocks, DeviceFunction function, int blockSize, size_t sharedMem,
                              unsigned int flags) override;
  cudaError_t functionParameter(DeviceFunction function, size_t index, size_t* offset,
                                size_t* size) override;
  cudaError_t availableDynamicSharedMemory(size_t* bytes, DeviceFunction function, int blocks,
                                           int blockSize) override;

  // --- Libraries (PTX images; kernels are the device's functions) -------------------------------
  cudaError_t loadLibrary(cudaLibrary_t* library, const void* image, const char* file,
                          cudaJitOption* jitOptions, void** jitValues, unsigned int jitCount,
                          cudaLibraryOption* libraryOptions, void** libraryValues,
                          unsigned int libraryCount) override;
  cudaError_t unloadLibrary(cudaLibrary_t library) override;
  cudaError_t libraryKernel(cudaKernel_t* kernel, cudaLibrary_t library, const char* name) override;
  cudaError_t libraryKernelCount(unsigned int* count, cudaLibrary_t library) override;
  cudaError_t libraryKernels(cudaKernel_t* kernels, unsigned int count,
                             cudaLibrary_t library) override;
  cudaError_t libraryGlobal(void** address, size_t* bytes, cudaLibrary_t library, const char* name,
                            bool managed) override;
  cudaError_t kernelFunction(DeviceFunction* function, cudaKernel_t kernel) override;
  cudaError_t kernelName(const char** name, cudaKernel_t kernel) override;

  // --- Execution --------------------------------------------------------------------------------
  cudaError_t launch(const LaunchParams& params) override;

  // --- Streams and events -----------------------------------------------------------------------
  cudaError_t createStream(cudaStream_t* stream, unsigned int flags, int priority) override;
  cudaError_t destroyStream(cudaStream_t stream) override;
  cudaError_t synchronizeStream(cudaStream_t stream) override;
  cudaError_t queryStream(cudaStream_t stream) override;
  cudaError_t waitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags) override;
  cudaError_t createEvent(cudaEvent_t* event, unsigned int flags) override;
  cudaError_t destroyEvent(cudaEvent_t event) override;
  cudaError_t recordEvent(cudaEvent_t event, cudaStream_t stream) override;
  cudaError_t recordEventWithFlags(cudaEvent_t event, cudaStream_t stream,
                                   unsigned int flags) override;
  cudaError_t synchronizeEvent(cudaEvent_t event) override;
  cudaError_t queryEvent(cudaEvent_t event) override;
  cudaError_t elapsedTime(float* milliseconds, cudaEvent_t start, cudaEvent_t end) override;
  cudaError_t streamFlags(cudaStream_t stream, unsigned int* flags) override;
  cudaError_t streamPriority(cudaStream_t stream, int* priority) override;
  cudaError_t streamId(cudaStream_t stream, unsigned long long* id) override;
  cudaError_t streamDevice(cudaStream_t stream, int* ordinal) override;
  cudaError_t streamAttribute(cudaStream_t stream, cudaLaunchAttributeID id,
                              cudaLaunchAttributeValue* value) override;
  cudaError_t setStreamAttribute(cudaStream_t stream, cudaLaunchAttributeID id,
                                 const cudaLaunchAttributeValue* value) override;
  cudaError_t launchHostFunction(cudaStream_t stream, cudaHostFn_t function,
                                 void* userData) override;

  // --- Textures and surfaces --------------------------------------------------------------------
  cudaError_t createTexture(cudaTextureObject_t* texture, const cudaResourceDesc& resource,
                            const cudaTextureDesc& description,
                            const cudaResourceViewDesc* view) override;
  cudaError_t destroyTexture(cudaTextureObject_t texture) override;
  cudaError_t textureResource(cudaResourceDesc* resource, cudaTextureObject_t texture) override;
  cudaError_t textureDescription(cudaTextureDesc* description,
                                 cudaTextureObject_t texture) override;
  cudaError_t createSurface(cudaSurfaceObject_t* surface,
                            const cudaResourceDesc& resource) override;
  cudaError_t destroySurface(cudaSurfaceObject_t surface) override;
  cudaError_t surfaceResource(cudaResourceDesc* resource, cudaSurfaceObject_t surface) override;

  cudaError_t profilerControl(bool) override { return cudaSuccess; }

  // --- CPU-device specific (tests, benchmarks, tools) -------------------------------------------
  /// Attaches a tracer to later launches (null detaches). Not owned.
  void setTracer(ExecutionTracer* tracer) { tracer_ = tracer; }
  ExecutionOptions& options() { return options_; }
  /// The message of the fault that made the device unusable, "" when none.
  std::string faultMessage() const;
  uint32_t workers() const { return runner_->workers(); }
  uint64_t threadInstructions() const { return runner_->threadInstructions(); }
  DeviceMemory& memory() { return *memory_; }
  /// Replaces the worker pool (benchmarks compare worker counts in one process).
  void setWorkers(uint32_t workers);

private:
  struct Stream {
    unsigned int flags = 0;
    int priority = 0;
    unsigned long long id = 0;
  };
  struct Event {
    unsigned int flags = 0;
    bool recorded = false;
    std::chrono::steady_clock::time_point time;
  };
  struct Function {
    CpuModule* module = nullptr;
    std::string name;
    int maxDynamicShared = -1; ///< -1: 48 KiB less the static shared memory
    int carveout = -1;
  };

  CpuDevice() = default;
  /// The sticky fault, or success. Also flushes pending printf output at sync points.
  cudaError_t sticky() const { return stickyError_; }
  void flushOutput();
  bool validStream(cudaStream_t stream) const;
  bool isDevicePointer(const void* pointer) const;

  std::unique_ptr<DeviceMemory> memory_;
  std::unique_ptr<LaunchRunner> runner_;
  std::unique_ptr<DeviceHeap> heap_;
  ExecutionOptions options_;
  ExecutionTracer* tracer_ = nullptr;
  std::unique_ptr<ExecutionTracer> blockTrace_; ///< OCELOT_CPU_TRACE_OUTPUT

  mutable std::mutex mutex_; ///< the tables below
  std::mutex launchMutex_;   ///< one launch at a time (launches are whole-device work)
  std::map<CpuModule*, std::unique_ptr<CpuModule>> modules_;
  std::map<void*, std::unique_ptr<Function>> functions_;
  std::map<void*, std::unique_ptr<Stream>> streams_;
  std::map<void*, std::unique_ptr<Event>> events_;
  std::map<void*, unsigned int> hostAllocations_; ///< cudaMallocHost/cudaHostAlloc -> flags
  std::map<void*, std::unique_ptr<CpuArray>> arrays_;
  // Memory pools (CpuMemoryPools.cpp); guarded by mutex_.
  struct Pool {
    int reuseFollowEvents = 1, reuseOpportunistic = 1, reuseInternal = 1;
    uint64_t releaseThreshold = 0;
    uint64_t used = 0, usedHigh = 0, reserved = 0, reservedHigh = 0;
    std::multimap<size_t, void*> cached; ///< freed blocks kept for reuse, by size
  };
  Pool* poolOf(cudaMemPool_t pool);
  cudaMemPool_t defaultPool();
  void releaseCached(Pool& pool, uint64_t keep);
  std::map<void*, std::unique_ptr<Pool>> pools_;
  std::map<void*, std::pair<Pool*, size_t>> poolBlocks_; ///< stream-ordered allocations
  cudaMemPool_t defaultPool_ = nullptr;
  cudaMemPool_t currentPool_ = nullptr;
  std::map<void*, std::unique_ptr<CpuMipmappedArray>> mipmaps_;
  std::map<void*, unsigned int> registeredFlags_; ///< cudaHostRegister flags by base
  /// cudaMemAdvise / cudaMemPrefetchAsync on managed memory, by allocation base: remembered and
  /// reported by cudaMemRangeGetAttribute (data never moves: it is host memory already).
  struct ManagedAdvice {
    bool readMostly = false;
    cudaMemLocation preferred{cudaMemLocationTypeInvalid, 0};
    cudaMemLocation lastPrefetch{cudaMemLocationTypeInvalid, 0};
  };
  std::map<uintptr_t, ManagedAdvice> advice_;
  /// Libraries whose image is no PTX: loading succeeds (the driver loads lazily too) and every use
  /// fails; the handle only has to be unique.
  std::map<void*, std::unique_ptr<char>> unusableLibraries_;
  /// Texture and surface objects; handle = slot + 1. Slots are never moved (TextureObjects.h).
  std::vector<std::unique_ptr<TextureObject>> textureObjects_;
  std::vector<TextureObject*> textureSlots_;
  unsigned long long nextStreamId_ = 16;
  unsigned int flags_ = 0;
  cudaFuncCache cacheConfig_ = cudaFuncCachePreferNone;
  size_t printfFifoSize_ = 1 << 20;
  uint64_t gridId_ = 0;

  cudaError_t stickyError_ = cudaSuccess;
  std::string faultMessage_;
  std::mutex outputMutex_;
  std::string pendingOutput_;
};

} // namespace ocelot::runtime::cpu
