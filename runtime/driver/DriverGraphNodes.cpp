// Graph node parameters between the Runtime API and the driver. They mostly share their layout;
// copies (cudaMemcpy3DParms vs CUDA_MEMCPY3D) and the contexts the driver wants named are
// translated.
#include "runtime/driver/DriverGraphNodes.h"

#include "runtime/core/CopyRegion.h"
#include "runtime/core/GraphNodeParams.h"
#include "runtime/driver/DriverConversions.h"
#include "runtime/driver/DriverDevice.h"

#include <cstring>

namespace ocelot::runtime::driver {
namespace {

static_assert(sizeof(cudaGraphNodeParams) == sizeof(CUgraphNodeParams));

/// Copies a union member whose layout both APIs share.
template <class To, class From> void copyAs(To* to, const From& from) {
  static_assert(sizeof(To) >= sizeof(From));
  std::memcpy(static_cast<void*>(to), &from, sizeof(From));
}

/// A graph's copy node names its pointers' memory types as the kind says, as NVIDIA's runtime does:
/// the driver cannot classify a "unified" address that is not mapped yet, such as the memory of a
/// mem-alloc node the copy depends on (issue 14 bug 1: cudaGraphAddMemcpyNode1D after a mem-alloc
/// node failed with cudaErrorInvalidValue). cudaMemcpyDefault keeps unified addressing.
void applyCopyKind(cudaMemcpyKind kind, CUDA_MEMCPY3D* copy) {
  CUmemorytype source = CU_MEMORYTYPE_UNIFIED, destination = CU_MEMORYTYPE_UNIFIED;
  switch (kind) {
  case cudaMemcpyHostToHost:
    source = destination = CU_MEMORYTYPE_HOST;
    break;
  case cudaMemcpyHostToDevice:
    source = CU_MEMORYTYPE_HOST;
    destination = CU_MEMORYTYPE_DEVICE;
    break;
  case cudaMemcpyDeviceToHost:
    source = CU_MEMORYTYPE_DEVICE;
    destination = CU_MEMORYTYPE_HOST;
    break;
  case cudaMemcpyDeviceToDevice:
    source = destination = CU_MEMORYTYPE_DEVICE;
    break;
  default:
    return;
  }
  if (copy->srcMemoryType == CU_MEMORYTYPE_UNIFIED) {
    copy->srcMemoryType = source;
    if (source == CU_MEMORYTYPE_HOST) {
      copy->srcHost = reinterpret_cast<const void*>(copy->srcDevice);
      copy->srcDevice = 0;
    }
  }
  if (copy->dstMemoryType == CU_MEMORYTYPE_UNIFIED) {
    copy->dstMemoryType = destination;
    if (destination == CU_MEMORYTYPE_HOST) {
      copy->dstHost = reinterpret_cast<void*>(copy->dstDevice);
      copy->dstDevice = 0;
    }
  }
}

} // namespace

cudaError_t toDriverNodeParams(DriverDevice& device, const cudaGraphNodeParams& params,
                               CUgraphNodeParams* out) {
  std::memset(static_cast<void*>(out), 0, sizeof *out);
  out->type = static_cast<CUgraphNodeType>(params.type);
  CUcontext context = nullptr;
  if (cudaError_t error = device.primaryContext(&context); error != cudaSuccess)
    return error;
  switch (params.type) {
  case cudaGraphNodeTypeKernel:
    out->kernel.func = static_cast<CUfunction>(params.kernel.func);
    out->kernel.gridDimX = params.kernel.gridDim.x;
    out->kernel.gridDimY = params.kernel.gridDim.y;
    out->kernel.gridDimZ = params.kernel.gridDim.z;
    out->kernel.blockDimX = params.kernel.blockDim.x;
    out->kernel.blockDimY = params.kernel.blockDim.y;
    out->kernel.blockDimZ = params.kernel.blockDim.z;
    out->kernel.sharedMemBytes = params.kernel.sharedMemBytes;
    out->kernel.kernelParams = params.kernel.kernelParams;
    out->kernel.extra = params.kernel.extra;
    return cudaSuccess;
  case cudaGraphNodeTypeMemcpy: {
    CopyRegion region;
    if (cudaError_t error = copyRegionOf(params.memcpy.copyParams, device, &region);
        error != cudaSuccess)
      return error;
    out->memcpy.copyParams = toDriverCopy(region);
    applyCopyKind(params.memcpy.copyParams.kind, &out->memcpy.copyParams);
    out->memcpy.copyCtx = context;
    return cudaSuccess;
  }
  case cudaGraphNodeTypeMemset:
    out->memset.dst = reinterpret_cast<CUdeviceptr>(params.memset.dst);
    out->memset.pitch = params.memset.pitch;
    out->memset.value = params.memset.value;
    out->memset.elementSize = params.memset.elementSize;
    out->memset.width = params.memset.width;
    out->memset.height = params.memset.height;
    out->memset.ctx = context;
    return cudaSuccess;
  case cudaGraphNodeTypeConditional:
    out->conditional.handle = params.conditional.handle;
    out->conditional.type = static_cast<CUgraphConditionalNodeType>(params.conditional.type);
    out->conditional.size = params.conditional.size;
    out->conditional.phGraph_out = params.conditional.phGraph_out;
    out->conditional.ctx = context;
    return cudaSuccess;
  default:
    // Host, child graph, events, external semaphores, allocations and frees: same layout.
    copyAs(out, params);
    return cudaSuccess;
  }
}

cudaError_t toRuntimeNodeParams(DriverDevice& device, CUgraphNode node, cudaGraphNodeParams* out) {
  const DriverApi& api = device.api();
  CUgraphNodeType type{};
  if (CUresult result = invoke(api.graphNodeGetType, node, &type); result != CUDA_SUCCESS)
    return toCudaError(result);
  std::memset(static_cast<void*>(out), 0, sizeof *out);
  out->type = static_cast<cudaGraphNodeType>(type);
  CUresult result = CUDA_SUCCESS;
  switch (type) {
  case CU_GRAPH_NODE_TYPE_KERNEL: {
    CUDA_KERNEL_NODE_PARAMS kernel{};
    result = invoke(api.graphKernelNodeGetParams, node, &kernel);
    out->kernel.func = kernel.func;
    out->kernel.gridDim = dim3(kernel.gridDimX, kernel.gridDimY, kernel.gridDimZ);
    out->kernel.blockDim = dim3(kernel.blockDimX, kernel.blockDimY, kernel.blockDimZ);
    out->kernel.sharedMemBytes = kernel.sharedMemBytes;
    out->kernel.kernelParams = kernel.kernelParams;
    out->kernel.extra = kernel.extra;
    break;
  }
  case CU_GRAPH_NODE_TYPE_MEMCPY: {
    CUDA_MEMCPY3D copy{};
    result = invoke(api.graphMemcpyNodeGetParams, node, &copy);
    if (result == CUDA_SUCCESS) {
      if (cudaError_t error = copyParamsOf(toCopyRegion(copy), device, &out->memcpy.copyParams);
          error != cudaSuccess)
        return error;
      out->memcpy.copyParams.kind = cudaMemcpyDefault;
    }
    break;
  }
  case CU_GRAPH_NODE_TYPE_MEMSET: {
    CUDA_MEMSET_NODE_PARAMS memset{};
    result = invoke(api.graphMemsetNodeGetParams, node, &memset);
    out->memset.dst = reinterpret_cast<void*>(memset.dst);
    out->memset.pitch = memset.pitch;
    out->memset.value = memset.value;
    out->memset.elementSize = memset.elementSize;
    out->memset.width = memset.width;
    out->memset.height = memset.height;
    break;
  }
  case CU_GRAPH_NODE_TYPE_HOST: {
    CUDA_HOST_NODE_PARAMS host{};
    result = invoke(api.graphHostNodeGetParams, node, &host);
    out->host.fn = host.fn;
    out->host.userData = host.userData;
    break;
  }
  case CU_GRAPH_NODE_TYPE_GRAPH:
    result = invoke(api.graphChildGraphNodeGetGraph, node, &out->graph.graph);
    break;
  case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
    result = invoke(api.graphEventRecordNodeGetEvent, node, &out->eventRecord.event);
    break;
  case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
    result = invoke(api.graphEventWaitNodeGetEvent, node, &out->eventWait.event);
    break;
  case CU_GRAPH_NODE_TYPE_MEM_ALLOC: {
    CUDA_MEM_ALLOC_NODE_PARAMS alloc{};
    result = invoke(api.graphMemAllocNodeGetParams, node, &alloc);
    copyAs(&out->alloc, alloc);
    break;
  }
  case CU_GRAPH_NODE_TYPE_MEM_FREE: {
    CUdeviceptr pointer = 0;
    result = invoke(api.graphMemFreeNodeGetParams, node, &pointer);
    out->free.dptr = reinterpret_cast<void*>(pointer);
    break;
  }
  case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL: {
    CUDA_EXT_SEM_SIGNAL_NODE_PARAMS signal{};
    result = invoke(api.graphExternalSemaphoresSignalNodeGetParams, node, &signal);
    copyAs(&out->extSemSignal, signal);
    break;
  }
  case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT: {
    CUDA_EXT_SEM_WAIT_NODE_PARAMS wait{};
    result = invoke(api.graphExternalSemaphoresWaitNodeGetParams, node, &wait);
    copyAs(&out->extSemWait, wait);
    break;
  }
  case CU_GRAPH_NODE_TYPE_EMPTY:
    break;
  default:
    return cudaErrorNotSupported;
  }
  return toCudaError(result);
}

} // namespace ocelot::runtime::driver
