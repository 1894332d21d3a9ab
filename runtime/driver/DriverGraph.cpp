// A GPU's graphs: cudaGraph_t, cudaGraphNode_t, cudaGraphExec_t and cudaUserObject_t are the
// driver's handles. Node parameters go through DriverGraphNodes.
#include "runtime/driver/DriverGraph.h"

#include "runtime/core/Stream.h"
#include "runtime/driver/DriverDevice.h"
#include "runtime/driver/DriverGraphNodes.h"

#include <memory>

namespace ocelot::runtime::driver {
namespace {

static_assert(sizeof(cudaGraphInstantiateParams) == sizeof(CUDA_GRAPH_INSTANTIATE_PARAMS));
static_assert(sizeof(cudaGraphExecUpdateResultInfo) == sizeof(CUgraphExecUpdateResultInfo));

} // namespace

// --- DriverGraph --------------------------------------------------------------------------------

DriverGraph::DriverGraph(DriverDevice& device, cudaGraph_t graph)
    : Graph(graph), device_(device), api_(device.api()) {}

cudaError_t DriverGraph::clone(Graph** clone) {
  cudaGraph_t copy = nullptr;
  if (CUresult result = invoke(api_.graphClone, &copy, handle()); result != CUDA_SUCCESS)
    return toCudaError(result);
  *clone = device_.driverGraphs().wrap(copy);
  return cudaSuccess;
}

cudaError_t DriverGraph::addNode(cudaGraphNode_t* node, const cudaGraphNode_t* dependencies,
                                 const cudaGraphEdgeData* edges, size_t count,
                                 cudaGraphNodeParams* params) {
  CUgraphNodeParams driverParams;
  if (cudaError_t error = toDriverNodeParams(device_, *params, &driverParams); error != cudaSuccess)
    return error;
  CUresult result = invoke(api_.graphAddNode, node, handle(), dependencies,
                           reinterpret_cast<const CUgraphEdgeData*>(edges), count, &driverParams);
  // Outputs of node creation: the bodies the driver created for a conditional node, and the
  // address it reserved for a mem-alloc node (without it the application's next node, a copy into
  // that memory, named a null pointer: issue 14 bug 1 on the GPU).
  if (result == CUDA_SUCCESS && params->type == cudaGraphNodeTypeConditional)
    params->conditional.phGraph_out = driverParams.conditional.phGraph_out;
  if (result == CUDA_SUCCESS && params->type == cudaGraphNodeTypeMemAlloc)
    params->alloc.dptr = reinterpret_cast<void*>(driverParams.alloc.dptr);
  return toCudaError(result);
}

cudaError_t DriverGraph::nodes(cudaGraphNode_t* nodes, size_t* count, bool rootsOnly) {
  return toCudaError(rootsOnly ? invoke(api_.graphGetRootNodes, handle(), nodes, count)
                               : invoke(api_.graphGetNodes, handle(), nodes, count));
}

cudaError_t DriverGraph::edges(cudaGraphNode_t* from, cudaGraphNode_t* to, cudaGraphEdgeData* edges,
                               size_t* count) {
  return toCudaError(invoke(api_.graphGetEdges, handle(), from, to,
                            reinterpret_cast<CUgraphEdgeData*>(edges), count));
}

cudaError_t DriverGraph::changeDependencies(const cudaGraphNode_t* from, const cudaGraphNode_t* to,
                                            const cudaGraphEdgeData* edges, size_t count,
                                            bool add) {
  const auto* driverEdges = reinterpret_cast<const CUgraphEdgeData*>(edges);
  return toCudaError(
      add ? invoke(api_.graphAddDependencies, handle(), from, to, driverEdges, count)
          : invoke(api_.graphRemoveDependencies, handle(), from, to, driverEdges, count));
}

cudaError_t DriverGraph::findClonedNode(cudaGraphNode_t node, cudaGraphNode_t* cloned) {
  return toCudaError(invoke(api_.graphNodeFindInClone, cloned, node, handle()));
}

cudaError_t DriverGraph::createConditionalHandle(cudaGraphConditionalHandle* handle,
                                                 unsigned int defaultValue, unsigned int flags) {
  CUcontext context = nullptr;
  if (cudaError_t error = device_.primaryContext(&context); error != cudaSuccess)
    return error;
  // The two APIs spell the 64-bit handle with different integer types.
  CUgraphConditionalHandle created = 0;
  CUresult result = invoke(api_.graphConditionalHandleCreate, &created, this->handle(), context,
                           defaultValue, flags);
  if (result == CUDA_SUCCESS)
    *handle = created;
  return toCudaError(result);
}

cudaError_t DriverGraph::instantiate(cudaGraphInstantiateParams* params, GraphExec** exec) {
  cudaGraphExec_t created = nullptr;
  CUresult result = params == nullptr
                        ? invoke(api_.graphInstantiateWithFlags, &created, handle(), 0ULL)
                        : invoke(api_.graphInstantiateWithParams, &created, handle(),
                                 reinterpret_cast<CUDA_GRAPH_INSTANTIATE_PARAMS*>(params));
  if (result != CUDA_SUCCESS)
    return toCudaError(result);
  *exec = device_.driverGraphs().wrap(created);
  return cudaSuccess;
}

cudaError_t DriverGraph::print(const char* path, unsigned int flags) {
  return toCudaError(invoke(api_.graphDebugDotPrint, handle(), path, flags));
}

cudaError_t DriverGraph::changeUserObject(cudaUserObject_t object, int count, unsigned int flags) {
  return toCudaError(count >= 0 ? invoke(api_.graphRetainUserObject, handle(), object,
                                         static_cast<unsigned int>(count), flags)
                                : invoke(api_.graphReleaseUserObject, handle(), object,
                                         static_cast<unsigned int>(-count)));
}

// --- DriverGraphExec ----------------------------------------------------------------------------

DriverGraphExec::DriverGraphExec(DriverDevice& device, cudaGraphExec_t exec)
    : GraphExec(exec), device_(device), api_(device.api()) {}

cudaError_t DriverGraphExec::launch(Stream& stream) {
  return toCudaError(invoke(api_.graphLaunch, handle(), stream.handle()));
}

cudaError_t DriverGraphExec::upload(Stream& stream) {
  return toCudaError(invoke(api_.graphUpload, handle(), stream.handle()));
}

cudaError_t DriverGraphExec::flags(unsigned long long* flags) {
  cuuint64_t driverFlags = 0;
  CUresult result = invoke(api_.graphExecGetFlags, handle(), &driverFlags);
  if (result == CUDA_SUCCESS)
    *flags = driverFlags;
  return toCudaError(result);
}

cudaError_t DriverGraphExec::update(Graph& graph, cudaGraphExecUpdateResultInfo* info) {
  return toCudaError(invoke(api_.graphExecUpdate, handle(), graph.handle(),
                            reinterpret_cast<CUgraphExecUpdateResultInfo*>(info)));
}

cudaError_t DriverGraphExec::setNodeParams(cudaGraphNode_t node, cudaGraphNodeParams* params) {
  CUgraphNodeParams driverParams;
  if (cudaError_t error = toDriverNodeParams(device_, *params, &driverParams); error != cudaSuccess)
    return error;
  return toCudaError(invoke(api_.graphExecNodeSetParams, handle(), node, &driverParams));
}

cudaError_t DriverGraphExec::setNodeEnabled(cudaGraphNode_t node, unsigned int enabled) {
  return toCudaError(invoke(api_.graphNodeSetEnabled, handle(), node, enabled));
}

cudaError_t DriverGraphExec::nodeEnabled(cudaGraphNode_t node, unsigned int* enabled) {
  return toCudaError(invoke(api_.graphNodeGetEnabled, handle(), node, enabled));
}

// --- DriverGraphs -------------------------------------------------------------------------------

DriverGraphs::DriverGraphs(DriverDevice& device) : device_(device), api_(device.api()) {}

cudaError_t DriverGraphs::create(unsigned int flags, Graph** graph) {
  cudaGraph_t created = nullptr;
  if (CUresult result = invoke(api_.graphCreate, &created, flags); result != CUDA_SUCCESS)
    return toCudaError(result);
  *graph = graphs_.insert(created, std::make_unique<DriverGraph>(device_, created));
  return cudaSuccess;
}

cudaError_t DriverGraphs::destroy(Graph& graph) {
  const cudaGraph_t handle = graph.handle();
  cudaError_t result = toCudaError(invoke(api_.graphDestroy, handle));
  graphs_.remove(handle);
  return result;
}

cudaError_t DriverGraphs::destroy(GraphExec& exec) {
  const cudaGraphExec_t handle = exec.handle();
  cudaError_t result = toCudaError(invoke(api_.graphExecDestroy, handle));
  execs_.remove(handle);
  return result;
}

cudaError_t DriverGraphs::nodeParams(cudaGraphNode_t node, cudaGraphNodeParams* params) {
  return toRuntimeNodeParams(device_, node, params);
}

cudaError_t DriverGraphs::setNodeParams(cudaGraphNode_t node, cudaGraphNodeParams* params) {
  CUgraphNodeParams driverParams;
  if (cudaError_t error = toDriverNodeParams(device_, *params, &driverParams); error != cudaSuccess)
    return error;
  return toCudaError(invoke(api_.graphNodeSetParams, node, &driverParams));
}

cudaError_t DriverGraphs::nodeType(cudaGraphNode_t node, cudaGraphNodeType* type) {
  CUgraphNodeType driverType{};
  CUresult result = invoke(api_.graphNodeGetType, node, &driverType);
  if (result == CUDA_SUCCESS)
    *type = static_cast<cudaGraphNodeType>(driverType);
  return toCudaError(result);
}

cudaError_t DriverGraphs::neighbours(cudaGraphNode_t node, cudaGraphNode_t* nodes,
                                     cudaGraphEdgeData* edges, size_t* count, bool dependents) {
  auto* driverEdges = reinterpret_cast<CUgraphEdgeData*>(edges);
  return toCudaError(dependents
                         ? invoke(api_.graphNodeGetDependentNodes, node, nodes, driverEdges, count)
                         : invoke(api_.graphNodeGetDependencies, node, nodes, driverEdges, count));
}

cudaError_t DriverGraphs::destroyNode(cudaGraphNode_t node) {
  return toCudaError(invoke(api_.graphDestroyNode, node));
}

cudaError_t DriverGraphs::kernelNodeAttribute(cudaGraphNode_t node, cudaLaunchAttributeID id,
                                              cudaLaunchAttributeValue* value) {
  return toCudaError(invoke(api_.graphKernelNodeGetAttribute, node,
                            static_cast<CUkernelNodeAttrID>(id),
                            reinterpret_cast<CUkernelNodeAttrValue*>(value)));
}

cudaError_t DriverGraphs::setKernelNodeAttribute(cudaGraphNode_t node, cudaLaunchAttributeID id,
                                                 const cudaLaunchAttributeValue* value) {
  return toCudaError(invoke(api_.graphKernelNodeSetAttribute, node,
                            static_cast<CUkernelNodeAttrID>(id),
                            reinterpret_cast<const CUkernelNodeAttrValue*>(value)));
}

cudaError_t DriverGraphs::copyKernelNodeAttributes(cudaGraphNode_t destination,
                                                   cudaGraphNode_t source) {
  return toCudaError(invoke(api_.graphKernelNodeCopyAttributes, destination, source));
}

cudaError_t DriverGraphs::createUserObject(cudaUserObject_t* object, void* pointer,
                                           cudaHostFn_t destructor, unsigned int count,
                                           unsigned int flags) {
  return toCudaError(invoke(api_.userObjectCreate, object, pointer, destructor, count, flags));
}

cudaError_t DriverGraphs::changeUserObjectReferences(cudaUserObject_t object, int count) {
  return toCudaError(
      count >= 0 ? invoke(api_.userObjectRetain, object, static_cast<unsigned int>(count))
                 : invoke(api_.userObjectRelease, object, static_cast<unsigned int>(-count)));
}

cudaError_t DriverGraphs::memoryAttribute(cudaGraphMemAttributeType attribute, void* value,
                                          bool set) {
  auto driverAttribute = static_cast<CUgraphMem_attribute>(attribute);
  if (set)
    return toCudaError(
        invoke(api_.deviceSetGraphMemAttribute, device_.handle(), driverAttribute, value));
  return toCudaError(
      invoke(api_.deviceGetGraphMemAttribute, device_.handle(), driverAttribute, value));
}

cudaError_t DriverGraphs::trimMemory() {
  return toCudaError(invoke(api_.deviceGraphMemTrim, device_.handle()));
}

Graph* DriverGraphs::adopt(cudaGraph_t handle) {
  return graphs_.findOrInsert(handle,
                              [&] { return std::make_unique<DriverGraph>(device_, handle); });
}

GraphExec* DriverGraphs::adopt(cudaGraphExec_t handle) {
  return execs_.findOrInsert(handle,
                             [&] { return std::make_unique<DriverGraphExec>(device_, handle); });
}

} // namespace ocelot::runtime::driver
