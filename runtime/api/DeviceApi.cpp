// The CUDA Runtime API: device management and peer access (CUDART_DEVICE, CUDART_PEER).
//
// Every function has exactly the prototype of NVIDIA's header, which this file includes, so a
// mismatch is a compile error. Implemented functions forward to ocelot::runtime::Runtime; the
// others return notImplemented(__func__), which logs the name once and returns
// cudaErrorNotSupported.

#include "runtime/api/ApiBoundary.h"
#include "runtime/core/ChannelFormat.h"

#include <cuda_runtime_api.h>

using namespace ocelot::runtime::api;
using ocelot::runtime::ChannelLayout;
using ocelot::runtime::channelLayout;
using ocelot::runtime::Device;
using ocelot::runtime::Ipc;
using ocelot::runtime::MemoryPools;
using ocelot::runtime::Scope;

namespace {

cudaMemLocation deviceLocation(int ordinal) {
  return cudaMemLocation{cudaMemLocationTypeDevice, ordinal};
}

/// The pool calls that name a device by ordinal (it need not be current) and a pool, or where a
/// pool goes (`pool` must not be null either way).
template <class Query, class Pool>
cudaError_t onDeviceMemoryPools(Pool* pool, int ordinal, Query query) {
  return call([&] {
    Scope scope(runtime());
    Device& device = scope.device(ordinal);
    if (pool == nullptr)
      return cudaErrorInvalidValue;
    return scope.result(query(Scope::area(device.memoryPools())));
  });
}

} // namespace

extern "C" {

cudaError_t CUDARTAPI cudaChooseDevice(int* device, const struct cudaDeviceProp* prop) {
  return call([&] { return runtime().chooseDevice(device, prop); });
}

cudaError_t CUDARTAPI cudaDeviceCanAccessPeer(int* canAccessPeer, int device, int peerDevice) {
  return call([&] { return runtime().deviceCanAccessPeer(canAccessPeer, device, peerDevice); });
}

cudaError_t CUDARTAPI cudaDeviceDisablePeerAccess(int peerDevice) {
  return call([&] { return runtime().deviceDisablePeerAccess(peerDevice); });
}

cudaError_t CUDARTAPI cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags) {
  return call([&] { return runtime().deviceEnablePeerAccess(peerDevice, flags); });
}

cudaError_t CUDARTAPI cudaDeviceFlushGPUDirectRDMAWrites(
    enum cudaFlushGPUDirectRDMAWritesTarget target, enum cudaFlushGPUDirectRDMAWritesScope scope) {
  return call([&] { return runtime().deviceFlushGPUDirectRDMAWrites(raw(target), raw(scope)); });
}

cudaError_t CUDARTAPI cudaDeviceGetAttribute(int* value, enum cudaDeviceAttr attr, int device) {
  return call([&] { return runtime().deviceGetAttribute(value, raw(attr), device); });
}

cudaError_t CUDARTAPI cudaDeviceGetByPCIBusId(int* device, const char* pciBusId) {
  return call([&] { return runtime().deviceGetByPCIBusId(device, pciBusId); });
}

cudaError_t CUDARTAPI cudaDeviceGetCacheConfig(enum cudaFuncCache* pCacheConfig) {
  return call([&] { return runtime().deviceGetCacheConfig(pCacheConfig); });
}

cudaError_t CUDARTAPI cudaDeviceGetDefaultMemPool(cudaMemPool_t* memPool, int device) {
  return onDeviceMemoryPools(memPool, device, [&](MemoryPools& pools) {
    return pools.defaultPool(deviceLocation(device), cudaMemAllocationTypePinned, memPool);
  });
}

cudaError_t CUDARTAPI cudaDeviceGetHostAtomicCapabilities(
    unsigned int* capabilities, const enum cudaAtomicOperation* operations, unsigned int count,
    int device) {
  return call([&] {
    return runtime().deviceGetAtomicCapabilities(capabilities, operations, count, device, -1);
  });
}

cudaError_t CUDARTAPI cudaDeviceGetLimit(size_t* pValue, enum cudaLimit limit) {
  return call([&] { return runtime().deviceGetLimit(pValue, raw(limit)); });
}

cudaError_t CUDARTAPI cudaDeviceGetMemPool(cudaMemPool_t* memPool, int device) {
  return onDeviceMemoryPools(memPool, device, [&](MemoryPools& pools) {
    return pools.currentPool(deviceLocation(device), cudaMemAllocationTypePinned, memPool);
  });
}

cudaError_t CUDARTAPI cudaDeviceGetNvSciSyncAttributes(void* /*nvSciSyncAttrList*/, int /*device*/,
                                                       int /*flags*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaDeviceGetP2PAtomicCapabilities(unsigned int* capabilities,
                                                         const enum cudaAtomicOperation* operations,
                                                         unsigned int count, int srcDevice,
                                                         int dstDevice) {
  return call([&] {
    return runtime().deviceGetAtomicCapabilities(capabilities, operations, count, srcDevice,
                                                 dstDevice);
  });
}

cudaError_t CUDARTAPI cudaDeviceGetP2PAttribute(int* value, enum cudaDeviceP2PAttr attr,
                                                int srcDevice, int dstDevice) {
  return call(
      [&] { return runtime().deviceGetP2PAttribute(value, raw(attr), srcDevice, dstDevice); });
}

cudaError_t CUDARTAPI cudaDeviceGetPCIBusId(char* pciBusId, int len, int device) {
  return call([&] { return runtime().deviceGetPCIBusId(pciBusId, len, device); });
}

cudaError_t CUDARTAPI cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig* pConfig) {
  return call([&] { return runtime().deviceGetSharedMemConfig(pConfig); });
}

cudaError_t CUDARTAPI cudaDeviceGetStreamPriorityRange(int* leastPriority, int* greatestPriority) {
  return onCurrentDevice([&](Scope& scope) {
    int least = 0, greatest = 0;
    if (cudaError_t error = scope.device().streams().priorityRange(&least, &greatest);
        error != cudaSuccess)
      return error;
    // Either result may be null.
    if (leastPriority != nullptr)
      *leastPriority = least;
    if (greatestPriority != nullptr)
      *greatestPriority = greatest;
    return cudaSuccess;
  });
}

cudaError_t CUDARTAPI cudaDeviceGetTexture1DLinearMaxWidth(
    size_t* maxWidthInElements, const struct cudaChannelFormatDesc* fmtDesc, int device) {
  return call([&] {
    Scope scope(runtime());
    Device& selected = scope.device(device);
    if (maxWidthInElements == nullptr || fmtDesc == nullptr)
      return cudaErrorInvalidValue;
    ChannelLayout layout;
    if (cudaError_t error = channelLayout(*fmtDesc, &layout); error != cudaSuccess)
      return error;
    return Scope::area(selected.textures()).linearMaxWidth(*fmtDesc, maxWidthInElements);
  });
}

cudaError_t CUDARTAPI cudaDeviceRegisterAsyncNotification(int /*device*/,
                                                          cudaAsyncCallback /*callbackFunc*/,
                                                          void* /*userData*/,
                                                          cudaAsyncCallbackHandle_t* /*callback*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaDeviceReset() {
  return call([] { return runtime().deviceReset(); });
}

cudaError_t CUDARTAPI cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig) {
  return call([&] { return runtime().deviceSetCacheConfig(raw(cacheConfig)); });
}

cudaError_t CUDARTAPI cudaDeviceSetLimit(enum cudaLimit limit, size_t value) {
  return call([&] { return runtime().deviceSetLimit(raw(limit), value); });
}

cudaError_t CUDARTAPI cudaDeviceSetMemPool(int device, cudaMemPool_t memPool) {
  return onDeviceMemoryPools(memPool, device, [&](MemoryPools& pools) {
    return pools.setCurrentPool(deviceLocation(device), cudaMemAllocationTypePinned,
                                Scope::found(pools.find(memPool), cudaErrorInvalidValue));
  });
}

cudaError_t CUDARTAPI cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config) {
  return call([&] { return runtime().deviceSetSharedMemConfig(raw(config)); });
}

cudaError_t CUDARTAPI cudaDeviceSynchronize() {
  return call([] { return runtime().deviceSynchronize(); });
}

cudaError_t CUDARTAPI
cudaDeviceUnregisterAsyncNotification(int /*device*/, cudaAsyncCallbackHandle_t /*callback*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGetDevice(int* device) {
  return call([&] { return runtime().getDevice(device); });
}

cudaError_t CUDARTAPI cudaGetDeviceCount(int* count) {
  return call([&] { return runtime().getDeviceCount(count); });
}

cudaError_t CUDARTAPI cudaGetDeviceFlags(unsigned int* flags) {
  return call([&] { return runtime().getDeviceFlags(flags); });
}

cudaError_t CUDARTAPI cudaGetDeviceProperties(struct cudaDeviceProp* prop, int device) {
  return call([&] { return runtime().getDeviceProperties(prop, device); });
}

cudaError_t CUDARTAPI cudaInitDevice(int device, unsigned int deviceFlags, unsigned int flags) {
  return call([&] { return runtime().initDevice(device, deviceFlags, flags); });
}

cudaError_t CUDARTAPI cudaIpcCloseMemHandle(void* devPtr) {
  return onCurrentDevice([&](Scope& scope) {
    return devPtr == nullptr ? cudaErrorInvalidValue : scope.ipc().closeMemoryHandle(devPtr);
  });
}

cudaError_t CUDARTAPI cudaIpcGetEventHandle(cudaIpcEventHandle_t* handle, cudaEvent_t event) {
  return onCurrentDevice([&](Scope& scope) {
    if (handle == nullptr)
      return cudaErrorInvalidValue;
    if (event == nullptr)
      return cudaErrorInvalidResourceHandle;
    Ipc& ipc = scope.ipc();
    return ipc.eventHandle(scope.event(event), handle);
  });
}

cudaError_t CUDARTAPI cudaIpcGetMemHandle(cudaIpcMemHandle_t* handle, void* devPtr) {
  return onCurrentDevice([&](Scope& scope) {
    if (handle == nullptr || devPtr == nullptr)
      return cudaErrorInvalidValue;
    return scope.ipc().memoryHandle(devPtr, handle);
  });
}

cudaError_t CUDARTAPI cudaIpcOpenEventHandle(cudaEvent_t* event, cudaIpcEventHandle_t handle) {
  return onCurrentDevice([&](Scope& scope) {
    return event == nullptr ? cudaErrorInvalidValue : scope.ipc().openEventHandle(handle, event);
  });
}

cudaError_t CUDARTAPI cudaIpcOpenMemHandle(void** devPtr, cudaIpcMemHandle_t handle,
                                           unsigned int flags) {
  return onCurrentDevice([&](Scope& scope) {
    if (devPtr == nullptr ||
        (flags & ~static_cast<unsigned int>(cudaIpcMemLazyEnablePeerAccess)) != 0)
      return cudaErrorInvalidValue;
    return scope.ipc().openMemoryHandle(handle, flags, devPtr);
  });
}

cudaError_t CUDARTAPI cudaSetDevice(int device) {
  return call([&] { return runtime().setDevice(device); });
}

cudaError_t CUDARTAPI cudaSetDeviceFlags(unsigned int flags) {
  return call([&] { return runtime().setDeviceFlags(flags); });
}

cudaError_t CUDARTAPI cudaSetValidDevices(int* device_arr, int len) {
  return call([&] { return runtime().setValidDevices(device_arr, len); });
}

} // extern "C"
