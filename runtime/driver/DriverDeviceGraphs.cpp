// DriverDevice: CUDA graphs. cudaGraph_t, cudaGraphNode_t, cudaGraphExec_t and cudaUserObject_t are
// the driver's handles. Node parameters mostly share their layout between the two APIs; copies
// (cudaMemcpy3DParms vs CUDA_MEMCPY3D) and the contexts the driver wants named are translated.
#include "runtime/core/CopyRegion.h"
#include "runtime/core/GraphNodeParams.h"
#include "runtime/driver/DriverConversions.h"
#include "runtime/driver/DriverDevice.h"

#include <cstring>

namespace ocelot::runtime::driver {
namespace {

static_assert(sizeof(cudaGraphNodeParams) == sizeof(CUgraphNodeParams));
static_assert(sizeof(cudaGraphInstantiateParams) == sizeof(CUDA_GRAPH_INSTANTIATE_PARAMS));
static_assert(sizeof(cudaGraphExecUpdateResultInfo) == sizeof(CUgraphExecUpdateResultInfo));

/// Copies a union member whose layout both APIs share.
template <class To, class From> void copyAs(To* to, const From& from) {
  static_assert(sizeof(To) >= sizeof(From));
  std::memcpy(static_cast<void*>(to), &from, sizeof(From));
}

} // namespace

cudaError_t DriverDevice::toDriverNodeParams(const cudaGraphNodeParams& params,
                                             CUgraphNodeParams* out) {
  std::memset(static_cast<void*>(out), 0, sizeof *out);
  out->type = static_cast<CUgraphNodeType>(params.type);
  CUcontext context = nullptr;
  if (cudaError_t error = primaryContext(&context); error != cudaSuccess)
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
    if (cudaError_t error = copyRegionOf(params.memcpy.copyParams, *this, &region);
        error != cudaSuccess)
      return error;
    out->memcpy.copyParams = toDriverCopy(region);
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

cudaError_t DriverDevice::toRuntimeNodeParams(CUgraphNode node, cudaGraphNodeParams* out) {
  CUgraphNodeType type{};
  if (CUresult result = invoke(api_.graphNodeGetType, node, &type); result != CUDA_SUCCESS)
    return toCudaError(result);
  std::memset(static_cast<void*>(out), 0, sizeof *out);
  out->type = static_cast<cudaGraphNodeType>(type);
  CUresult result = CUDA_SUCCESS;
  switch (type) {
  case CU_GRAPH_NODE_TYPE_KERNEL: {
    CUDA_KERNEL_NODE_PARAMS kernel{};
    result = invoke(api_.graphKernelNodeGetParams, node, &kernel);
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
    result = invoke(api_.graphMemcpyNodeGetParams, node, &copy);
    if (result == CUDA_SUCCESS) {
      if (cudaError_t error = copyParamsOf(toCopyRegion(copy), *this, &out->memcpy.copyParams);
          error != cudaSuccess)
        return error;
      out->memcpy.copyParams.kind = cudaMemcpyDefault;
    }
    break;
  }
  case CU_GRAPH_NODE_TYPE_MEMSET: {
    CUDA_MEMSET_NODE_PARAMS memset{};
    result = invoke(api_.graphMemsetNodeGetParams, node, &memset);
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
    result = invoke(api_.graphHostNodeGetParams, node, &host);
    out->host.fn = host.fn;
    out->host.userData = host.userData;
    break;
  }
  case CU_GRAPH_NODE_TYPE_GRAPH:
    result = invoke(api_.graphChildGraphNodeGetGraph, node, &out->graph.graph);
    break;
  case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
    result = invoke(api_.graphEventRecordNodeGetEvent, node, &out->eventRecord.event);
    break;
  case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
    result = invoke(api_.graphEventWaitNodeGetEvent, node, &out->eventWait.event);
    break;
  case CU_GRAPH_NODE_TYPE_MEM_ALLOC: {
    CUDA_MEM_ALLOC_NODE_PARAMS alloc{};
    result = invoke(api_.graphMemAllocNodeGetParams, node, &alloc);
    copyAs(&out->alloc, alloc);
    break;
  }
  case CU_GRAPH_NODE_TYPE_MEM_FREE: {
    CUdeviceptr pointer = 0;
    result = invoke(api_.graphMemFreeNodeGetParams, node, &pointer);
    out->free.dptr = reinterpret_cast<void*>(pointer);
    break;
  }
  case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL: {
    CUDA_EXT_SEM_SIGNAL_NODE_PARAMS signal{};
    result = invoke(api_.graphExternalSemaphoresSignalNodeGetParams, node, &signal);
    copyAs(&out->extSemSignal, signal);
    break;
  }
  case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT: {
    CUDA_EXT_SEM_WAIT_NODE_PARAMS wait{};
    result = invoke(api_.graphExternalSemaphoresWaitNodeGetParams, node, &wait);
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

cudaError_t DriverDevice::createGraph(cudaGraph_t* graph, unsigned int flags) {
  return toCudaError(invoke(api_.graphCreate, graph, flags));
}

cudaError_t DriverDevice::destroyGraph(cudaGraph_t graph) {
  return toCudaError(invoke(api_.graphDestroy, graph));
}

cudaError_t DriverDevice::cloneGraph(cudaGraph_t* clone, cudaGraph_t graph) {
  return toCudaError(invoke(api_.graphClone, clone, graph));
}

cudaError_t DriverDevice::addGraphNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                       const cudaGraphNode_t* dependencies,
                                       const cudaGraphEdgeData* edges, size_t count,
                                       cudaGraphNodeParams* params) {
  CUgraphNodeParams driverParams;
  if (cudaError_t error = toDriverNodeParams(*params, &driverParams); error != cudaSuccess)
    return error;
  CUresult result = invoke(api_.graphAddNode, node, graph, dependencies,
                           reinterpret_cast<const CUgraphEdgeData*>(edges), count, &driverParams);
  // Conditional nodes hand back the bodies the driver created for them.
  if (result == CUDA_SUCCESS && params->type == cudaGraphNodeTypeConditional)
    params->conditional.phGraph_out = driverParams.conditional.phGraph_out;
  return toCudaError(result);
}

cudaError_t DriverDevice::graphNodeParams(cudaGraphNode_t node, cudaGraphNodeParams* params) {
  return toRuntimeNodeParams(node, params);
}

cudaError_t DriverDevice::setGraphNodeParams(cudaGraphNode_t node, cudaGraphNodeParams* params) {
  CUgraphNodeParams driverParams;
  if (cudaError_t error = toDriverNodeParams(*params, &driverParams); error != cudaSuccess)
    return error;
  return toCudaError(invoke(api_.graphNodeSetParams, node, &driverParams));
}

cudaError_t DriverDevice::setExecNodeParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                            cudaGraphNodeParams* params) {
  CUgraphNodeParams driverParams;
  if (cudaError_t error = toDriverNodeParams(*params, &driverParams); error != cudaSuccess)
    return error;
  return toCudaError(invoke(api_.graphExecNodeSetParams, exec, node, &driverParams));
}

cudaError_t DriverDevice::graphNodeType(cudaGraphNode_t node, cudaGraphNodeType* type) {
  CUgraphNodeType driverType{};
  CUresult result = invoke(api_.graphNodeGetType, node, &driverType);
  if (result == CUDA_SUCCESS)
    *type = static_cast<cudaGraphNodeType>(driverType);
  return toCudaError(result);
}

cudaError_t DriverDevice::graphNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, size_t* count,
                                     bool rootsOnly) {
  return toCudaError(rootsOnly ? invoke(api_.graphGetRootNodes, graph, nodes, count)
                               : invoke(api_.graphGetNodes, graph, nodes, count));
}

cudaError_t DriverDevice::graphEdges(cudaGraph_t graph, cudaGraphNode_t* from, cudaGraphNode_t* to,
                                     cudaGraphEdgeData* edges, size_t* count) {
  return toCudaError(invoke(api_.graphGetEdges, graph, from, to,
                            reinterpret_cast<CUgraphEdgeData*>(edges), count));
}

cudaError_t DriverDevice::graphNodeNeighbours(cudaGraphNode_t node, cudaGraphNode_t* nodes,
                                              cudaGraphEdgeData* edges, size_t* count,
                                              bool dependents) {
  auto* driverEdges = reinterpret_cast<CUgraphEdgeData*>(edges);
  return toCudaError(dependents
                         ? invoke(api_.graphNodeGetDependentNodes, node, nodes, driverEdges, count)
                         : invoke(api_.graphNodeGetDependencies, node, nodes, driverEdges, count));
}

cudaError_t DriverDevice::changeGraphDependencies(cudaGraph_t graph, const cudaGraphNode_t* from,
                                                  const cudaGraphNode_t* to,
                                                  const cudaGraphEdgeData* edges, size_t count,
                                                  bool add) {
  const auto* driverEdges = reinterpret_cast<const CUgraphEdgeData*>(edges);
  return toCudaError(
      add ? invoke(api_.graphAddDependencies, graph, from, to, driverEdges, count)
          : invoke(api_.graphRemoveDependencies, graph, from, to, driverEdges, count));
}

cudaError_t DriverDevice::destroyGraphNode(cudaGraphNode_t node) {
  return toCudaError(invoke(api_.graphDestroyNode, node));
}

cudaError_t DriverDevice::findInClone(cudaGraphNode_t* clonedNode, cudaGraphNode_t node,
                                      cudaGraph_t clone) {
  return toCudaError(invoke(api_.graphNodeFindInClone, clonedNode, node, clone));
}

cudaError_t DriverDevice::setGraphNodeEnabled(cudaGraphExec_t exec, cudaGraphNode_t node,
                                              unsigned int enabled) {
  return toCudaError(invoke(api_.graphNodeSetEnabled, exec, node, enabled));
}

cudaError_t DriverDevice::graphNodeEnabled(cudaGraphExec_t exec, cudaGraphNode_t node,
                                           unsigned int* enabled) {
  return toCudaError(invoke(api_.graphNodeGetEnabled, exec, node, enabled));
}

cudaError_t DriverDevice::kernelNodeAttribute(cudaGraphNode_t node, cudaLaunchAttributeID id,
                                              cudaLaunchAttributeValue* value) {
  return toCudaError(invoke(api_.graphKernelNodeGetAttribute, node,
                            static_cast<CUkernelNodeAttrID>(id),
                            reinterpret_cast<CUkernelNodeAttrValue*>(value)));
}

cudaError_t DriverDevice::setKernelNodeAttribute(cudaGraphNode_t node, cudaLaunchAttributeID id,
                                                 const cudaLaunchAttributeValue* value) {
  return toCudaError(invoke(api_.graphKernelNodeSetAttribute, node,
                            static_cast<CUkernelNodeAttrID>(id),
                            reinterpret_cast<const CUkernelNodeAttrValue*>(value)));
}

cudaError_t DriverDevice::copyKernelNodeAttributes(cudaGraphNode_t destination,
                                                   cudaGraphNode_t source) {
  return toCudaError(invoke(api_.graphKernelNodeCopyAttributes, destination, source));
}

cudaError_t DriverDevice::createConditionalHandle(cudaGraphConditionalHandle* handle,
                                                  cudaGraph_t graph, unsigned int defaultValue,
                                                  unsigned int flags) {
  CUcontext context = nullptr;
  if (cudaError_t error = primaryContext(&context); error != cudaSuccess)
    return error;
  // The two APIs spell the 64-bit handle with different integer types.
  CUgraphConditionalHandle created = 0;
  CUresult result =
      invoke(api_.graphConditionalHandleCreate, &created, graph, context, defaultValue, flags);
  if (result == CUDA_SUCCESS)
    *handle = created;
  return toCudaError(result);
}

cudaError_t DriverDevice::instantiateGraph(cudaGraphExec_t* exec, cudaGraph_t graph,
                                           cudaGraphInstantiateParams* params) {
  if (params == nullptr)
    return toCudaError(invoke(api_.graphInstantiateWithFlags, exec, graph, 0ULL));
  return toCudaError(invoke(api_.graphInstantiateWithParams, exec, graph,
                            reinterpret_cast<CUDA_GRAPH_INSTANTIATE_PARAMS*>(params)));
}

cudaError_t DriverDevice::destroyGraphExec(cudaGraphExec_t exec) {
  return toCudaError(invoke(api_.graphExecDestroy, exec));
}

cudaError_t DriverDevice::graphExecFlags(cudaGraphExec_t exec, unsigned long long* flags) {
  cuuint64_t driverFlags = 0;
  CUresult result = invoke(api_.graphExecGetFlags, exec, &driverFlags);
  if (result == CUDA_SUCCESS)
    *flags = driverFlags;
  return toCudaError(result);
}

cudaError_t DriverDevice::updateGraphExec(cudaGraphExec_t exec, cudaGraph_t graph,
                                          cudaGraphExecUpdateResultInfo* info) {
  return toCudaError(invoke(api_.graphExecUpdate, exec, graph,
                            reinterpret_cast<CUgraphExecUpdateResultInfo*>(info)));
}

cudaError_t DriverDevice::launchGraph(cudaGraphExec_t exec, Stream& queue) {
  const cudaStream_t stream = queue.handle();
  return toCudaError(invoke(api_.graphLaunch, exec, stream));
}

cudaError_t DriverDevice::uploadGraph(cudaGraphExec_t exec, Stream& queue) {
  const cudaStream_t stream = queue.handle();
  return toCudaError(invoke(api_.graphUpload, exec, stream));
}

cudaError_t DriverDevice::printGraph(cudaGraph_t graph, const char* path, unsigned int flags) {
  return toCudaError(invoke(api_.graphDebugDotPrint, graph, path, flags));
}

cudaError_t DriverDevice::createUserObject(cudaUserObject_t* object, void* pointer,
                                           cudaHostFn_t destroy, unsigned int count,
                                           unsigned int flags) {
  return toCudaError(invoke(api_.userObjectCreate, object, pointer, destroy, count, flags));
}

cudaError_t DriverDevice::changeUserObjectReferences(cudaUserObject_t object, int count) {
  return toCudaError(
      count >= 0 ? invoke(api_.userObjectRetain, object, static_cast<unsigned int>(count))
                 : invoke(api_.userObjectRelease, object, static_cast<unsigned int>(-count)));
}

cudaError_t DriverDevice::changeGraphUserObject(cudaGraph_t graph, cudaUserObject_t object,
                                                int count, unsigned int flags) {
  return toCudaError(count >= 0 ? invoke(api_.graphRetainUserObject, graph, object,
                                         static_cast<unsigned int>(count), flags)
                                : invoke(api_.graphReleaseUserObject, graph, object,
                                         static_cast<unsigned int>(-count)));
}

} // namespace ocelot::runtime::driver
