// cudaDeviceGetAttribute for the CPU device: the limits the executor really has (which mostly
// follow a Hopper GPU, so that programs size their launches the same way), and honest answers
// where the CPU differs: one multiprocessor per worker thread, host memory that is device memory.

#include "runtime/core/ChannelFormat.h"
#include "runtime/cpu/CpuDevice.h"

namespace ocelot::runtime::cpu {

cudaError_t CpuDevice::attribute(cudaDeviceAttr attribute, int* value) {
  const int workers = static_cast<int>(runner_->workers());
  int v = 0;
  switch (attribute) {
  case cudaDevAttrMaxThreadsPerBlock:
    v = 1024;
    break;
  case cudaDevAttrMaxBlockDimX:
  case cudaDevAttrMaxBlockDimY:
    v = 1024;
    break;
  case cudaDevAttrMaxBlockDimZ:
    v = 64;
    break;
  case cudaDevAttrMaxGridDimX:
    v = 2147483647;
    break;
  case cudaDevAttrMaxGridDimY:
  case cudaDevAttrMaxGridDimZ:
    v = 65535;
    break;
  case cudaDevAttrMaxSharedMemoryPerBlock:
    v = 48 * 1024;
    break;
  case cudaDevAttrMaxSharedMemoryPerBlockOptin:
    v = 227 * 1024;
    break;
  case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
    v = 228 * 1024;
    break;
  case cudaDevAttrReservedSharedMemoryPerBlock: // occupancy counts it (maxActiveBlocks)
    v = 1024;
    break;
  case cudaDevAttrTotalConstantMemory:
    v = 65536;
    break;
  case cudaDevAttrWarpSize:
    v = 32;
    break;
  case cudaDevAttrMaxPitch:
    v = 2147483647;
    break;
  case cudaDevAttrMaxRegistersPerBlock:
  case cudaDevAttrMaxRegistersPerMultiprocessor:
    v = 65536;
    break;
  case cudaDevAttrMultiProcessorCount:
    v = workers;
    break;
  case cudaDevAttrMaxThreadsPerMultiProcessor:
    v = 2048;
    break;
  case cudaDevAttrMaxBlocksPerMultiprocessor:
    v = 32;
    break;
  case cudaDevAttrComputeCapabilityMajor:
    v = 9;
    break;
  case cudaDevAttrComputeCapabilityMinor:
    v = 0;
    break;
  case cudaDevAttrUnifiedAddressing:
  case cudaDevAttrCanMapHostMemory:
  case cudaDevAttrManagedMemory:
  case cudaDevAttrConcurrentKernels:
  case cudaDevAttrHostRegisterSupported:
  case cudaDevAttrHostRegisterReadOnlySupported:
  case cudaDevAttrCanUseHostPointerForRegisteredMem:
  case cudaDevAttrDirectManagedMemAccessFromHost:
  case cudaDevAttrConcurrentManagedAccess:
  case cudaDevAttrHostNativeAtomicSupported:
  case cudaDevAttrStreamPrioritiesSupported:
  case cudaDevAttrGlobalL1CacheSupported:
  case cudaDevAttrLocalL1CacheSupported:
  case cudaDevAttrIntegrated: // device memory is host memory
    v = 1;
    break;
  case cudaDevAttrAsyncEngineCount:
    v = 0; // copies run on the calling thread
    break;
  // Texture and surface sizes: compute capability 9.0's limits (the CUDA programming guide's
  // table), which this device, reading them from host memory, meets.
  case cudaDevAttrMaxTexture1DWidth:
  case cudaDevAttrMaxTexture2DWidth:
  case cudaDevAttrMaxSurface2DWidth:
    v = 131072;
    break;
  case cudaDevAttrMaxTexture2DHeight:
  case cudaDevAttrMaxSurface2DHeight:
    v = 65536;
    break;
  case cudaDevAttrMaxSurface1DWidth:
    v = 32768;
    break;
  case cudaDevAttrMaxTexture3DWidth:
  case cudaDevAttrMaxTexture3DHeight:
  case cudaDevAttrMaxTexture3DDepth:
  case cudaDevAttrMaxSurface3DWidth:
  case cudaDevAttrMaxSurface3DHeight:
  case cudaDevAttrMaxSurface3DDepth:
    v = 16384;
    break;
  case cudaDevAttrTextureAlignment:
  case cudaDevAttrSurfaceAlignment:
    v = 512;
    break;
  case cudaDevAttrTexturePitchAlignment:
    v = 32;
    break;
  case cudaDevAttrCooperativeLaunch:
  case cudaDevAttrMemoryPoolsSupported:
    v = 1;
    break;
  case cudaDevAttrClusterLaunch:
  case cudaDevAttrPageableMemoryAccess:
  case cudaDevAttrEccEnabled:
  case cudaDevAttrL2CacheSize:
  case cudaDevAttrGlobalMemoryBusWidth:
  case cudaDevAttrPciBusId:
  case cudaDevAttrPciDeviceId:
  case cudaDevAttrPciDomainId:
  case cudaDevAttrTccDriver:
  case cudaDevAttrIsMultiGpuBoard:
  case cudaDevAttrMultiGpuBoardGroupID:
  case cudaDevAttrComputePreemptionSupported:
    v = 0;
    break;
  case cudaDevAttrNumaId:
  case cudaDevAttrHostNumaId:
    v = -1;
    break;
  default:
    if (static_cast<int>(attribute) <= 0 || static_cast<int>(attribute) >= cudaDevAttrMax)
      return cudaErrorInvalidValue;
    v = 0; // a feature this device does not have
    break;
  }
  *value = v;
  return cudaSuccess;
}

} // namespace ocelot::runtime::cpu
