// The CUDA Runtime API: graph management (CUDART_GRAPH).
//
// Every function has exactly the prototype of NVIDIA's header, which this file includes, so a
// mismatch is a compile error. Implemented functions forward to ocelot::runtime::Runtime; the
// others return notImplemented(__func__), which logs the name once and returns
// cudaErrorNotSupported.

#include "runtime/api/ApiBoundary.h"

#include <cuda_runtime_api.h>

using namespace ocelot::runtime::api;

extern "C" {

cudaError_t CUDARTAPI cudaDeviceGetGraphMemAttribute(int /*device*/,
                                                     enum cudaGraphMemAttributeType /*attr*/,
                                                     void* /*value*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaDeviceGraphMemTrim(int /*device*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaDeviceSetGraphMemAttribute(int /*device*/,
                                                     enum cudaGraphMemAttributeType /*attr*/,
                                                     void* /*value*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphAddChildGraphNode(cudaGraphNode_t* /*pGraphNode*/,
                                                 cudaGraph_t /*graph*/,
                                                 const cudaGraphNode_t* /*pDependencies*/,
                                                 size_t /*numDependencies*/,
                                                 cudaGraph_t /*childGraph*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphAddDependencies(cudaGraph_t /*graph*/,
                                               const cudaGraphNode_t* /*from*/,
                                               const cudaGraphNode_t* /*to*/,
                                               const cudaGraphEdgeData* /*edgeData*/,
                                               size_t /*numDependencies*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphAddEmptyNode(cudaGraphNode_t* /*pGraphNode*/, cudaGraph_t /*graph*/,
                                            const cudaGraphNode_t* /*pDependencies*/,
                                            size_t /*numDependencies*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphAddEventRecordNode(cudaGraphNode_t* /*pGraphNode*/,
                                                  cudaGraph_t /*graph*/,
                                                  const cudaGraphNode_t* /*pDependencies*/,
                                                  size_t /*numDependencies*/,
                                                  cudaEvent_t /*event*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphAddEventWaitNode(cudaGraphNode_t* /*pGraphNode*/,
                                                cudaGraph_t /*graph*/,
                                                const cudaGraphNode_t* /*pDependencies*/,
                                                size_t /*numDependencies*/, cudaEvent_t /*event*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphAddExternalSemaphoresSignalNode(
    cudaGraphNode_t* /*pGraphNode*/, cudaGraph_t /*graph*/,
    const cudaGraphNode_t* /*pDependencies*/, size_t /*numDependencies*/,
    const struct cudaExternalSemaphoreSignalNodeParams* /*nodeParams*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphAddExternalSemaphoresWaitNode(
    cudaGraphNode_t* /*pGraphNode*/, cudaGraph_t /*graph*/,
    const cudaGraphNode_t* /*pDependencies*/, size_t /*numDependencies*/,
    const struct cudaExternalSemaphoreWaitNodeParams* /*nodeParams*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphAddHostNode(cudaGraphNode_t* /*pGraphNode*/, cudaGraph_t /*graph*/,
                                           const cudaGraphNode_t* /*pDependencies*/,
                                           size_t /*numDependencies*/,
                                           const struct cudaHostNodeParams* /*pNodeParams*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphAddKernelNode(cudaGraphNode_t* /*pGraphNode*/, cudaGraph_t /*graph*/,
                                             const cudaGraphNode_t* /*pDependencies*/,
                                             size_t /*numDependencies*/,
                                             const struct cudaKernelNodeParams* /*pNodeParams*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphAddMemAllocNode(cudaGraphNode_t* /*pGraphNode*/,
                                               cudaGraph_t /*graph*/,
                                               const cudaGraphNode_t* /*pDependencies*/,
                                               size_t /*numDependencies*/,
                                               struct cudaMemAllocNodeParams* /*nodeParams*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphAddMemFreeNode(cudaGraphNode_t* /*pGraphNode*/,
                                              cudaGraph_t /*graph*/,
                                              const cudaGraphNode_t* /*pDependencies*/,
                                              size_t /*numDependencies*/, void* /*dptr*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphAddMemcpyNode(cudaGraphNode_t* /*pGraphNode*/, cudaGraph_t /*graph*/,
                                             const cudaGraphNode_t* /*pDependencies*/,
                                             size_t /*numDependencies*/,
                                             const struct cudaMemcpy3DParms* /*pCopyParams*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphAddMemcpyNode1D(cudaGraphNode_t* /*pGraphNode*/,
                                               cudaGraph_t /*graph*/,
                                               const cudaGraphNode_t* /*pDependencies*/,
                                               size_t /*numDependencies*/, void* /*dst*/,
                                               const void* /*src*/, size_t /*count*/,
                                               enum cudaMemcpyKind /*kind*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphAddMemcpyNodeFromSymbol(
    cudaGraphNode_t* /*pGraphNode*/, cudaGraph_t /*graph*/,
    const cudaGraphNode_t* /*pDependencies*/, size_t /*numDependencies*/, void* /*dst*/,
    const void* /*symbol*/, size_t /*count*/, size_t /*offset*/, enum cudaMemcpyKind /*kind*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphAddMemcpyNodeToSymbol(
    cudaGraphNode_t* /*pGraphNode*/, cudaGraph_t /*graph*/,
    const cudaGraphNode_t* /*pDependencies*/, size_t /*numDependencies*/, const void* /*symbol*/,
    const void* /*src*/, size_t /*count*/, size_t /*offset*/, enum cudaMemcpyKind /*kind*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphAddMemsetNode(cudaGraphNode_t* /*pGraphNode*/, cudaGraph_t /*graph*/,
                                             const cudaGraphNode_t* /*pDependencies*/,
                                             size_t /*numDependencies*/,
                                             const struct cudaMemsetParams* /*pMemsetParams*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphAddNode(cudaGraphNode_t* /*pGraphNode*/, cudaGraph_t /*graph*/,
                                       const cudaGraphNode_t* /*pDependencies*/,
                                       const cudaGraphEdgeData* /*dependencyData*/,
                                       size_t /*numDependencies*/,
                                       struct cudaGraphNodeParams* /*nodeParams*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t /*node*/,
                                                      cudaGraph_t* /*pGraph*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphClone(cudaGraph_t* /*pGraphClone*/, cudaGraph_t /*originalGraph*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle* /*pHandle_out*/,
                                                       cudaGraph_t /*graph*/,
                                                       unsigned int /*defaultLaunchValue*/,
                                                       unsigned int /*flags*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphCreate(cudaGraph_t* /*pGraph*/, unsigned int /*flags*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphDebugDotPrint(cudaGraph_t /*graph*/, const char* /*path*/,
                                             unsigned int /*flags*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphDestroy(cudaGraph_t /*graph*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphDestroyNode(cudaGraphNode_t /*node*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t /*node*/,
                                                       cudaEvent_t* /*event_out*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphEventRecordNodeSetEvent(cudaGraphNode_t /*node*/,
                                                       cudaEvent_t /*event*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t /*node*/,
                                                     cudaEvent_t* /*event_out*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphEventWaitNodeSetEvent(cudaGraphNode_t /*node*/,
                                                     cudaEvent_t /*event*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphExecChildGraphNodeSetParams(cudaGraphExec_t /*hGraphExec*/,
                                                           cudaGraphNode_t /*node*/,
                                                           cudaGraph_t /*childGraph*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphExecDestroy(cudaGraphExec_t /*graphExec*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphExecEventRecordNodeSetEvent(cudaGraphExec_t /*hGraphExec*/,
                                                           cudaGraphNode_t /*hNode*/,
                                                           cudaEvent_t /*event*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphExecEventWaitNodeSetEvent(cudaGraphExec_t /*hGraphExec*/,
                                                         cudaGraphNode_t /*hNode*/,
                                                         cudaEvent_t /*event*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphExecExternalSemaphoresSignalNodeSetParams(
    cudaGraphExec_t /*hGraphExec*/, cudaGraphNode_t /*hNode*/,
    const struct cudaExternalSemaphoreSignalNodeParams* /*nodeParams*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphExecExternalSemaphoresWaitNodeSetParams(
    cudaGraphExec_t /*hGraphExec*/, cudaGraphNode_t /*hNode*/,
    const struct cudaExternalSemaphoreWaitNodeParams* /*nodeParams*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphExecGetFlags(cudaGraphExec_t /*graphExec*/,
                                            unsigned long long* /*flags*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI
cudaGraphExecHostNodeSetParams(cudaGraphExec_t /*hGraphExec*/, cudaGraphNode_t /*node*/,
                               const struct cudaHostNodeParams* /*pNodeParams*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI
cudaGraphExecKernelNodeSetParams(cudaGraphExec_t /*hGraphExec*/, cudaGraphNode_t /*node*/,
                                 const struct cudaKernelNodeParams* /*pNodeParams*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI
cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t /*hGraphExec*/, cudaGraphNode_t /*node*/,
                                 const struct cudaMemcpy3DParms* /*pNodeParams*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t /*hGraphExec*/,
                                                         cudaGraphNode_t /*node*/, void* /*dst*/,
                                                         const void* /*src*/, size_t /*count*/,
                                                         enum cudaMemcpyKind /*kind*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphExecMemcpyNodeSetParamsFromSymbol(
    cudaGraphExec_t /*hGraphExec*/, cudaGraphNode_t /*node*/, void* /*dst*/, const void* /*symbol*/,
    size_t /*count*/, size_t /*offset*/, enum cudaMemcpyKind /*kind*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphExecMemcpyNodeSetParamsToSymbol(
    cudaGraphExec_t /*hGraphExec*/, cudaGraphNode_t /*node*/, const void* /*symbol*/,
    const void* /*src*/, size_t /*count*/, size_t /*offset*/, enum cudaMemcpyKind /*kind*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI
cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t /*hGraphExec*/, cudaGraphNode_t /*node*/,
                                 const struct cudaMemsetParams* /*pNodeParams*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphExecNodeSetParams(cudaGraphExec_t /*graphExec*/,
                                                 cudaGraphNode_t /*node*/,
                                                 struct cudaGraphNodeParams* /*nodeParams*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphExecUpdate(cudaGraphExec_t /*hGraphExec*/, cudaGraph_t /*hGraph*/,
                                          cudaGraphExecUpdateResultInfo* /*resultInfo*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphExternalSemaphoresSignalNodeGetParams(
    cudaGraphNode_t /*hNode*/, struct cudaExternalSemaphoreSignalNodeParams* /*params_out*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphExternalSemaphoresSignalNodeSetParams(
    cudaGraphNode_t /*hNode*/, const struct cudaExternalSemaphoreSignalNodeParams* /*nodeParams*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphExternalSemaphoresWaitNodeGetParams(
    cudaGraphNode_t /*hNode*/, struct cudaExternalSemaphoreWaitNodeParams* /*params_out*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphExternalSemaphoresWaitNodeSetParams(
    cudaGraphNode_t /*hNode*/, const struct cudaExternalSemaphoreWaitNodeParams* /*nodeParams*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphGetEdges(cudaGraph_t /*graph*/, cudaGraphNode_t* /*from*/,
                                        cudaGraphNode_t* /*to*/, cudaGraphEdgeData* /*edgeData*/,
                                        size_t* /*numEdges*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphGetNodes(cudaGraph_t /*graph*/, cudaGraphNode_t* /*nodes*/,
                                        size_t* /*numNodes*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphGetRootNodes(cudaGraph_t /*graph*/, cudaGraphNode_t* /*pRootNodes*/,
                                            size_t* /*pNumRootNodes*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphHostNodeGetParams(cudaGraphNode_t /*node*/,
                                                 struct cudaHostNodeParams* /*pNodeParams*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphHostNodeSetParams(cudaGraphNode_t /*node*/,
                                                 const struct cudaHostNodeParams* /*pNodeParams*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphInstantiate(cudaGraphExec_t* /*pGraphExec*/, cudaGraph_t /*graph*/,
                                           unsigned long long /*flags*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphInstantiateWithFlags(cudaGraphExec_t* /*pGraphExec*/,
                                                    cudaGraph_t /*graph*/,
                                                    unsigned long long /*flags*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI
cudaGraphInstantiateWithParams(cudaGraphExec_t* /*pGraphExec*/, cudaGraph_t /*graph*/,
                               cudaGraphInstantiateParams* /*instantiateParams*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphKernelNodeCopyAttributes(cudaGraphNode_t /*hDst*/,
                                                        cudaGraphNode_t /*hSrc*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphKernelNodeGetAttribute(cudaGraphNode_t /*hNode*/,
                                                      cudaLaunchAttributeID /*attr*/,
                                                      cudaLaunchAttributeValue* /*value_out*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphKernelNodeGetParams(cudaGraphNode_t /*node*/,
                                                   struct cudaKernelNodeParams* /*pNodeParams*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphKernelNodeSetAttribute(cudaGraphNode_t /*hNode*/,
                                                      cudaLaunchAttributeID /*attr*/,
                                                      const cudaLaunchAttributeValue* /*value*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphKernelNodeSetParams(
    cudaGraphNode_t /*node*/, const struct cudaKernelNodeParams* /*pNodeParams*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphLaunch(cudaGraphExec_t /*graphExec*/, cudaStream_t /*stream*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphMemAllocNodeGetParams(
    cudaGraphNode_t /*node*/, struct cudaMemAllocNodeParams* /*params_out*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphMemFreeNodeGetParams(cudaGraphNode_t /*node*/, void* /*dptr_out*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphMemcpyNodeGetParams(cudaGraphNode_t /*node*/,
                                                   struct cudaMemcpy3DParms* /*pNodeParams*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphMemcpyNodeSetParams(
    cudaGraphNode_t /*node*/, const struct cudaMemcpy3DParms* /*pNodeParams*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t /*node*/, void* /*dst*/,
                                                     const void* /*src*/, size_t /*count*/,
                                                     enum cudaMemcpyKind /*kind*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphMemcpyNodeSetParamsFromSymbol(cudaGraphNode_t /*node*/,
                                                             void* /*dst*/, const void* /*symbol*/,
                                                             size_t /*count*/, size_t /*offset*/,
                                                             enum cudaMemcpyKind /*kind*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphMemcpyNodeSetParamsToSymbol(cudaGraphNode_t /*node*/,
                                                           const void* /*symbol*/,
                                                           const void* /*src*/, size_t /*count*/,
                                                           size_t /*offset*/,
                                                           enum cudaMemcpyKind /*kind*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphMemsetNodeGetParams(cudaGraphNode_t /*node*/,
                                                   struct cudaMemsetParams* /*pNodeParams*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphMemsetNodeSetParams(cudaGraphNode_t /*node*/,
                                                   const struct cudaMemsetParams* /*pNodeParams*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphNodeFindInClone(cudaGraphNode_t* /*pNode*/,
                                               cudaGraphNode_t /*originalNode*/,
                                               cudaGraph_t /*clonedGraph*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphNodeGetDependencies(cudaGraphNode_t /*node*/,
                                                   cudaGraphNode_t* /*pDependencies*/,
                                                   cudaGraphEdgeData* /*edgeData*/,
                                                   size_t* /*pNumDependencies*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphNodeGetDependentNodes(cudaGraphNode_t /*node*/,
                                                     cudaGraphNode_t* /*pDependentNodes*/,
                                                     cudaGraphEdgeData* /*edgeData*/,
                                                     size_t* /*pNumDependentNodes*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphNodeGetEnabled(cudaGraphExec_t /*hGraphExec*/,
                                              cudaGraphNode_t /*hNode*/,
                                              unsigned int* /*isEnabled*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphNodeGetType(cudaGraphNode_t /*node*/,
                                           enum cudaGraphNodeType* /*pType*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphNodeSetEnabled(cudaGraphExec_t /*hGraphExec*/,
                                              cudaGraphNode_t /*hNode*/,
                                              unsigned int /*isEnabled*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphNodeSetParams(cudaGraphNode_t /*node*/,
                                             struct cudaGraphNodeParams* /*nodeParams*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphReleaseUserObject(cudaGraph_t /*graph*/, cudaUserObject_t /*object*/,
                                                 unsigned int /*count*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphRemoveDependencies(cudaGraph_t /*graph*/,
                                                  const cudaGraphNode_t* /*from*/,
                                                  const cudaGraphNode_t* /*to*/,
                                                  const cudaGraphEdgeData* /*edgeData*/,
                                                  size_t /*numDependencies*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphRetainUserObject(cudaGraph_t /*graph*/, cudaUserObject_t /*object*/,
                                                unsigned int /*count*/, unsigned int /*flags*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaGraphUpload(cudaGraphExec_t /*graphExec*/, cudaStream_t /*stream*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaUserObjectCreate(cudaUserObject_t* /*object_out*/, void* /*ptr*/,
                                           cudaHostFn_t /*destroy*/,
                                           unsigned int /*initialRefcount*/,
                                           unsigned int /*flags*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaUserObjectRelease(cudaUserObject_t /*object*/, unsigned int /*count*/) {
  return notImplemented(__func__);
}

cudaError_t CUDARTAPI cudaUserObjectRetain(cudaUserObject_t /*object*/, unsigned int /*count*/) {
  return notImplemented(__func__);
}

} // extern "C"
