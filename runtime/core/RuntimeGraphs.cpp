// Runtime: CUDA graphs. Every node reaches the device in the generic cudaGraphNodeParams form;
// kernel nodes name the device's function (translated from the application's host stub or kernel
// handle here, and back when parameters are read).

#include "runtime/core/Runtime.h"

#include <cstring>

namespace ocelot::runtime {
namespace {

bool validGraphMemAttribute(int attribute) {
  return attribute >= cudaGraphMemAttrUsedMemCurrent &&
         attribute <= cudaGraphMemAttrReservedMemHigh;
}

bool validNodeType(int type) {
  return type >= cudaGraphNodeTypeKernel && type <= cudaGraphNodeTypeConditional;
}

} // namespace

cudaError_t Runtime::toDeviceNodeParams(const cudaGraphNodeParams& params, Device& device,
                                        int ordinal, cudaGraphNodeParams* translated) {
  int type = 0;
  std::memcpy(&type, &params.type, sizeof type);
  if (!validNodeType(type))
    return cudaErrorInvalidValue;
  *translated = params;
  if (type != cudaGraphNodeTypeKernel)
    return cudaSuccess;
  DeviceFunction function = nullptr;
  if (cudaError_t error = resolveFunction(params.kernel.func, device, ordinal, &function);
      error != cudaSuccess)
    return error;
  translated->kernel.func = function;
  return cudaSuccess;
}

void Runtime::toApplicationNodeParams(cudaGraphNodeParams* params) const {
  if (params->type != cudaGraphNodeTypeKernel)
    return;
  if (const void* origin = kernelHandles_.origin(params->kernel.func))
    params->kernel.func = const_cast<void*>(origin);
}

cudaError_t Runtime::graphCreate(cudaGraph_t* graph, unsigned int flags) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (graph == nullptr || flags != 0)
    return cudaErrorInvalidValue;
  return deviceResult(device->createGraph(graph, flags));
}

cudaError_t Runtime::graphDestroy(cudaGraph_t graph) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (graph == nullptr)
    return cudaErrorInvalidValue;
  return deviceResult(device->destroyGraph(graph));
}

cudaError_t Runtime::graphClone(cudaGraph_t* clone, cudaGraph_t graph) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (clone == nullptr || graph == nullptr)
    return cudaErrorInvalidValue;
  return deviceResult(device->cloneGraph(clone, graph));
}

cudaError_t Runtime::graphAddNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                  const cudaGraphNode_t* dependencies,
                                  const cudaGraphEdgeData* edges, size_t count,
                                  cudaGraphNodeParams* params) {
  Device* device = nullptr;
  int ordinal = 0;
  if (cudaError_t error = currentDevice(&device, &ordinal); error != cudaSuccess)
    return error;
  if (node == nullptr || graph == nullptr || params == nullptr ||
      (count != 0 && dependencies == nullptr))
    return cudaErrorInvalidValue;
  cudaGraphNodeParams translated = {};
  if (cudaError_t error = toDeviceNodeParams(*params, *device, ordinal, &translated);
      error != cudaSuccess)
    return error;
  cudaError_t error = device->addGraphNode(node, graph, dependencies, edges, count, &translated);
  // Outputs of node creation (the allocation of a mem-alloc node, the body graphs of a conditional
  // node) go back to the application's structure.
  if (error == cudaSuccess) {
    if (translated.type == cudaGraphNodeTypeMemAlloc)
      params->alloc.dptr = translated.alloc.dptr;
    if (translated.type == cudaGraphNodeTypeConditional)
      params->conditional.phGraph_out = translated.conditional.phGraph_out;
  }
  return deviceResult(error);
}

cudaError_t Runtime::graphNodeGetParams(cudaGraphNode_t node, cudaGraphNodeParams* params,
                                        int expected) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (node == nullptr || params == nullptr)
    return cudaErrorInvalidValue;
  if (expected >= 0) {
    cudaGraphNodeType type{};
    if (cudaError_t error = device->graphNodeType(node, &type); error != cudaSuccess)
      return deviceResult(error);
    if (type != expected)
      return cudaErrorInvalidValue;
  }
  if (cudaError_t error = device->graphNodeParams(node, params); error != cudaSuccess)
    return deviceResult(error);
  toApplicationNodeParams(params);
  return cudaSuccess;
}

cudaError_t Runtime::graphNodeSetParams(cudaGraphNode_t node, const cudaGraphNodeParams* params) {
  Device* device = nullptr;
  int ordinal = 0;
  if (cudaError_t error = currentDevice(&device, &ordinal); error != cudaSuccess)
    return error;
  if (node == nullptr || params == nullptr)
    return cudaErrorInvalidValue;
  cudaGraphNodeParams translated = {};
  if (cudaError_t error = toDeviceNodeParams(*params, *device, ordinal, &translated);
      error != cudaSuccess)
    return error;
  return deviceResult(device->setGraphNodeParams(node, &translated));
}

cudaError_t Runtime::graphExecNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                            const cudaGraphNodeParams* params) {
  Device* device = nullptr;
  int ordinal = 0;
  if (cudaError_t error = currentDevice(&device, &ordinal); error != cudaSuccess)
    return error;
  if (exec == nullptr || node == nullptr || params == nullptr)
    return cudaErrorInvalidValue;
  cudaGraphNodeParams translated = {};
  if (cudaError_t error = toDeviceNodeParams(*params, *device, ordinal, &translated);
      error != cudaSuccess)
    return error;
  return deviceResult(device->setExecNodeParams(exec, node, &translated));
}

cudaError_t Runtime::graphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType* type) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (node == nullptr || type == nullptr)
    return cudaErrorInvalidValue;
  return deviceResult(device->graphNodeType(node, type));
}

cudaError_t Runtime::graphGetNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, size_t* count,
                                   bool rootsOnly) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (graph == nullptr || count == nullptr)
    return cudaErrorInvalidValue;
  return deviceResult(device->graphNodes(graph, nodes, count, rootsOnly));
}

cudaError_t Runtime::graphGetEdges(cudaGraph_t graph, cudaGraphNode_t* from, cudaGraphNode_t* to,
                                   cudaGraphEdgeData* edges, size_t* count) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (graph == nullptr || count == nullptr || ((from == nullptr) != (to == nullptr)))
    return cudaErrorInvalidValue;
  return deviceResult(device->graphEdges(graph, from, to, edges, count));
}

cudaError_t Runtime::graphNodeGetNeighbours(cudaGraphNode_t node, cudaGraphNode_t* nodes,
                                            cudaGraphEdgeData* edges, size_t* count,
                                            bool dependents) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (node == nullptr || count == nullptr)
    return cudaErrorInvalidValue;
  return deviceResult(device->graphNodeNeighbours(node, nodes, edges, count, dependents));
}

cudaError_t Runtime::graphChangeDependencies(cudaGraph_t graph, const cudaGraphNode_t* from,
                                             const cudaGraphNode_t* to,
                                             const cudaGraphEdgeData* edges, size_t count,
                                             bool add) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (graph == nullptr || (count != 0 && (from == nullptr || to == nullptr)))
    return cudaErrorInvalidValue;
  for (size_t i = 0; i < count; ++i)
    if (from[i] == nullptr || to[i] == nullptr)
      return cudaErrorInvalidValue;
  return deviceResult(device->changeGraphDependencies(graph, from, to, edges, count, add));
}

cudaError_t Runtime::graphDestroyNode(cudaGraphNode_t node) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (node == nullptr)
    return cudaErrorInvalidValue;
  return deviceResult(device->destroyGraphNode(node));
}

cudaError_t Runtime::graphNodeFindInClone(cudaGraphNode_t* cloned, cudaGraphNode_t node,
                                          cudaGraph_t clone) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (cloned == nullptr || node == nullptr || clone == nullptr)
    return cudaErrorInvalidValue;
  return deviceResult(device->findInClone(cloned, node, clone));
}

cudaError_t Runtime::graphNodeSetEnabled(cudaGraphExec_t exec, cudaGraphNode_t node,
                                         unsigned int enabled) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (exec == nullptr || node == nullptr)
    return cudaErrorInvalidValue;
  return deviceResult(device->setGraphNodeEnabled(exec, node, enabled));
}

cudaError_t Runtime::graphNodeGetEnabled(cudaGraphExec_t exec, cudaGraphNode_t node,
                                         unsigned int* enabled) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (exec == nullptr || node == nullptr || enabled == nullptr)
    return cudaErrorInvalidValue;
  return deviceResult(device->graphNodeEnabled(exec, node, enabled));
}

cudaError_t Runtime::graphKernelNodeGetAttribute(cudaGraphNode_t node, int attribute,
                                                 cudaLaunchAttributeValue* value) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (node == nullptr || value == nullptr || attribute <= cudaLaunchAttributeIgnore ||
      attribute > cudaLaunchAttributeNvlinkUtilCentricScheduling)
    return cudaErrorInvalidValue;
  return deviceResult(
      device->kernelNodeAttribute(node, static_cast<cudaLaunchAttributeID>(attribute), value));
}

cudaError_t Runtime::graphKernelNodeSetAttribute(cudaGraphNode_t node, int attribute,
                                                 const cudaLaunchAttributeValue* value) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (node == nullptr || value == nullptr || attribute <= cudaLaunchAttributeIgnore ||
      attribute > cudaLaunchAttributeNvlinkUtilCentricScheduling)
    return cudaErrorInvalidValue;
  return deviceResult(
      device->setKernelNodeAttribute(node, static_cast<cudaLaunchAttributeID>(attribute), value));
}

cudaError_t Runtime::graphKernelNodeCopyAttributes(cudaGraphNode_t destination,
                                                   cudaGraphNode_t source) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (destination == nullptr || source == nullptr)
    return cudaErrorInvalidValue;
  return deviceResult(device->copyKernelNodeAttributes(destination, source));
}

cudaError_t Runtime::graphConditionalHandleCreate(cudaGraphConditionalHandle* handle,
                                                  cudaGraph_t graph, unsigned int defaultValue,
                                                  unsigned int flags) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (handle == nullptr || graph == nullptr ||
      (flags & ~static_cast<unsigned int>(cudaGraphCondAssignDefault)) != 0)
    return cudaErrorInvalidValue;
  return deviceResult(device->createConditionalHandle(handle, graph, defaultValue, flags));
}

cudaError_t Runtime::graphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph,
                                      cudaGraphInstantiateParams* params) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (exec == nullptr || graph == nullptr || params == nullptr)
    return cudaErrorInvalidValue;
  return deviceResult(device->instantiateGraph(exec, graph, params));
}

cudaError_t Runtime::graphExecDestroy(cudaGraphExec_t exec) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (exec == nullptr)
    return cudaErrorInvalidValue;
  return deviceResult(device->destroyGraphExec(exec));
}

cudaError_t Runtime::graphExecGetFlags(cudaGraphExec_t exec, unsigned long long* flags) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (exec == nullptr || flags == nullptr)
    return cudaErrorInvalidValue;
  return deviceResult(device->graphExecFlags(exec, flags));
}

cudaError_t Runtime::graphExecUpdate(cudaGraphExec_t exec, cudaGraph_t graph,
                                     cudaGraphExecUpdateResultInfo* info) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (exec == nullptr || graph == nullptr || info == nullptr)
    return cudaErrorInvalidValue;
  return deviceResult(device->updateGraphExec(exec, graph, info));
}

cudaError_t Runtime::graphLaunch(cudaGraphExec_t exec, cudaStream_t stream) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (exec == nullptr)
    return cudaErrorInvalidValue;
  Stream* queue = nullptr;
  if (cudaError_t error = streamOn(*device, stream, &queue); error != cudaSuccess)
    return error;
  return deviceResult(device->launchGraph(exec, *queue));
}

cudaError_t Runtime::graphUpload(cudaGraphExec_t exec, cudaStream_t stream) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (exec == nullptr)
    return cudaErrorInvalidValue;
  Stream* queue = nullptr;
  if (cudaError_t error = streamOn(*device, stream, &queue); error != cudaSuccess)
    return error;
  return deviceResult(device->uploadGraph(exec, *queue));
}

cudaError_t Runtime::graphDebugDotPrint(cudaGraph_t graph, const char* path, unsigned int flags) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (graph == nullptr || path == nullptr)
    return cudaErrorInvalidValue;
  return deviceResult(device->printGraph(graph, path, flags));
}

cudaError_t Runtime::userObjectCreate(cudaUserObject_t* object, void* pointer, cudaHostFn_t destroy,
                                      unsigned int count, unsigned int flags) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (object == nullptr || destroy == nullptr || count == 0 ||
      flags != cudaUserObjectNoDestructorSync)
    return cudaErrorInvalidValue;
  return deviceResult(device->createUserObject(object, pointer, destroy, count, flags));
}

cudaError_t Runtime::userObjectChangeReferences(cudaUserObject_t object, int count) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (object == nullptr || count == 0)
    return cudaErrorInvalidValue;
  return deviceResult(device->changeUserObjectReferences(object, count));
}

cudaError_t Runtime::graphChangeUserObject(cudaGraph_t graph, cudaUserObject_t object, int count,
                                           unsigned int flags) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (graph == nullptr || object == nullptr || count == 0)
    return cudaErrorInvalidValue;
  return deviceResult(device->changeGraphUserObject(graph, object, count, flags));
}

cudaError_t Runtime::deviceGraphMemAttribute(int ordinal, int attribute, void* value, bool set) {
  Device* device = nullptr;
  if (cudaError_t error = deviceByOrdinal(ordinal, &device); error != cudaSuccess)
    return error;
  if (value == nullptr || !validGraphMemAttribute(attribute))
    return cudaErrorInvalidValue;
  return deviceResult(
      device->graphMemAttribute(static_cast<cudaGraphMemAttributeType>(attribute), value, set));
}

cudaError_t Runtime::deviceGraphMemTrim(int ordinal) {
  Device* device = nullptr;
  if (cudaError_t error = deviceByOrdinal(ordinal, &device); error != cudaSuccess)
    return error;
  return deviceResult(device->trimGraphMemory());
}

} // namespace ocelot::runtime
