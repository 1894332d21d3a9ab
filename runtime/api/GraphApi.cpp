// The CUDA Runtime API: graph management (CUDART_GRAPH).
//
// Every function has exactly the prototype of NVIDIA's header, which this file includes, so a
// mismatch is a compile error. Implemented functions call the bodies of GraphCalls.cpp; the others
// return notImplemented(__func__), which logs the name once and returns cudaErrorNotSupported.
//
// The typed node functions (cudaGraphAddKernelNode, cudaGraphMemsetNodeGetParams, ...) reach the
// runtime in the generic cudaGraphNodeParams form (runtime/core/GraphNodeParams.h); the helpers
// below only marshal between the two.

#include "runtime/api/ApiBoundary.h"
#include "runtime/api/GraphCalls.h"
#include "runtime/core/GraphNodeParams.h"

#include <cuda_runtime_api.h>

#include <optional>

using namespace ocelot::runtime::api;
namespace graph_params = ocelot::runtime::graph_params;

namespace {

cudaError_t addNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                    size_t count, std::optional<cudaGraphNodeParams> params) {
  return graphAddNode(node, graph, dependencies, nullptr, count, params ? &*params : nullptr);
}

cudaError_t setNode(cudaGraphNode_t node, std::optional<cudaGraphNodeParams> params) {
  return graphNodeSetParams(node, params ? &*params : nullptr);
}

cudaError_t setExecNode(cudaGraphExec_t exec, cudaGraphNode_t node,
                        std::optional<cudaGraphNodeParams> params) {
  return graphExecNodeSetParams(exec, node, params ? &*params : nullptr);
}

/// A typed getter: the node's generic parameters (of the expected type), converted by `convert`.
template <class Out, class Convert>
cudaError_t getNode(cudaGraphNode_t node, cudaGraphNodeType type, Out* out, Convert convert) {
  cudaGraphNodeParams params = {};
  cudaError_t error = graphNodeGetParams(node, out != nullptr ? &params : nullptr, type);
  if (error == cudaSuccess)
    convert(params, out);
  return error;
}

/// The memcpy node parameters of a copy to or from a registered variable, then `apply` them.
template <class Apply>
cudaError_t withSymbolCopy(const void* symbol, const void* memory, size_t count, size_t offset,
                           cudaMemcpyKind kind, bool toSymbol, Apply apply) {
  cudaGraphNodeParams params = {};
  if (cudaError_t error = runtime().symbolCopyNodeParams(symbol, const_cast<void*>(memory), count,
                                                         offset, raw(kind), toSymbol, &params);
      error != cudaSuccess)
    return error;
  return apply(params);
}

} // namespace

extern "C" {

cudaError_t CUDARTAPI cudaDeviceGetGraphMemAttribute(int device,
                                                     enum cudaGraphMemAttributeType attr,
                                                     void* value) {
  return call([&] { return deviceGraphMemAttribute(device, raw(attr), value, false); });
}

cudaError_t CUDARTAPI cudaDeviceGraphMemTrim(int device) {
  return call([&] { return deviceGraphMemTrim(device); });
}

cudaError_t CUDARTAPI cudaDeviceSetGraphMemAttribute(int device,
                                                     enum cudaGraphMemAttributeType attr,
                                                     void* value) {
  return call([&] { return deviceGraphMemAttribute(device, raw(attr), value, true); });
}

cudaError_t CUDARTAPI cudaGraphAddChildGraphNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                                 const cudaGraphNode_t* pDependencies,
                                                 size_t numDependencies, cudaGraph_t childGraph) {
  return call([&] {
    return addNode(pGraphNode, graph, pDependencies, numDependencies,
                   graph_params::childGraph(childGraph));
  });
}

cudaError_t CUDARTAPI cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from,
                                               const cudaGraphNode_t* to,
                                               const cudaGraphEdgeData* edgeData,
                                               size_t numDependencies) {
  return call(
      [&] { return graphChangeDependencies(graph, from, to, edgeData, numDependencies, true); });
}

cudaError_t CUDARTAPI cudaGraphAddEmptyNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                            const cudaGraphNode_t* pDependencies,
                                            size_t numDependencies) {
  return call([&] {
    return addNode(pGraphNode, graph, pDependencies, numDependencies, graph_params::empty());
  });
}

cudaError_t CUDARTAPI cudaGraphAddEventRecordNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                                  const cudaGraphNode_t* pDependencies,
                                                  size_t numDependencies, cudaEvent_t event) {
  return call([&] {
    return addNode(pGraphNode, graph, pDependencies, numDependencies,
                   graph_params::eventRecord(event));
  });
}

cudaError_t CUDARTAPI cudaGraphAddEventWaitNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                                const cudaGraphNode_t* pDependencies,
                                                size_t numDependencies, cudaEvent_t event) {
  return call([&] {
    return addNode(pGraphNode, graph, pDependencies, numDependencies,
                   graph_params::eventWait(event));
  });
}

cudaError_t CUDARTAPI cudaGraphAddHostNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                           const cudaGraphNode_t* pDependencies,
                                           size_t numDependencies,
                                           const struct cudaHostNodeParams* pNodeParams) {
  return call([&] {
    return addNode(pGraphNode, graph, pDependencies, numDependencies,
                   graph_params::host(pNodeParams));
  });
}

cudaError_t CUDARTAPI cudaGraphAddKernelNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                             const cudaGraphNode_t* pDependencies,
                                             size_t numDependencies,
                                             const struct cudaKernelNodeParams* pNodeParams) {
  return call([&] {
    return addNode(pGraphNode, graph, pDependencies, numDependencies,
                   graph_params::kernel(pNodeParams));
  });
}

cudaError_t CUDARTAPI cudaGraphAddMemAllocNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                               const cudaGraphNode_t* pDependencies,
                                               size_t numDependencies,
                                               struct cudaMemAllocNodeParams* nodeParams) {
  return call([&] {
    auto params = graph_params::memAlloc(nodeParams);
    cudaError_t error = graphAddNode(pGraphNode, graph, pDependencies, nullptr, numDependencies,
                                     params ? &*params : nullptr);
    if (error == cudaSuccess)
      nodeParams->dptr = params->alloc.dptr; // the allocation is an output
    return error;
  });
}

cudaError_t CUDARTAPI cudaGraphAddMemFreeNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                              const cudaGraphNode_t* pDependencies,
                                              size_t numDependencies, void* dptr) {
  return call([&] {
    return addNode(pGraphNode, graph, pDependencies, numDependencies, graph_params::memFree(dptr));
  });
}

cudaError_t CUDARTAPI cudaGraphAddMemcpyNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                             const cudaGraphNode_t* pDependencies,
                                             size_t numDependencies,
                                             const struct cudaMemcpy3DParms* pCopyParams) {
  return call([&] {
    return addNode(pGraphNode, graph, pDependencies, numDependencies,
                   graph_params::memcpy(pCopyParams));
  });
}

cudaError_t CUDARTAPI cudaGraphAddMemcpyNode1D(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                               const cudaGraphNode_t* pDependencies,
                                               size_t numDependencies, void* dst, const void* src,
                                               size_t count, enum cudaMemcpyKind kind) {
  return call([&] {
    return addNode(pGraphNode, graph, pDependencies, numDependencies,
                   graph_params::memcpy1D(dst, src, count, kind));
  });
}

cudaError_t CUDARTAPI cudaGraphAddMemcpyNodeFromSymbol(cudaGraphNode_t* pGraphNode,
                                                       cudaGraph_t graph,
                                                       const cudaGraphNode_t* pDependencies,
                                                       size_t numDependencies, void* dst,
                                                       const void* symbol, size_t count,
                                                       size_t offset, enum cudaMemcpyKind kind) {
  return call([&] {
    return withSymbolCopy(symbol, dst, count, offset, kind, false, [&](auto params) {
      return addNode(pGraphNode, graph, pDependencies, numDependencies, params);
    });
  });
}

cudaError_t CUDARTAPI cudaGraphAddMemcpyNodeToSymbol(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                                     const cudaGraphNode_t* pDependencies,
                                                     size_t numDependencies, const void* symbol,
                                                     const void* src, size_t count, size_t offset,
                                                     enum cudaMemcpyKind kind) {
  return call([&] {
    return withSymbolCopy(symbol, src, count, offset, kind, true, [&](auto params) {
      return addNode(pGraphNode, graph, pDependencies, numDependencies, params);
    });
  });
}

cudaError_t CUDARTAPI cudaGraphAddMemsetNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                             const cudaGraphNode_t* pDependencies,
                                             size_t numDependencies,
                                             const struct cudaMemsetParams* pMemsetParams) {
  return call([&] {
    return addNode(pGraphNode, graph, pDependencies, numDependencies,
                   graph_params::memset(pMemsetParams));
  });
}

cudaError_t CUDARTAPI cudaGraphAddNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                       const cudaGraphNode_t* pDependencies,
                                       const cudaGraphEdgeData* dependencyData,
                                       size_t numDependencies,
                                       struct cudaGraphNodeParams* nodeParams) {
  return call([&] {
    return graphAddNode(pGraphNode, graph, pDependencies, dependencyData, numDependencies,
                        nodeParams);
  });
}

cudaError_t CUDARTAPI cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node, cudaGraph_t* pGraph) {
  return call([&] {
    return getNode(
        node, cudaGraphNodeTypeGraph, pGraph,
        [](const cudaGraphNodeParams& params, cudaGraph_t* out) { *out = params.graph.graph; });
  });
}

cudaError_t CUDARTAPI cudaGraphClone(cudaGraph_t* pGraphClone, cudaGraph_t originalGraph) {
  return call([&] { return graphClone(pGraphClone, originalGraph); });
}

cudaError_t CUDARTAPI cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle* pHandle_out,
                                                       cudaGraph_t graph,
                                                       unsigned int defaultLaunchValue,
                                                       unsigned int flags) {
  return call(
      [&] { return graphConditionalHandleCreate(pHandle_out, graph, defaultLaunchValue, flags); });
}

cudaError_t CUDARTAPI cudaGraphCreate(cudaGraph_t* pGraph, unsigned int flags) {
  return call([&] { return graphCreate(pGraph, flags); });
}

cudaError_t CUDARTAPI cudaGraphDebugDotPrint(cudaGraph_t graph, const char* path,
                                             unsigned int flags) {
  return call([&] { return graphDebugDotPrint(graph, path, flags); });
}

cudaError_t CUDARTAPI cudaGraphDestroy(cudaGraph_t graph) {
  return call([&] { return graphDestroy(graph); });
}

cudaError_t CUDARTAPI cudaGraphDestroyNode(cudaGraphNode_t node) {
  return call([&] { return graphDestroyNode(node); });
}

cudaError_t CUDARTAPI cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t node,
                                                       cudaEvent_t* event_out) {
  return call([&] {
    return getNode(node, cudaGraphNodeTypeEventRecord, event_out,
                   [](const cudaGraphNodeParams& params, cudaEvent_t* out) {
                     *out = params.eventRecord.event;
                   });
  });
}

cudaError_t CUDARTAPI cudaGraphEventRecordNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event) {
  return call([&] { return setNode(node, graph_params::eventRecord(event)); });
}

cudaError_t CUDARTAPI cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t node, cudaEvent_t* event_out) {
  return call([&] {
    return getNode(
        node, cudaGraphNodeTypeWaitEvent, event_out,
        [](const cudaGraphNodeParams& params, cudaEvent_t* out) { *out = params.eventWait.event; });
  });
}

cudaError_t CUDARTAPI cudaGraphEventWaitNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event) {
  return call([&] { return setNode(node, graph_params::eventWait(event)); });
}

cudaError_t CUDARTAPI cudaGraphExecChildGraphNodeSetParams(cudaGraphExec_t hGraphExec,
                                                           cudaGraphNode_t node,
                                                           cudaGraph_t childGraph) {
  return call([&] { return setExecNode(hGraphExec, node, graph_params::childGraph(childGraph)); });
}

cudaError_t CUDARTAPI cudaGraphExecDestroy(cudaGraphExec_t graphExec) {
  return call([&] { return graphExecDestroy(graphExec); });
}

cudaError_t CUDARTAPI cudaGraphExecEventRecordNodeSetEvent(cudaGraphExec_t hGraphExec,
                                                           cudaGraphNode_t hNode,
                                                           cudaEvent_t event) {
  return call([&] { return setExecNode(hGraphExec, hNode, graph_params::eventRecord(event)); });
}

cudaError_t CUDARTAPI cudaGraphExecEventWaitNodeSetEvent(cudaGraphExec_t hGraphExec,
                                                         cudaGraphNode_t hNode, cudaEvent_t event) {
  return call([&] { return setExecNode(hGraphExec, hNode, graph_params::eventWait(event)); });
}

cudaError_t CUDARTAPI cudaGraphExecGetFlags(cudaGraphExec_t graphExec, unsigned long long* flags) {
  return call([&] { return graphExecGetFlags(graphExec, flags); });
}

cudaError_t CUDARTAPI cudaGraphExecHostNodeSetParams(cudaGraphExec_t hGraphExec,
                                                     cudaGraphNode_t node,
                                                     const struct cudaHostNodeParams* pNodeParams) {
  return call([&] { return setExecNode(hGraphExec, node, graph_params::host(pNodeParams)); });
}

cudaError_t CUDARTAPI
cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                 const struct cudaKernelNodeParams* pNodeParams) {
  return call([&] { return setExecNode(hGraphExec, node, graph_params::kernel(pNodeParams)); });
}

cudaError_t CUDARTAPI cudaGraphExecMemcpyNodeSetParams(
    cudaGraphExec_t hGraphExec, cudaGraphNode_t node, const struct cudaMemcpy3DParms* pNodeParams) {
  return call([&] { return setExecNode(hGraphExec, node, graph_params::memcpy(pNodeParams)); });
}

cudaError_t CUDARTAPI cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t hGraphExec,
                                                         cudaGraphNode_t node, void* dst,
                                                         const void* src, size_t count,
                                                         enum cudaMemcpyKind kind) {
  return call(
      [&] { return setExecNode(hGraphExec, node, graph_params::memcpy1D(dst, src, count, kind)); });
}

cudaError_t CUDARTAPI cudaGraphExecMemcpyNodeSetParamsFromSymbol(cudaGraphExec_t hGraphExec,
                                                                 cudaGraphNode_t node, void* dst,
                                                                 const void* symbol, size_t count,
                                                                 size_t offset,
                                                                 enum cudaMemcpyKind kind) {
  return call([&] {
    return withSymbolCopy(symbol, dst, count, offset, kind, false,
                          [&](auto params) { return setExecNode(hGraphExec, node, params); });
  });
}

cudaError_t CUDARTAPI cudaGraphExecMemcpyNodeSetParamsToSymbol(cudaGraphExec_t hGraphExec,
                                                               cudaGraphNode_t node,
                                                               const void* symbol, const void* src,
                                                               size_t count, size_t offset,
                                                               enum cudaMemcpyKind kind) {
  return call([&] {
    return withSymbolCopy(symbol, src, count, offset, kind, true,
                          [&](auto params) { return setExecNode(hGraphExec, node, params); });
  });
}

cudaError_t CUDARTAPI cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t hGraphExec,
                                                       cudaGraphNode_t node,
                                                       const struct cudaMemsetParams* pNodeParams) {
  return call([&] { return setExecNode(hGraphExec, node, graph_params::memset(pNodeParams)); });
}

cudaError_t CUDARTAPI cudaGraphExecNodeSetParams(cudaGraphExec_t graphExec, cudaGraphNode_t node,
                                                 struct cudaGraphNodeParams* nodeParams) {
  return call([&] { return graphExecNodeSetParams(graphExec, node, nodeParams); });
}

cudaError_t CUDARTAPI cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                          cudaGraphExecUpdateResultInfo* resultInfo) {
  return call([&] { return graphExecUpdate(hGraphExec, hGraph, resultInfo); });
}

cudaError_t CUDARTAPI cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t* from,
                                        cudaGraphNode_t* to, cudaGraphEdgeData* edgeData,
                                        size_t* numEdges) {
  return call([&] { return graphGetEdges(graph, from, to, edgeData, numEdges); });
}

cudaError_t CUDARTAPI cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t* nodes,
                                        size_t* numNodes) {
  return call([&] { return graphGetNodes(graph, nodes, numNodes, false); });
}

cudaError_t CUDARTAPI cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t* pRootNodes,
                                            size_t* pNumRootNodes) {
  return call([&] { return graphGetNodes(graph, pRootNodes, pNumRootNodes, true); });
}

cudaError_t CUDARTAPI cudaGraphHostNodeGetParams(cudaGraphNode_t node,
                                                 struct cudaHostNodeParams* pNodeParams) {
  return call([&] {
    return getNode(node, cudaGraphNodeTypeHost, pNodeParams,
                   [](const cudaGraphNodeParams& params, cudaHostNodeParams* out) {
                     graph_params::toHost(params, out);
                   });
  });
}

cudaError_t CUDARTAPI cudaGraphHostNodeSetParams(cudaGraphNode_t node,
                                                 const struct cudaHostNodeParams* pNodeParams) {
  return call([&] { return setNode(node, graph_params::host(pNodeParams)); });
}

cudaError_t CUDARTAPI cudaGraphInstantiate(cudaGraphExec_t* pGraphExec, cudaGraph_t graph,
                                           unsigned long long flags) {
  return call([&] {
    cudaGraphInstantiateParams params = {};
    params.flags = flags;
    return graphInstantiate(pGraphExec, graph, &params);
  });
}

cudaError_t CUDARTAPI cudaGraphInstantiateWithFlags(cudaGraphExec_t* pGraphExec, cudaGraph_t graph,
                                                    unsigned long long flags) {
  return call([&] {
    cudaGraphInstantiateParams params = {};
    params.flags = flags;
    return graphInstantiate(pGraphExec, graph, &params);
  });
}

cudaError_t CUDARTAPI cudaGraphInstantiateWithParams(
    cudaGraphExec_t* pGraphExec, cudaGraph_t graph, cudaGraphInstantiateParams* instantiateParams) {
  return call([&] { return graphInstantiate(pGraphExec, graph, instantiateParams); });
}

cudaError_t CUDARTAPI cudaGraphKernelNodeCopyAttributes(cudaGraphNode_t hDst,
                                                        cudaGraphNode_t hSrc) {
  return call([&] { return graphKernelNodeCopyAttributes(hDst, hSrc); });
}

cudaError_t CUDARTAPI cudaGraphKernelNodeGetAttribute(cudaGraphNode_t hNode,
                                                      cudaLaunchAttributeID attr,
                                                      cudaLaunchAttributeValue* value_out) {
  return call([&] { return graphKernelNodeGetAttribute(hNode, raw(attr), value_out); });
}

cudaError_t CUDARTAPI cudaGraphKernelNodeGetParams(cudaGraphNode_t node,
                                                   struct cudaKernelNodeParams* pNodeParams) {
  return call([&] {
    return getNode(node, cudaGraphNodeTypeKernel, pNodeParams,
                   [](const cudaGraphNodeParams& params, cudaKernelNodeParams* out) {
                     graph_params::toKernel(params, out);
                   });
  });
}

cudaError_t CUDARTAPI cudaGraphKernelNodeSetAttribute(cudaGraphNode_t hNode,
                                                      cudaLaunchAttributeID attr,
                                                      const cudaLaunchAttributeValue* value) {
  return call([&] { return graphKernelNodeSetAttribute(hNode, raw(attr), value); });
}

cudaError_t CUDARTAPI cudaGraphKernelNodeSetParams(cudaGraphNode_t node,
                                                   const struct cudaKernelNodeParams* pNodeParams) {
  return call([&] { return setNode(node, graph_params::kernel(pNodeParams)); });
}

cudaError_t CUDARTAPI cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream) {
  return call([&] { return graphLaunch(graphExec, stream); });
}

cudaError_t CUDARTAPI cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node,
                                                     struct cudaMemAllocNodeParams* params_out) {
  return call([&] {
    return getNode(node, cudaGraphNodeTypeMemAlloc, params_out,
                   [](const cudaGraphNodeParams& params, cudaMemAllocNodeParams* out) {
                     graph_params::toMemAlloc(params, out);
                   });
  });
}

cudaError_t CUDARTAPI cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void* dptr_out) {
  return call([&] {
    return getNode(node, cudaGraphNodeTypeMemFree, static_cast<void**>(dptr_out),
                   [](const cudaGraphNodeParams& params, void** out) { *out = params.free.dptr; });
  });
}

cudaError_t CUDARTAPI cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node,
                                                   struct cudaMemcpy3DParms* pNodeParams) {
  return call([&] {
    return getNode(node, cudaGraphNodeTypeMemcpy, pNodeParams,
                   [](const cudaGraphNodeParams& params, cudaMemcpy3DParms* out) {
                     *out = params.memcpy.copyParams;
                   });
  });
}

cudaError_t CUDARTAPI cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node,
                                                   const struct cudaMemcpy3DParms* pNodeParams) {
  return call([&] { return setNode(node, graph_params::memcpy(pNodeParams)); });
}

cudaError_t CUDARTAPI cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t node, void* dst,
                                                     const void* src, size_t count,
                                                     enum cudaMemcpyKind kind) {
  return call([&] { return setNode(node, graph_params::memcpy1D(dst, src, count, kind)); });
}

cudaError_t CUDARTAPI cudaGraphMemcpyNodeSetParamsFromSymbol(cudaGraphNode_t node, void* dst,
                                                             const void* symbol, size_t count,
                                                             size_t offset,
                                                             enum cudaMemcpyKind kind) {
  return call([&] {
    return withSymbolCopy(symbol, dst, count, offset, kind, false,
                          [&](auto params) { return setNode(node, params); });
  });
}

cudaError_t CUDARTAPI cudaGraphMemcpyNodeSetParamsToSymbol(cudaGraphNode_t node, const void* symbol,
                                                           const void* src, size_t count,
                                                           size_t offset,
                                                           enum cudaMemcpyKind kind) {
  return call([&] {
    return withSymbolCopy(symbol, src, count, offset, kind, true,
                          [&](auto params) { return setNode(node, params); });
  });
}

cudaError_t CUDARTAPI cudaGraphMemsetNodeGetParams(cudaGraphNode_t node,
                                                   struct cudaMemsetParams* pNodeParams) {
  return call([&] {
    return getNode(node, cudaGraphNodeTypeMemset, pNodeParams,
                   [](const cudaGraphNodeParams& params, cudaMemsetParams* out) {
                     graph_params::toMemset(params, out);
                   });
  });
}

cudaError_t CUDARTAPI cudaGraphMemsetNodeSetParams(cudaGraphNode_t node,
                                                   const struct cudaMemsetParams* pNodeParams) {
  return call([&] { return setNode(node, graph_params::memset(pNodeParams)); });
}

cudaError_t CUDARTAPI cudaGraphNodeFindInClone(cudaGraphNode_t* pNode, cudaGraphNode_t originalNode,
                                               cudaGraph_t clonedGraph) {
  return call([&] { return graphNodeFindInClone(pNode, originalNode, clonedGraph); });
}

cudaError_t CUDARTAPI cudaGraphNodeGetDependencies(cudaGraphNode_t node,
                                                   cudaGraphNode_t* pDependencies,
                                                   cudaGraphEdgeData* edgeData,
                                                   size_t* pNumDependencies) {
  return call([&] {
    return graphNodeGetNeighbours(node, pDependencies, edgeData, pNumDependencies, false);
  });
}

cudaError_t CUDARTAPI cudaGraphNodeGetDependentNodes(cudaGraphNode_t node,
                                                     cudaGraphNode_t* pDependentNodes,
                                                     cudaGraphEdgeData* edgeData,
                                                     size_t* pNumDependentNodes) {
  return call([&] {
    return graphNodeGetNeighbours(node, pDependentNodes, edgeData, pNumDependentNodes, true);
  });
}

cudaError_t CUDARTAPI cudaGraphNodeGetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                                              unsigned int* isEnabled) {
  return call([&] { return graphNodeGetEnabled(hGraphExec, hNode, isEnabled); });
}

cudaError_t CUDARTAPI cudaGraphNodeGetType(cudaGraphNode_t node, enum cudaGraphNodeType* pType) {
  return call([&] { return graphNodeGetType(node, pType); });
}

cudaError_t CUDARTAPI cudaGraphNodeSetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                                              unsigned int isEnabled) {
  return call([&] { return graphNodeSetEnabled(hGraphExec, hNode, isEnabled); });
}

cudaError_t CUDARTAPI cudaGraphNodeSetParams(cudaGraphNode_t node,
                                             struct cudaGraphNodeParams* nodeParams) {
  return call([&] { return graphNodeSetParams(node, nodeParams); });
}

cudaError_t CUDARTAPI cudaGraphReleaseUserObject(cudaGraph_t graph, cudaUserObject_t object,
                                                 unsigned int count) {
  return call([&] { return graphChangeUserObject(graph, object, -static_cast<int>(count), 0); });
}

cudaError_t CUDARTAPI cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t* from,
                                                  const cudaGraphNode_t* to,
                                                  const cudaGraphEdgeData* edgeData,
                                                  size_t numDependencies) {
  return call(
      [&] { return graphChangeDependencies(graph, from, to, edgeData, numDependencies, false); });
}

cudaError_t CUDARTAPI cudaGraphRetainUserObject(cudaGraph_t graph, cudaUserObject_t object,
                                                unsigned int count, unsigned int flags) {
  return call([&] { return graphChangeUserObject(graph, object, static_cast<int>(count), flags); });
}

cudaError_t CUDARTAPI cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream) {
  return call([&] { return graphUpload(graphExec, stream); });
}

cudaError_t CUDARTAPI cudaUserObjectCreate(cudaUserObject_t* object_out, void* ptr,
                                           cudaHostFn_t destroy, unsigned int initialRefcount,
                                           unsigned int flags) {
  return call([&] { return userObjectCreate(object_out, ptr, destroy, initialRefcount, flags); });
}

cudaError_t CUDARTAPI cudaUserObjectRelease(cudaUserObject_t object, unsigned int count) {
  return call([&] { return userObjectChangeReferences(object, -static_cast<int>(count)); });
}

cudaError_t CUDARTAPI cudaUserObjectRetain(cudaUserObject_t object, unsigned int count) {
  return call([&] { return userObjectChangeReferences(object, static_cast<int>(count)); });
}

// --- External semaphores (not implemented: see docs/runtime.md) ---------------------------------

cudaError_t CUDARTAPI cudaGraphAddExternalSemaphoresSignalNode(
    cudaGraphNode_t* pGraphNode, cudaGraph_t graph, const cudaGraphNode_t* pDependencies,
    size_t numDependencies, const struct cudaExternalSemaphoreSignalNodeParams* nodeParams) {
  return call([&] {
    return addNode(pGraphNode, graph, pDependencies, numDependencies,
                   graph_params::externalSemaphoresSignal(nodeParams));
  });
}

cudaError_t CUDARTAPI cudaGraphAddExternalSemaphoresWaitNode(
    cudaGraphNode_t* pGraphNode, cudaGraph_t graph, const cudaGraphNode_t* pDependencies,
    size_t numDependencies, const struct cudaExternalSemaphoreWaitNodeParams* nodeParams) {
  return call([&] {
    return addNode(pGraphNode, graph, pDependencies, numDependencies,
                   graph_params::externalSemaphoresWait(nodeParams));
  });
}

cudaError_t CUDARTAPI cudaGraphExecExternalSemaphoresSignalNodeSetParams(
    cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
    const struct cudaExternalSemaphoreSignalNodeParams* nodeParams) {
  return call([&] {
    return setExecNode(hGraphExec, hNode, graph_params::externalSemaphoresSignal(nodeParams));
  });
}

cudaError_t CUDARTAPI cudaGraphExecExternalSemaphoresWaitNodeSetParams(
    cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
    const struct cudaExternalSemaphoreWaitNodeParams* nodeParams) {
  return call([&] {
    return setExecNode(hGraphExec, hNode, graph_params::externalSemaphoresWait(nodeParams));
  });
}

cudaError_t CUDARTAPI cudaGraphExternalSemaphoresSignalNodeGetParams(
    cudaGraphNode_t hNode, struct cudaExternalSemaphoreSignalNodeParams* params_out) {
  return call([&] {
    return getNode(
        hNode, cudaGraphNodeTypeExtSemaphoreSignal, params_out,
        [](const cudaGraphNodeParams& params, cudaExternalSemaphoreSignalNodeParams* out) {
          graph_params::toExternalSemaphoresSignal(params, out);
        });
  });
}

cudaError_t CUDARTAPI cudaGraphExternalSemaphoresSignalNodeSetParams(
    cudaGraphNode_t hNode, const struct cudaExternalSemaphoreSignalNodeParams* nodeParams) {
  return call([&] { return setNode(hNode, graph_params::externalSemaphoresSignal(nodeParams)); });
}

cudaError_t CUDARTAPI cudaGraphExternalSemaphoresWaitNodeGetParams(
    cudaGraphNode_t hNode, struct cudaExternalSemaphoreWaitNodeParams* params_out) {
  return call([&] {
    return getNode(hNode, cudaGraphNodeTypeExtSemaphoreWait, params_out,
                   [](const cudaGraphNodeParams& params, cudaExternalSemaphoreWaitNodeParams* out) {
                     graph_params::toExternalSemaphoresWait(params, out);
                   });
  });
}

cudaError_t CUDARTAPI cudaGraphExternalSemaphoresWaitNodeSetParams(
    cudaGraphNode_t hNode, const struct cudaExternalSemaphoreWaitNodeParams* nodeParams) {
  return call([&] { return setNode(hNode, graph_params::externalSemaphoresWait(nodeParams)); });
}

} // extern "C"
