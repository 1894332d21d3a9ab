#pragma once

#include "runtime/core/Device.h"
#include "runtime/core/KernelHandles.h"
#include "runtime/core/LaunchLimits.h"
#include "runtime/core/Logger.h"
#include "runtime/core/ModuleCache.h"
#include "runtime/core/ModulePipeline.h"
#include "runtime/core/PlatformResult.h"
#include "runtime/core/PtxDump.h"
#include "runtime/core/Registry.h"
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

namespace instrumentation {
class InstrumentationRuntime;
} // namespace instrumentation

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
  /// entry point starts here.
  static Runtime& instance() {
    static Runtime* const runtime = create();
    return *runtime;
  }

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
  cudaError_t deviceGetStreamPriorityRange(int* least, int* greatest);
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
  cudaError_t deviceGetTexture1DLinearMaxWidth(size_t* width, const cudaChannelFormatDesc* format,
                                               int device);
  cudaError_t deviceFlushGPUDirectRDMAWrites(int target, int scope);
  cudaError_t ctxResetPersistingL2Cache();

  // --- Host, managed and pitched memory, pointer attributes (RuntimeHostMemory.cpp) -----------
  cudaError_t mallocHost(void** pointer, size_t bytes, unsigned int flags);
  cudaError_t freeHost(void* pointer);
  cudaError_t hostRegister(void* pointer, size_t bytes, unsigned int flags);
  cudaError_t hostUnregister(void* pointer);
  cudaError_t hostGetDevicePointer(void** device, void* host, unsigned int flags);
  cudaError_t hostGetFlags(unsigned int* flags, void* host);
  cudaError_t mallocManaged(void** pointer, size_t bytes, unsigned int flags);
  cudaError_t mallocPitch(void** pointer, size_t* pitch, size_t width, size_t height);
  cudaError_t malloc3D(cudaPitchedPtr* pointer, cudaExtent extent);
  cudaError_t pointerGetAttributes(cudaPointerAttributes* attributes, const void* pointer);
  cudaError_t memAdvise(const void* pointer, size_t bytes, int advice, cudaMemLocation location);
  cudaError_t memPrefetchAsync(const void* pointer, size_t bytes, cudaMemLocation location,
                               unsigned int flags, cudaStream_t stream);
  cudaError_t memPrefetchBatchAsync(void** pointers, size_t* sizes, size_t count, bool discard,
                                    cudaMemLocation* locations, size_t* locationIndices,
                                    size_t locationCount, unsigned long long flags,
                                    cudaStream_t stream);
  cudaError_t memRangeGetAttributes(void** data, size_t* dataSizes,
                                    cudaMemRangeAttribute* attributes, size_t count,
                                    const void* pointer, size_t bytes);
  cudaError_t streamAttachMemAsync(cudaStream_t stream, void* pointer, size_t bytes,
                                   unsigned int flags);

  // --- 2D/3D copies and fills, peer copies, batches (RuntimeCopies.cpp) -------------------------
  cudaError_t memcpy3D(const cudaMemcpy3DParms* params, cudaStream_t stream, bool async);
  /// Every 2D copy (linear memory or an array on either side; see linearMemory and arrayAt).
  cudaError_t memcpy2D(const CopyEndpoint& destination, const CopyEndpoint& source, size_t width,
                       size_t height, int kind, cudaStream_t stream, bool async);
  /// The deprecated 1D copies to, from and between arrays (each endpoint an array position or a
  /// pointer).
  cudaError_t memcpyArrayLinear(const CopyEndpoint& destination, const CopyEndpoint& source,
                                size_t bytes, int kind, cudaStream_t stream, bool async);
  cudaError_t memcpyPeer(void* destination, int destinationDevice, const void* source,
                         int sourceDevice, size_t bytes, cudaStream_t stream, bool async);
  cudaError_t memcpy3DPeer(const cudaMemcpy3DPeerParms* params, cudaStream_t stream, bool async);
  cudaError_t memcpyBatchAsync(void* const* destinations, const void* const* sources,
                               const size_t* sizes, size_t count, cudaMemcpyAttributes* attributes,
                               size_t* attributeIndices, size_t attributeCount,
                               cudaStream_t stream);
  cudaError_t memcpy3DBatchAsync(size_t count, cudaMemcpy3DBatchOp* operations,
                                 unsigned long long flags, cudaStream_t stream);
  cudaError_t memset2D(void* destination, size_t pitch, int value, size_t width, size_t height,
                       cudaStream_t stream, bool async);
  cudaError_t memset3D(cudaPitchedPtr destination, int value, cudaExtent extent,
                       cudaStream_t stream, bool async);

  // --- CUDA arrays (RuntimeArrays.cpp) -----------------------------------------------------------
  cudaError_t mallocArray(cudaArray_t* array, const cudaChannelFormatDesc* format,
                          cudaExtent extent, unsigned int flags, bool threeD);
  cudaError_t freeArray(cudaArray_t array);
  cudaError_t arrayGetInfo(cudaChannelFormatDesc* format, cudaExtent* extent, unsigned int* flags,
                           cudaArray_const_t array);
  cudaError_t getChannelDesc(cudaChannelFormatDesc* format, cudaArray_const_t array);
  cudaError_t arrayGetPlane(cudaArray_t* plane, cudaArray_t array, unsigned int index);
  cudaError_t arrayGetMemoryRequirements(cudaArrayMemoryRequirements* requirements,
                                         cudaArray_t array, int device);
  cudaError_t arrayGetSparseProperties(cudaArraySparseProperties* properties, cudaArray_t array);
  cudaError_t mallocMipmappedArray(cudaMipmappedArray_t* array, const cudaChannelFormatDesc* format,
                                   cudaExtent extent, unsigned int levels, unsigned int flags);
  cudaError_t freeMipmappedArray(cudaMipmappedArray_t array);
  cudaError_t getMipmappedArrayLevel(cudaArray_t* level, cudaMipmappedArray_const_t array,
                                     unsigned int index);
  cudaError_t mipmappedArrayGetMemoryRequirements(cudaArrayMemoryRequirements* requirements,
                                                  cudaMipmappedArray_t array, int device);
  cudaError_t mipmappedArrayGetSparseProperties(cudaArraySparseProperties* properties,
                                                cudaMipmappedArray_t array);

  // --- Stream-ordered allocation and memory pools (RuntimePools.cpp) ----------------------------
  /// cudaMallocAsync: from the device's current pool.
  cudaError_t mallocAsync(void** pointer, size_t bytes, cudaMemPool_t pool, cudaStream_t stream);
  cudaError_t mallocFromPoolAsync(void** pointer, size_t bytes, cudaMemPool_t pool,
                                  cudaStream_t stream);
  cudaError_t freeAsync(void* pointer, cudaStream_t stream);
  cudaError_t memPoolCreate(cudaMemPool_t* pool, const cudaMemPoolProps* properties);
  cudaError_t memPoolDestroy(cudaMemPool_t pool);
  cudaError_t memPoolGetAttribute(cudaMemPool_t pool, int attribute, void* value);
  cudaError_t memPoolSetAttribute(cudaMemPool_t pool, int attribute, void* value);
  cudaError_t memPoolTrimTo(cudaMemPool_t pool, size_t keep);
  cudaError_t memPoolGetAccess(cudaMemAccessFlags* flags, cudaMemPool_t pool,
                               cudaMemLocation* location);
  cudaError_t memPoolSetAccess(cudaMemPool_t pool, const cudaMemAccessDesc* descs, size_t count);
  cudaError_t deviceGetDefaultMemPool(cudaMemPool_t* pool, int device);
  cudaError_t deviceGetMemPool(cudaMemPool_t* pool, int device);
  cudaError_t deviceSetMemPool(int device, cudaMemPool_t pool);
  cudaError_t memGetDefaultMemPool(cudaMemPool_t* pool, cudaMemLocation* location, int type);
  cudaError_t memGetMemPool(cudaMemPool_t* pool, cudaMemLocation* location, int type);
  cudaError_t memSetMemPool(cudaMemLocation* location, int type, cudaMemPool_t pool);
  cudaError_t memPoolExportToShareableHandle(void* handle, cudaMemPool_t pool, int type,
                                             unsigned int flags);
  cudaError_t memPoolImportFromShareableHandle(cudaMemPool_t* pool, void* handle, int type,
                                               unsigned int flags);
  cudaError_t memPoolExportPointer(cudaMemPoolPtrExportData* data, void* pointer);
  cudaError_t memPoolImportPointer(void** pointer, cudaMemPool_t pool,
                                   cudaMemPoolPtrExportData* data);
  cudaError_t deviceGraphMemAttribute(int device, int attribute, void* value, bool set);
  cudaError_t deviceGraphMemTrim(int device);

  // --- Interprocess handles (RuntimeHostMemory.cpp)
  // -----------------------------------------------
  cudaError_t ipcGetMemHandle(cudaIpcMemHandle_t* handle, void* pointer);
  cudaError_t ipcOpenMemHandle(void** pointer, cudaIpcMemHandle_t handle, unsigned int flags);
  cudaError_t ipcCloseMemHandle(void* pointer);
  cudaError_t ipcGetEventHandle(cudaIpcEventHandle_t* handle, cudaEvent_t event);
  cudaError_t ipcOpenEventHandle(cudaEvent_t* event, cudaIpcEventHandle_t handle);

  // --- Stream queries, attributes, host work and capture (RuntimeStreamState.cpp) ---------------
  cudaError_t streamGetFlags(cudaStream_t stream, unsigned int* flags);
  cudaError_t streamGetPriority(cudaStream_t stream, int* priority);
  cudaError_t streamGetId(cudaStream_t stream, unsigned long long* id);
  cudaError_t streamGetDevice(cudaStream_t stream, int* device);
  cudaError_t streamGetAttribute(cudaStream_t stream, int attribute,
                                 cudaLaunchAttributeValue* value);
  cudaError_t streamSetAttribute(cudaStream_t stream, int attribute,
                                 const cudaLaunchAttributeValue* value);
  cudaError_t streamCopyAttributes(cudaStream_t destination, cudaStream_t source);
  cudaError_t streamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void* userData,
                                unsigned int flags);
  cudaError_t launchHostFunc(cudaStream_t stream, cudaHostFn_t function, void* userData);
  cudaError_t eventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags);
  cudaError_t streamBeginCapture(cudaStream_t stream, int mode);
  cudaError_t streamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph,
                                        const cudaGraphNode_t* dependencies,
                                        const cudaGraphEdgeData* edges, size_t count, int mode);
  cudaError_t streamEndCapture(cudaStream_t stream, cudaGraph_t* graph);
  cudaError_t streamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus* status);
  cudaError_t streamGetCaptureInfo(cudaStream_t stream, cudaStreamCaptureStatus* status,
                                   unsigned long long* id, cudaGraph_t* graph,
                                   const cudaGraphNode_t** dependencies,
                                   const cudaGraphEdgeData** edges, size_t* count);
  cudaError_t streamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t* dependencies,
                                              const cudaGraphEdgeData* edges, size_t count,
                                              unsigned int flags);
  cudaError_t threadExchangeStreamCaptureMode(cudaStreamCaptureMode* mode);

  // --- Launch paths beyond <<<>>> (RuntimeLaunch.cpp)
  // ----------------------------------------------
  cudaError_t launchKernelEx(const cudaLaunchConfig_t* config, const void* function, void** args,
                             bool perThreadStream);
  cudaError_t launchCooperativeKernel(const void* function, dim3 grid, dim3 block, void** args,
                                      size_t sharedMem, cudaStream_t stream);

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

  // --- Texture and surface objects (RuntimeTextures.cpp)
  // ------------------------------------------
  cudaError_t createTextureObject(cudaTextureObject_t* texture, const cudaResourceDesc* resource,
                                  const cudaTextureDesc* description,
                                  const cudaResourceViewDesc* view);
  cudaError_t destroyTextureObject(cudaTextureObject_t texture);
  cudaError_t getTextureObjectResourceDesc(cudaResourceDesc* resource, cudaTextureObject_t texture);
  cudaError_t getTextureObjectTextureDesc(cudaTextureDesc* description,
                                          cudaTextureObject_t texture);
  cudaError_t getTextureObjectResourceViewDesc(cudaResourceViewDesc* view,
                                               cudaTextureObject_t texture);
  cudaError_t createSurfaceObject(cudaSurfaceObject_t* surface, const cudaResourceDesc* resource);
  cudaError_t destroySurfaceObject(cudaSurfaceObject_t surface);
  cudaError_t getSurfaceObjectResourceDesc(cudaResourceDesc* resource, cudaSurfaceObject_t surface);

  // --- Graphs (RuntimeGraphs.cpp) ----------------------------------------------------------------
  cudaError_t graphCreate(cudaGraph_t* graph, unsigned int flags);
  cudaError_t graphDestroy(cudaGraph_t graph);
  cudaError_t graphClone(cudaGraph_t* clone, cudaGraph_t graph);
  /// Every cudaGraphAdd*Node, in the generic form (kernel.func: host stub or cudaKernel_t).
  cudaError_t graphAddNode(cudaGraphNode_t* node, cudaGraph_t graph,
                           const cudaGraphNode_t* dependencies, const cudaGraphEdgeData* edges,
                           size_t count, cudaGraphNodeParams* params);
  /// The parameters of a node as the generic form; `type` must match when `expected` is given.
  cudaError_t graphNodeGetParams(cudaGraphNode_t node, cudaGraphNodeParams* params, int expected);
  cudaError_t graphNodeSetParams(cudaGraphNode_t node, const cudaGraphNodeParams* params);
  cudaError_t graphExecNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                     const cudaGraphNodeParams* params);
  /// The memcpy node parameters of a copy to (or from) a registered variable.
  cudaError_t symbolCopyNodeParams(const void* symbol, void* memory, size_t bytes, size_t offset,
                                   int kind, bool toSymbol, cudaGraphNodeParams* params);
  cudaError_t graphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType* type);
  cudaError_t graphGetNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, size_t* count,
                            bool rootsOnly);
  cudaError_t graphGetEdges(cudaGraph_t graph, cudaGraphNode_t* from, cudaGraphNode_t* to,
                            cudaGraphEdgeData* edges, size_t* count);
  cudaError_t graphNodeGetNeighbours(cudaGraphNode_t node, cudaGraphNode_t* nodes,
                                     cudaGraphEdgeData* edges, size_t* count, bool dependents);
  cudaError_t graphChangeDependencies(cudaGraph_t graph, const cudaGraphNode_t* from,
                                      const cudaGraphNode_t* to, const cudaGraphEdgeData* edges,
                                      size_t count, bool add);
  cudaError_t graphDestroyNode(cudaGraphNode_t node);
  cudaError_t graphNodeFindInClone(cudaGraphNode_t* cloned, cudaGraphNode_t node,
                                   cudaGraph_t clone);
  cudaError_t graphNodeSetEnabled(cudaGraphExec_t exec, cudaGraphNode_t node, unsigned int enabled);
  cudaError_t graphNodeGetEnabled(cudaGraphExec_t exec, cudaGraphNode_t node,
                                  unsigned int* enabled);
  cudaError_t graphKernelNodeGetAttribute(cudaGraphNode_t node, int attribute,
                                          cudaLaunchAttributeValue* value);
  cudaError_t graphKernelNodeSetAttribute(cudaGraphNode_t node, int attribute,
                                          const cudaLaunchAttributeValue* value);
  cudaError_t graphKernelNodeCopyAttributes(cudaGraphNode_t destination, cudaGraphNode_t source);
  cudaError_t graphConditionalHandleCreate(cudaGraphConditionalHandle* handle, cudaGraph_t graph,
                                           unsigned int defaultValue, unsigned int flags);
  cudaError_t graphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph,
                               cudaGraphInstantiateParams* params);
  cudaError_t graphExecDestroy(cudaGraphExec_t exec);
  cudaError_t graphExecGetFlags(cudaGraphExec_t exec, unsigned long long* flags);
  cudaError_t graphExecUpdate(cudaGraphExec_t exec, cudaGraph_t graph,
                              cudaGraphExecUpdateResultInfo* info);
  cudaError_t graphLaunch(cudaGraphExec_t exec, cudaStream_t stream);
  cudaError_t graphUpload(cudaGraphExec_t exec, cudaStream_t stream);
  cudaError_t graphDebugDotPrint(cudaGraph_t graph, const char* path, unsigned int flags);
  cudaError_t userObjectCreate(cudaUserObject_t* object, void* pointer, cudaHostFn_t destroy,
                               unsigned int count, unsigned int flags);
  cudaError_t userObjectChangeReferences(cudaUserObject_t object, int count);
  cudaError_t graphChangeUserObject(cudaGraph_t graph, cudaUserObject_t object, int count,
                                    unsigned int flags);

  // --- External memory and semaphores (RuntimeExternal.cpp) --------------------------------------
  cudaError_t importExternalMemory(cudaExternalMemory_t* memory,
                                   const cudaExternalMemoryHandleDesc* description);
  cudaError_t externalMemoryGetMappedBuffer(void** pointer, cudaExternalMemory_t memory,
                                            const cudaExternalMemoryBufferDesc* description);
  cudaError_t
  externalMemoryGetMappedMipmappedArray(cudaMipmappedArray_t* array, cudaExternalMemory_t memory,
                                        const cudaExternalMemoryMipmappedArrayDesc* description);
  cudaError_t destroyExternalMemory(cudaExternalMemory_t memory);
  cudaError_t importExternalSemaphore(cudaExternalSemaphore_t* semaphore,
                                      const cudaExternalSemaphoreHandleDesc* description);
  cudaError_t destroyExternalSemaphore(cudaExternalSemaphore_t semaphore);
  cudaError_t signalExternalSemaphores(const cudaExternalSemaphore_t* semaphores,
                                       const cudaExternalSemaphoreSignalParams* params,
                                       unsigned int count, cudaStream_t stream);
  cudaError_t waitExternalSemaphores(const cudaExternalSemaphore_t* semaphores,
                                     const cudaExternalSemaphoreWaitParams* params,
                                     unsigned int count, cudaStream_t stream);

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

  // --- Instrumentation (RuntimeInstrumentation.cpp) ----------------------------------------------
  /// The instrumentation framework of this runtime (created on first use; ocelot/ocelot.h
  /// forwards to it).
  instrumentation::InstrumentationRuntime& instrumentation();
  /// Before a device reset: waits (bounded) for pending profiles, then drops the device's
  /// instrumented modules and pooled buffers, which the reset destroys. After it (`afterReset`):
  /// drops what other threads' launches made meanwhile; their profiles report a disturbed launch.
  void forgetInstrumentation(int ordinal, bool afterReset = false);

private:
  static Runtime* create();
  static ThreadState& createThreadState();
  /// The calling thread's current device, made current on this thread.
  cudaError_t currentDevice(Device** device, int* ordinal = nullptr);
  cudaError_t currentDevice(ThreadState& thread, Device** device, int* ordinal);
  /// The loaded module of a registration on the current device.
  cudaError_t moduleOnCurrentDevice(const FatbinaryRegistration& registration, Device** device,
                                    LoadedModule** module);
  /// The device address and size of a registered variable on the current device.
  cudaError_t symbolStorage(const void* symbol, Device** device, void** address, size_t* bytes);
  /// The one launch path: every launch API ends here with `params.function` still unset.
  cudaError_t launch(const void* function, LaunchParams& params);
  /// Offers a launch to the instrumentation: its result when it launched (instrumented or not),
  /// nullopt when the caller should launch as usual (library kernels, unselected launches).
  std::optional<cudaError_t> launchInstrumented(const void* function, Device& device, int ordinal,
                                                const LaunchParams& params);
  /// Passes a device result through, remembering errors that leave the context unusable.
  cudaError_t deviceResult(cudaError_t error);
  /// A device named by ordinal (cudaDeviceGetAttribute & co.): cudaErrorInvalidDevice otherwise.
  cudaError_t deviceByOrdinal(int ordinal, Device** device);
  /// What the application calls a kernel (a registered host stub, a kernel handle from
  /// __cudaGetKernel/cudaGetKernel, or a library's cudaKernel_t) as the device's function:
  /// null is cudaErrorInvalidDeviceFunction, anything else unknown cudaErrorInvalidResourceHandle.
  /// Registered kernels load their module on first use and are cached per device.
  cudaError_t resolveFunction(const void* function, Device& device, int ordinal,
                              DeviceFunction* resolved);
  /// The current device and a kernel resolved on it, for the per-kernel queries.
  cudaError_t functionOnCurrentDevice(const void* function, Device** device,
                                      DeviceFunction* resolved);
  /// Generic graph node parameters with a kernel's function translated for the device (or back).
  cudaError_t toDeviceNodeParams(const cudaGraphNodeParams& params, Device& device, int ordinal,
                                 cudaGraphNodeParams* translated);
  void toApplicationNodeParams(cudaGraphNodeParams* params) const;
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
  PlatformResult platform_;      ///< written once under initialized_
  std::vector<Device*> devices_; ///< the platform's devices by ordinal, filled with it

  /// A context-corrupting error (an illegal address in a kernel...): every later call reports it
  /// until cudaDeviceReset, as in NVIDIA's runtime.
  std::atomic<cudaError_t> stickyError_{cudaSuccess};

  /// Per device: the launch limits the launch path checks (filled once with the platform).
  std::vector<LaunchLimits> launchLimits_;
  KernelHandles kernelHandles_;
  /// The PTX Ocelot emitted for each library it loaded (the driver may read it again lazily).
  std::mutex librariesMutex_;
  std::unordered_map<cudaLibrary_t, std::string> libraryTexts_;

  /// shared_ptr: the type is incomplete here and the member is created lazily.
  std::once_flag instrumentationOnce_;
  std::shared_ptr<instrumentation::InstrumentationRuntime> instrumentation_;
  /// Kept by the framework: true while no instrumentor is active (the launch path's one load).
  std::atomic<bool> instrumentationIdle_{false};

  std::mutex unsupportedMutex_;
  std::unordered_set<std::string> unsupportedReported_;
};

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
