// The bodies of the graph calls (GraphCalls.h): arguments checked, handles resolved through the
// Scope, one call on the graph, the executable graph or the device's Graphs. Kernel nodes reach the
// device with its function; the runtime translates the application's host stubs and cudaKernel_t
// handles there and back.

#include "runtime/api/GraphCalls.h"

#include "runtime/api/ApiBoundary.h"

#include <cstring>

namespace ocelot::runtime::api {
namespace {

bool validLaunchAttribute(int attribute) {
  return attribute > cudaLaunchAttributeIgnore &&
         attribute <= cudaLaunchAttributeNvlinkUtilCentricScheduling;
}

bool validGraphMemAttribute(int attribute) {
  return attribute >= cudaGraphMemAttrUsedMemCurrent &&
         attribute <= cudaGraphMemAttrReservedMemHigh;
}

/// Generic node parameters with a kernel's function translated for the opened device.
cudaError_t forDevice(Scope& scope, const cudaGraphNodeParams& params,
                      cudaGraphNodeParams* translated) {
  return scope.runtime().deviceNodeParams(params, scope.device(), scope.ordinal(), translated);
}

} // namespace

cudaError_t graphCreate(cudaGraph_t* graph, unsigned int flags) {
  return inCurrentDevice([&](Scope& scope) {
    if (graph == nullptr || flags != 0)
      return cudaErrorInvalidValue;
    Graph* created = nullptr;
    cudaError_t error = scope.graphs().create(flags, &created);
    if (error == cudaSuccess)
      *graph = created->handle();
    return error;
  });
}

cudaError_t graphDestroy(cudaGraph_t graph) {
  return inCurrentDevice([&](Scope& scope) {
    Graph& destroyed = scope.graph(graph);
    return scope.graphs().destroy(destroyed);
  });
}

cudaError_t graphClone(cudaGraph_t* clone, cudaGraph_t graph) {
  return inCurrentDevice([&](Scope& scope) {
    if (clone == nullptr || graph == nullptr)
      return cudaErrorInvalidValue;
    Graph* copy = nullptr;
    cudaError_t error = scope.graph(graph).clone(&copy);
    if (error == cudaSuccess)
      *clone = copy->handle();
    return error;
  });
}

cudaError_t graphAddNode(cudaGraphNode_t* node, cudaGraph_t graph,
                         const cudaGraphNode_t* dependencies, const cudaGraphEdgeData* edges,
                         size_t count, cudaGraphNodeParams* params) {
  return inCurrentDevice([&](Scope& scope) {
    if (node == nullptr || graph == nullptr || params == nullptr ||
        (count != 0 && dependencies == nullptr))
      return cudaErrorInvalidValue;
    cudaGraphNodeParams translated = {};
    if (cudaError_t error = forDevice(scope, *params, &translated); error != cudaSuccess)
      return error;
    cudaError_t error = scope.graph(graph).addNode(node, dependencies, edges, count, &translated);
    // Outputs of node creation (the allocation of a mem-alloc node, the body graphs of a
    // conditional node) go back to the application's structure.
    if (error == cudaSuccess) {
      if (translated.type == cudaGraphNodeTypeMemAlloc)
        params->alloc.dptr = translated.alloc.dptr;
      if (translated.type == cudaGraphNodeTypeConditional)
        params->conditional.phGraph_out = translated.conditional.phGraph_out;
    }
    return error;
  });
}

cudaError_t graphNodeGetParams(cudaGraphNode_t node, cudaGraphNodeParams* params, int expected) {
  return inCurrentDevice([&](Scope& scope) {
    if (node == nullptr || params == nullptr)
      return cudaErrorInvalidValue;
    Graphs& graphs = scope.graphs();
    if (expected >= 0) {
      cudaGraphNodeType type{};
      if (cudaError_t error = graphs.nodeType(node, &type); error != cudaSuccess)
        return error;
      if (type != expected)
        return cudaErrorInvalidValue;
    }
    if (cudaError_t error = graphs.nodeParams(node, params); error != cudaSuccess)
      return error;
    scope.runtime().applicationNodeParams(params);
    return cudaSuccess;
  });
}

cudaError_t graphNodeSetParams(cudaGraphNode_t node, const cudaGraphNodeParams* params) {
  return inCurrentDevice([&](Scope& scope) {
    if (node == nullptr || params == nullptr)
      return cudaErrorInvalidValue;
    cudaGraphNodeParams translated = {};
    if (cudaError_t error = forDevice(scope, *params, &translated); error != cudaSuccess)
      return error;
    return scope.graphs().setNodeParams(node, &translated);
  });
}

cudaError_t graphExecNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                   const cudaGraphNodeParams* params) {
  return inCurrentDevice([&](Scope& scope) {
    if (exec == nullptr || node == nullptr || params == nullptr)
      return cudaErrorInvalidValue;
    cudaGraphNodeParams translated = {};
    if (cudaError_t error = forDevice(scope, *params, &translated); error != cudaSuccess)
      return error;
    return scope.exec(exec).setNodeParams(node, &translated);
  });
}

cudaError_t graphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType* type) {
  return inCurrentDevice([&](Scope& scope) {
    if (node == nullptr || type == nullptr)
      return cudaErrorInvalidValue;
    return scope.graphs().nodeType(node, type);
  });
}

cudaError_t graphGetNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, size_t* count,
                          bool rootsOnly) {
  return inCurrentDevice([&](Scope& scope) {
    if (graph == nullptr || count == nullptr)
      return cudaErrorInvalidValue;
    return scope.graph(graph).nodes(nodes, count, rootsOnly);
  });
}

cudaError_t graphGetEdges(cudaGraph_t graph, cudaGraphNode_t* from, cudaGraphNode_t* to,
                          cudaGraphEdgeData* edges, size_t* count) {
  return inCurrentDevice([&](Scope& scope) {
    if (graph == nullptr || count == nullptr || ((from == nullptr) != (to == nullptr)))
      return cudaErrorInvalidValue;
    return scope.graph(graph).edges(from, to, edges, count);
  });
}

cudaError_t graphNodeGetNeighbours(cudaGraphNode_t node, cudaGraphNode_t* nodes,
                                   cudaGraphEdgeData* edges, size_t* count, bool dependents) {
  return inCurrentDevice([&](Scope& scope) {
    if (node == nullptr || count == nullptr)
      return cudaErrorInvalidValue;
    return scope.graphs().neighbours(node, nodes, edges, count, dependents);
  });
}

cudaError_t graphChangeDependencies(cudaGraph_t graph, const cudaGraphNode_t* from,
                                    const cudaGraphNode_t* to, const cudaGraphEdgeData* edges,
                                    size_t count, bool add) {
  return inCurrentDevice([&](Scope& scope) {
    if (graph == nullptr || (count != 0 && (from == nullptr || to == nullptr)))
      return cudaErrorInvalidValue;
    for (size_t i = 0; i < count; ++i)
      if (from[i] == nullptr || to[i] == nullptr)
        return cudaErrorInvalidValue;
    return scope.graph(graph).changeDependencies(from, to, edges, count, add);
  });
}

cudaError_t graphDestroyNode(cudaGraphNode_t node) {
  return inCurrentDevice([&](Scope& scope) {
    return node == nullptr ? cudaErrorInvalidValue : scope.graphs().destroyNode(node);
  });
}

cudaError_t graphNodeFindInClone(cudaGraphNode_t* cloned, cudaGraphNode_t node, cudaGraph_t clone) {
  return inCurrentDevice([&](Scope& scope) {
    if (cloned == nullptr || node == nullptr || clone == nullptr)
      return cudaErrorInvalidValue;
    return scope.graph(clone).findClonedNode(node, cloned);
  });
}

cudaError_t graphNodeSetEnabled(cudaGraphExec_t exec, cudaGraphNode_t node, unsigned int enabled) {
  return inCurrentDevice([&](Scope& scope) {
    if (exec == nullptr || node == nullptr)
      return cudaErrorInvalidValue;
    return scope.exec(exec).setNodeEnabled(node, enabled);
  });
}

cudaError_t graphNodeGetEnabled(cudaGraphExec_t exec, cudaGraphNode_t node, unsigned int* enabled) {
  return inCurrentDevice([&](Scope& scope) {
    if (exec == nullptr || node == nullptr || enabled == nullptr)
      return cudaErrorInvalidValue;
    return scope.exec(exec).nodeEnabled(node, enabled);
  });
}

cudaError_t graphKernelNodeGetAttribute(cudaGraphNode_t node, int attribute,
                                        cudaLaunchAttributeValue* value) {
  return inCurrentDevice([&](Scope& scope) {
    if (node == nullptr || value == nullptr || !validLaunchAttribute(attribute))
      return cudaErrorInvalidValue;
    return scope.graphs().kernelNodeAttribute(node, static_cast<cudaLaunchAttributeID>(attribute),
                                              value);
  });
}

cudaError_t graphKernelNodeSetAttribute(cudaGraphNode_t node, int attribute,
                                        const cudaLaunchAttributeValue* value) {
  return inCurrentDevice([&](Scope& scope) {
    if (node == nullptr || value == nullptr || !validLaunchAttribute(attribute))
      return cudaErrorInvalidValue;
    return scope.graphs().setKernelNodeAttribute(
        node, static_cast<cudaLaunchAttributeID>(attribute), value);
  });
}

cudaError_t graphKernelNodeCopyAttributes(cudaGraphNode_t destination, cudaGraphNode_t source) {
  return inCurrentDevice([&](Scope& scope) {
    if (destination == nullptr || source == nullptr)
      return cudaErrorInvalidValue;
    return scope.graphs().copyKernelNodeAttributes(destination, source);
  });
}

cudaError_t graphConditionalHandleCreate(cudaGraphConditionalHandle* handle, cudaGraph_t graph,
                                         unsigned int defaultValue, unsigned int flags) {
  return inCurrentDevice([&](Scope& scope) {
    if (handle == nullptr || graph == nullptr ||
        (flags & ~static_cast<unsigned int>(cudaGraphCondAssignDefault)) != 0)
      return cudaErrorInvalidValue;
    return scope.graph(graph).createConditionalHandle(handle, defaultValue, flags);
  });
}

cudaError_t graphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph,
                             cudaGraphInstantiateParams* params) {
  return inCurrentDevice([&](Scope& scope) {
    if (exec == nullptr || graph == nullptr || params == nullptr)
      return cudaErrorInvalidValue;
    // A graph the device does not know still reports a failed instantiation.
    Graph* instantiated = scope.graphs().find(graph);
    if (instantiated == nullptr) {
      params->result_out = cudaGraphInstantiateError;
      return cudaErrorInvalidValue;
    }
    GraphExec* created = nullptr;
    cudaError_t error = instantiated->instantiate(params, &created);
    if (error == cudaSuccess)
      *exec = created->handle();
    return error;
  });
}

cudaError_t graphExecDestroy(cudaGraphExec_t exec) {
  return inCurrentDevice([&](Scope& scope) {
    GraphExec& destroyed = scope.exec(exec);
    scope.runtime().forgetGraphExec(destroyed);
    return scope.graphs().destroy(destroyed);
  });
}

cudaError_t graphExecGetFlags(cudaGraphExec_t exec, unsigned long long* flags) {
  return inCurrentDevice([&](Scope& scope) {
    if (exec == nullptr || flags == nullptr)
      return cudaErrorInvalidValue;
    return scope.exec(exec).flags(flags);
  });
}

cudaError_t graphExecUpdate(cudaGraphExec_t exec, cudaGraph_t graph,
                            cudaGraphExecUpdateResultInfo* info) {
  return inCurrentDevice([&](Scope& scope) {
    if (exec == nullptr || graph == nullptr || info == nullptr)
      return cudaErrorInvalidValue;
    // Handles the device does not know still report a failed update.
    GraphExec* updated = scope.graphs().find(exec);
    Graph* from = scope.graphs().find(graph);
    if (updated == nullptr || from == nullptr) {
      info->result = cudaGraphExecUpdateError;
      info->errorNode = info->errorFromNode = nullptr;
      return cudaErrorInvalidValue;
    }
    return updated->update(*from, info);
  });
}

cudaError_t graphLaunch(cudaGraphExec_t exec, cudaStream_t stream) {
  return inCurrentDevice([&](Scope& scope) {
    if (exec == nullptr)
      return cudaErrorInvalidValue;
    Stream& queue = scope.stream(stream);
    return scope.runtime().launchGraph(scope.exec(exec), queue, scope.device(), scope.ordinal());
  });
}

cudaError_t graphUpload(cudaGraphExec_t exec, cudaStream_t stream) {
  return inCurrentDevice([&](Scope& scope) {
    if (exec == nullptr)
      return cudaErrorInvalidValue;
    Stream& queue = scope.stream(stream);
    return scope.exec(exec).upload(queue);
  });
}

cudaError_t graphDebugDotPrint(cudaGraph_t graph, const char* path, unsigned int flags) {
  return inCurrentDevice([&](Scope& scope) {
    if (graph == nullptr || path == nullptr)
      return cudaErrorInvalidValue;
    return scope.graph(graph).print(path, flags);
  });
}

cudaError_t userObjectCreate(cudaUserObject_t* object, void* pointer, cudaHostFn_t destroy,
                             unsigned int count, unsigned int flags) {
  return inCurrentDevice([&](Scope& scope) {
    if (object == nullptr || destroy == nullptr || count == 0 ||
        flags != cudaUserObjectNoDestructorSync)
      return cudaErrorInvalidValue;
    return scope.graphs().createUserObject(object, pointer, destroy, count, flags);
  });
}

cudaError_t userObjectChangeReferences(cudaUserObject_t object, int count) {
  return inCurrentDevice([&](Scope& scope) {
    if (object == nullptr || count == 0)
      return cudaErrorInvalidValue;
    return scope.graphs().changeUserObjectReferences(object, count);
  });
}

cudaError_t graphChangeUserObject(cudaGraph_t graph, cudaUserObject_t object, int count,
                                  unsigned int flags) {
  return inCurrentDevice([&](Scope& scope) {
    if (graph == nullptr || object == nullptr || count == 0)
      return cudaErrorInvalidValue;
    return scope.graph(graph).changeUserObject(object, count, flags);
  });
}

cudaError_t deviceGraphMemAttribute(int device, int attribute, void* value, bool set) {
  Scope scope(runtime());
  Device& selected = scope.device(device);
  if (value == nullptr || !validGraphMemAttribute(attribute))
    return cudaErrorInvalidValue;
  return scope.result(
      Scope::area(selected.graphs())
          .memoryAttribute(static_cast<cudaGraphMemAttributeType>(attribute), value, set));
}

cudaError_t deviceGraphMemTrim(int device) {
  Scope scope(runtime());
  return scope.result(Scope::area(scope.device(device).graphs()).trimMemory());
}

} // namespace ocelot::runtime::api
