#include "runtime/core/DeviceProperties.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace ocelot::runtime {
namespace {

/// Reads attributes into the fields of one cudaDeviceProp, remembering the first failure.
class AttributeReader {
public:
  explicit AttributeReader(Device& device) : device_(device) {}

  template <class Field> void read(Field& field, int attribute) {
    int value = 0;
    cudaError_t error = device_.attribute(static_cast<cudaDeviceAttr>(attribute), &value);
    if (error != cudaSuccess) {
      // Attributes a driver does not know (it is older than the headers) read as zero, as
      // NVIDIA's runtime leaves them; anything else is a real failure.
      if (error != cudaErrorInvalidValue && error_ == cudaSuccess)
        error_ = error;
      value = 0;
    }
    field = static_cast<Field>(value);
  }

  cudaError_t error() const { return error_; }

private:
  Device& device_;
  cudaError_t error_ = cudaSuccess;
};

/// CU_DEVICE_ATTRIBUTE_UNIFIED_FUNCTION_POINTERS: cudaDeviceAttr calls number 129 "reserved".
constexpr int kUnifiedFunctionPointers = 129;

} // namespace

cudaError_t fillDeviceProperties(Device& device, cudaDeviceProp* properties) {
  cudaDeviceProp p;
  std::memset(&p, 0, sizeof p);
  std::string name = device.name();
  std::memcpy(p.name, name.data(), std::min(name.size(), sizeof p.name - 1));
  if (cudaError_t error = device.uuid(&p.uuid);
      error != cudaSuccess && error != cudaErrorNotSupported)
    return error;
  if (cudaError_t error = device.totalMemory(&p.totalGlobalMem); error != cudaSuccess)
    return error;

  AttributeReader r(device);
  r.read(p.sharedMemPerBlock, cudaDevAttrMaxSharedMemoryPerBlock);
  r.read(p.regsPerBlock, cudaDevAttrMaxRegistersPerBlock);
  r.read(p.warpSize, cudaDevAttrWarpSize);
  r.read(p.memPitch, cudaDevAttrMaxPitch);
  r.read(p.maxThreadsPerBlock, cudaDevAttrMaxThreadsPerBlock);
  r.read(p.maxThreadsDim[0], cudaDevAttrMaxBlockDimX);
  r.read(p.maxThreadsDim[1], cudaDevAttrMaxBlockDimY);
  r.read(p.maxThreadsDim[2], cudaDevAttrMaxBlockDimZ);
  r.read(p.maxGridSize[0], cudaDevAttrMaxGridDimX);
  r.read(p.maxGridSize[1], cudaDevAttrMaxGridDimY);
  r.read(p.maxGridSize[2], cudaDevAttrMaxGridDimZ);
  r.read(p.totalConstMem, cudaDevAttrTotalConstantMemory);
  r.read(p.major, cudaDevAttrComputeCapabilityMajor);
  r.read(p.minor, cudaDevAttrComputeCapabilityMinor);
  r.read(p.textureAlignment, cudaDevAttrTextureAlignment);
  r.read(p.texturePitchAlignment, cudaDevAttrTexturePitchAlignment);
  r.read(p.multiProcessorCount, cudaDevAttrMultiProcessorCount);
  r.read(p.integrated, cudaDevAttrIntegrated);
  r.read(p.canMapHostMemory, cudaDevAttrCanMapHostMemory);
  r.read(p.maxTexture1D, cudaDevAttrMaxTexture1DWidth);
  r.read(p.maxTexture1DMipmap, cudaDevAttrMaxTexture1DMipmappedWidth);
  r.read(p.maxTexture2D[0], cudaDevAttrMaxTexture2DWidth);
  r.read(p.maxTexture2D[1], cudaDevAttrMaxTexture2DHeight);
  r.read(p.maxTexture2DMipmap[0], cudaDevAttrMaxTexture2DMipmappedWidth);
  r.read(p.maxTexture2DMipmap[1], cudaDevAttrMaxTexture2DMipmappedHeight);
  r.read(p.maxTexture2DLinear[0], cudaDevAttrMaxTexture2DLinearWidth);
  r.read(p.maxTexture2DLinear[1], cudaDevAttrMaxTexture2DLinearHeight);
  r.read(p.maxTexture2DLinear[2], cudaDevAttrMaxTexture2DLinearPitch);
  r.read(p.maxTexture2DGather[0], cudaDevAttrMaxTexture2DGatherWidth);
  r.read(p.maxTexture2DGather[1], cudaDevAttrMaxTexture2DGatherHeight);
  r.read(p.maxTexture3D[0], cudaDevAttrMaxTexture3DWidth);
  r.read(p.maxTexture3D[1], cudaDevAttrMaxTexture3DHeight);
  r.read(p.maxTexture3D[2], cudaDevAttrMaxTexture3DDepth);
  r.read(p.maxTexture3DAlt[0], cudaDevAttrMaxTexture3DWidthAlt);
  r.read(p.maxTexture3DAlt[1], cudaDevAttrMaxTexture3DHeightAlt);
  r.read(p.maxTexture3DAlt[2], cudaDevAttrMaxTexture3DDepthAlt);
  r.read(p.maxTextureCubemap, cudaDevAttrMaxTextureCubemapWidth);
  r.read(p.maxTexture1DLayered[0], cudaDevAttrMaxTexture1DLayeredWidth);
  r.read(p.maxTexture1DLayered[1], cudaDevAttrMaxTexture1DLayeredLayers);
  r.read(p.maxTexture2DLayered[0], cudaDevAttrMaxTexture2DLayeredWidth);
  r.read(p.maxTexture2DLayered[1], cudaDevAttrMaxTexture2DLayeredHeight);
  r.read(p.maxTexture2DLayered[2], cudaDevAttrMaxTexture2DLayeredLayers);
  r.read(p.maxTextureCubemapLayered[0], cudaDevAttrMaxTextureCubemapLayeredWidth);
  r.read(p.maxTextureCubemapLayered[1], cudaDevAttrMaxTextureCubemapLayeredLayers);
  r.read(p.maxSurface1D, cudaDevAttrMaxSurface1DWidth);
  r.read(p.maxSurface2D[0], cudaDevAttrMaxSurface2DWidth);
  r.read(p.maxSurface2D[1], cudaDevAttrMaxSurface2DHeight);
  r.read(p.maxSurface3D[0], cudaDevAttrMaxSurface3DWidth);
  r.read(p.maxSurface3D[1], cudaDevAttrMaxSurface3DHeight);
  r.read(p.maxSurface3D[2], cudaDevAttrMaxSurface3DDepth);
  r.read(p.maxSurface1DLayered[0], cudaDevAttrMaxSurface1DLayeredWidth);
  r.read(p.maxSurface1DLayered[1], cudaDevAttrMaxSurface1DLayeredLayers);
  r.read(p.maxSurface2DLayered[0], cudaDevAttrMaxSurface2DLayeredWidth);
  r.read(p.maxSurface2DLayered[1], cudaDevAttrMaxSurface2DLayeredHeight);
  r.read(p.maxSurface2DLayered[2], cudaDevAttrMaxSurface2DLayeredLayers);
  r.read(p.maxSurfaceCubemap, cudaDevAttrMaxSurfaceCubemapWidth);
  r.read(p.maxSurfaceCubemapLayered[0], cudaDevAttrMaxSurfaceCubemapLayeredWidth);
  r.read(p.maxSurfaceCubemapLayered[1], cudaDevAttrMaxSurfaceCubemapLayeredLayers);
  r.read(p.surfaceAlignment, cudaDevAttrSurfaceAlignment);
  r.read(p.concurrentKernels, cudaDevAttrConcurrentKernels);
  r.read(p.ECCEnabled, cudaDevAttrEccEnabled);
  r.read(p.pciBusID, cudaDevAttrPciBusId);
  r.read(p.pciDeviceID, cudaDevAttrPciDeviceId);
  r.read(p.pciDomainID, cudaDevAttrPciDomainId);
  r.read(p.tccDriver, cudaDevAttrTccDriver);
  r.read(p.asyncEngineCount, cudaDevAttrAsyncEngineCount);
  r.read(p.unifiedAddressing, cudaDevAttrUnifiedAddressing);
  r.read(p.memoryBusWidth, cudaDevAttrGlobalMemoryBusWidth);
  r.read(p.l2CacheSize, cudaDevAttrL2CacheSize);
  r.read(p.persistingL2CacheMaxSize, cudaDevAttrMaxPersistingL2CacheSize);
  r.read(p.maxThreadsPerMultiProcessor, cudaDevAttrMaxThreadsPerMultiProcessor);
  r.read(p.streamPrioritiesSupported, cudaDevAttrStreamPrioritiesSupported);
  r.read(p.globalL1CacheSupported, cudaDevAttrGlobalL1CacheSupported);
  r.read(p.localL1CacheSupported, cudaDevAttrLocalL1CacheSupported);
  r.read(p.sharedMemPerMultiprocessor, cudaDevAttrMaxSharedMemoryPerMultiprocessor);
  r.read(p.regsPerMultiprocessor, cudaDevAttrMaxRegistersPerMultiprocessor);
  r.read(p.managedMemory, cudaDevAttrManagedMemory);
  r.read(p.isMultiGpuBoard, cudaDevAttrIsMultiGpuBoard);
  r.read(p.multiGpuBoardGroupID, cudaDevAttrMultiGpuBoardGroupID);
  r.read(p.hostNativeAtomicSupported, cudaDevAttrHostNativeAtomicSupported);
  r.read(p.pageableMemoryAccess, cudaDevAttrPageableMemoryAccess);
  r.read(p.concurrentManagedAccess, cudaDevAttrConcurrentManagedAccess);
  r.read(p.computePreemptionSupported, cudaDevAttrComputePreemptionSupported);
  r.read(p.canUseHostPointerForRegisteredMem, cudaDevAttrCanUseHostPointerForRegisteredMem);
  r.read(p.cooperativeLaunch, cudaDevAttrCooperativeLaunch);
  r.read(p.sharedMemPerBlockOptin, cudaDevAttrMaxSharedMemoryPerBlockOptin);
  r.read(p.pageableMemoryAccessUsesHostPageTables,
         cudaDevAttrPageableMemoryAccessUsesHostPageTables);
  r.read(p.directManagedMemAccessFromHost, cudaDevAttrDirectManagedMemAccessFromHost);
  r.read(p.maxBlocksPerMultiProcessor, cudaDevAttrMaxBlocksPerMultiprocessor);
  r.read(p.accessPolicyMaxWindowSize, cudaDevAttrMaxAccessPolicyWindowSize);
  r.read(p.reservedSharedMemPerBlock, cudaDevAttrReservedSharedMemoryPerBlock);
  r.read(p.hostRegisterSupported, cudaDevAttrHostRegisterSupported);
  r.read(p.sparseCudaArraySupported, cudaDevAttrSparseCudaArraySupported);
  r.read(p.hostRegisterReadOnlySupported, cudaDevAttrHostRegisterReadOnlySupported);
  r.read(p.timelineSemaphoreInteropSupported, cudaDevAttrTimelineSemaphoreInteropSupported);
  r.read(p.memoryPoolsSupported, cudaDevAttrMemoryPoolsSupported);
  r.read(p.gpuDirectRDMASupported, cudaDevAttrGPUDirectRDMASupported);
  r.read(p.gpuDirectRDMAFlushWritesOptions, cudaDevAttrGPUDirectRDMAFlushWritesOptions);
  r.read(p.gpuDirectRDMAWritesOrdering, cudaDevAttrGPUDirectRDMAWritesOrdering);
  r.read(p.memoryPoolSupportedHandleTypes, cudaDevAttrMemoryPoolSupportedHandleTypes);
  r.read(p.deferredMappingCudaArraySupported, cudaDevAttrDeferredMappingCudaArraySupported);
  r.read(p.ipcEventSupported, cudaDevAttrIpcEventSupport);
  r.read(p.clusterLaunch, cudaDevAttrClusterLaunch);
  r.read(p.unifiedFunctionPointers, kUnifiedFunctionPointers);
  r.read(p.deviceNumaConfig, cudaDevAttrNumaConfig);
  r.read(p.deviceNumaId, cudaDevAttrNumaId);
  r.read(p.mpsEnabled, cudaDevAttrMpsEnabled);
  r.read(p.hostNumaId, cudaDevAttrHostNumaId);
  r.read(p.gpuPciDeviceID, cudaDevAttrGpuPciDeviceId);
  r.read(p.gpuPciSubsystemID, cudaDevAttrGpuPciSubsystemId);
  r.read(p.hostNumaMultinodeIpcSupported, cudaDevAttrHostNumaMultinodeIpcSupported);
  if (r.error() != cudaSuccess)
    return r.error();
  *properties = p;
  return cudaSuccess;
}

} // namespace ocelot::runtime
