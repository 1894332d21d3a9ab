#pragma once

// The bodies of the graph calls: the typed node functions of GraphApi.cpp reach them in the
// generic cudaGraphNodeParams form, the per-thread variants with the thread's stream. They run
// inside call() (GraphCalls.cpp).

#include <cuda_runtime_api.h>

#include <cstddef>
#include <driver_types.h>

namespace ocelot::runtime::api {

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
cudaError_t graphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType* type);
cudaError_t graphGetNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, size_t* count, bool rootsOnly);
cudaError_t graphGetEdges(cudaGraph_t graph, cudaGraphNode_t* from, cudaGraphNode_t* to,
                          cudaGraphEdgeData* edges, size_t* count);
cudaError_t graphNodeGetNeighbours(cudaGraphNode_t node, cudaGraphNode_t* nodes,
                                   cudaGraphEdgeData* edges, size_t* count, bool dependents);
cudaError_t graphChangeDependencies(cudaGraph_t graph, const cudaGraphNode_t* from,
                                    const cudaGraphNode_t* to, const cudaGraphEdgeData* edges,
                                    size_t count, bool add);
cudaError_t graphDestroyNode(cudaGraphNode_t node);
cudaError_t graphNodeFindInClone(cudaGraphNode_t* cloned, cudaGraphNode_t node, cudaGraph_t clone);
cudaError_t graphNodeSetEnabled(cudaGraphExec_t exec, cudaGraphNode_t node, unsigned int enabled);
cudaError_t graphNodeGetEnabled(cudaGraphExec_t exec, cudaGraphNode_t node, unsigned int* enabled);
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
cudaError_t deviceGraphMemAttribute(int device, int attribute, void* value, bool set);
cudaError_t deviceGraphMemTrim(int device);

} // namespace ocelot::runtime::api
