// CpuGraphs: the nodes of CPU-device graphs as they are made (validated, their arguments copied,
// their child graphs and bodies created) and inserted after their dependencies.

#include "runtime/core/CopyRegion.h"
#include "runtime/cpu/CpuDevice.h"
#include "runtime/cpu/CpuGraph.h"

#include <algorithm>
#include <cstring>

namespace ocelot::runtime::cpu {
namespace {

bool validConditional(const cudaConditionalNodeParams& params) {
  switch (params.type) {
  case cudaGraphCondTypeIf:
    return params.size == 1 || params.size == 2;
  case cudaGraphCondTypeWhile:
    return params.size == 1;
  case cudaGraphCondTypeSwitch:
    return params.size >= 1;
  default:
    return false;
  }
}

} // namespace

cudaError_t CpuGraphs::makeNode(GraphBody& graph, const cudaGraphNodeParams& params,
                                std::unique_ptr<GraphNode>* node) {
  auto made = std::make_unique<GraphNode>();
  made->graph = &graph;
  made->params = params;
  switch (params.type) {
  case cudaGraphNodeTypeKernel: {
    const cudaKernelNodeParamsV2& kernel = params.kernel;
    const uint64_t threads = uint64_t{kernel.blockDim.x} * kernel.blockDim.y * kernel.blockDim.z;
    if (threads == 0 || kernel.gridDim.x == 0 || kernel.gridDim.y == 0 || kernel.gridDim.z == 0)
      return cudaErrorInvalidValue;
    std::vector<size_t> offsets, sizes;
    if (cudaError_t error = device_.parameterLayout(kernel.func, &offsets, &sizes);
        error != cudaSuccess)
      return error;
    size_t bytes = 0;
    for (size_t i = 0; i < offsets.size(); ++i)
      bytes = std::max(bytes, offsets[i] + sizes[i]);
    std::vector<std::byte> values(bytes);
    if (kernel.kernelParams != nullptr) {
      for (size_t i = 0; i < offsets.size(); ++i)
        if (kernel.kernelParams[i] != nullptr)
          std::memcpy(values.data() + offsets[i], kernel.kernelParams[i], sizes[i]);
    } else if (kernel.extra != nullptr) {
      // CU_LAUNCH_PARAM_BUFFER_POINTER / _SIZE pairs up to CU_LAUNCH_PARAM_END: the parameter
      // buffer laid out as the kernel expects.
      const void* buffer = nullptr;
      size_t size = 0;
      for (void** entry = kernel.extra; *entry != nullptr; entry += 2) {
        if (*entry == reinterpret_cast<void*>(1))
          buffer = entry[1];
        else if (*entry == reinterpret_cast<void*>(2) && entry[1] != nullptr)
          size = *static_cast<const size_t*>(entry[1]);
        else
          return cudaErrorInvalidValue;
      }
      if (buffer == nullptr || size < bytes)
        return cudaErrorInvalidValue;
      std::memcpy(values.data(), buffer, bytes);
    } else if (!offsets.empty()) {
      return cudaErrorInvalidValue;
    }
    made->arguments = KernelArguments(std::move(values), offsets);
    break;
  }
  case cudaGraphNodeTypeMemcpy: {
    int kind = 0;
    std::memcpy(&kind, &params.memcpy.copyParams.kind, sizeof kind);
    if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault)
      return cudaErrorInvalidValue;
    if (cudaError_t error = copyRegionOf(params.memcpy.copyParams, device_, &made->copy);
        error != cudaSuccess)
      return error;
    if (!device_.cpuCopies().copyable(made->copy))
      return cudaErrorInvalidValue;
    break;
  }
  case cudaGraphNodeTypeMemset: {
    const cudaMemsetParamsV2& fill = params.memset;
    if (fill.dst == nullptr ||
        (fill.elementSize != 1 && fill.elementSize != 2 && fill.elementSize != 4) ||
        (fill.height > 1 && fill.pitch < fill.width * fill.elementSize) ||
        !device_.cpuCopies().fillable(fill))
      return cudaErrorInvalidValue;
    break;
  }
  case cudaGraphNodeTypeHost:
    if (params.host.fn == nullptr)
      return cudaErrorInvalidValue;
    break;
  case cudaGraphNodeTypeGraph: {
    CpuGraph* childGraph = this->graph(params.graph.graph);
    if (childGraph == nullptr)
      return cudaErrorInvalidValue;
    GraphBody* child = &childGraph->body();
    // A child graph cannot own memory (CUDA refuses mem-alloc and mem-free nodes in one).
    bool allocates = false;
    forEachBody(*child, [&](GraphBody& each) {
      for (const auto& inner : each.nodes)
        allocates = allocates || inner->type() == cudaGraphNodeTypeMemAlloc ||
                    inner->type() == cudaGraphNodeTypeMemFree;
    });
    if (allocates)
      return cudaErrorNotSupported;
    made->child = cpu::cloneBody(*child, false);
    made->child->owner = made.get();
    made->child->userObjects.clear();
    break;
  }
  case cudaGraphNodeTypeEventRecord:
  case cudaGraphNodeTypeWaitEvent:
    if (device_.cpuEvents().find(params.type == cudaGraphNodeTypeEventRecord
                                     ? params.eventRecord.event
                                     : params.eventWait.event) == nullptr)
      return cudaErrorInvalidValue;
    break;
  case cudaGraphNodeTypeMemAlloc: {
    const cudaMemAllocNodeParamsV2& alloc = params.alloc;
    if (alloc.bytesize == 0 || alloc.poolProps.allocType != cudaMemAllocationTypePinned ||
        alloc.poolProps.location.type != cudaMemLocationTypeDevice ||
        alloc.poolProps.location.id != 0)
      return cudaErrorInvalidValue;
    DeviceMemory& memory = device_.memory();
    void* block = memory.allocate(alloc.bytesize, DeviceMemory::Kind::Device);
    if (block == nullptr)
      return cudaErrorMemoryAllocation;
    made->allocation = std::make_shared<GraphAllocation>();
    made->allocation->pointer = block;
    made->allocation->bytes = alloc.bytesize;
    made->allocation->release = [this, &memory](void* pointer) {
      {
        std::lock_guard lock(allocationsMutex_);
        allocations_.erase(pointer);
      }
      memory.release(pointer);
    };
    std::lock_guard lock(allocationsMutex_);
    allocations_.insert(block);
    break;
  }
  case cudaGraphNodeTypeMemFree: {
    if (!isAllocation(params.free.dptr))
      return cudaErrorInvalidValue;
    for (const auto& other : graph.root().nodes)
      if (other->type() == cudaGraphNodeTypeMemFree && other->params.free.dptr == params.free.dptr)
        return cudaErrorInvalidValue; // freed twice in one graph
    break;
  }
  case cudaGraphNodeTypeConditional: {
    if (graph.findHandle(params.conditional.handle) == nullptr ||
        !validConditional(params.conditional))
      return cudaErrorInvalidValue;
    for (unsigned int i = 0; i < params.conditional.size; ++i) {
      made->bodies.push_back(std::make_unique<GraphBody>());
      made->bodies.back()->owner = made.get();
    }
    break;
  }
  case cudaGraphNodeTypeEmpty:
    break;
  case cudaGraphNodeTypeExtSemaphoreSignal:
  case cudaGraphNodeTypeExtSemaphoreWait:
    return cudaErrorNotSupported;
  default:
    return cudaErrorInvalidValue;
  }
  made->rebind();
  *node = std::move(made);
  return cudaSuccess;
}

cudaError_t CpuGraphs::insertNode(GraphBody& graph, std::unique_ptr<GraphNode> made,
                                  const cudaGraphNode_t* dependencies,
                                  const cudaGraphEdgeData* edges, size_t count,
                                  GraphNode** inserted) {
  std::vector<GraphNode*> before;
  for (size_t i = 0; i < count; ++i) {
    GraphNode* dependency = node(dependencies[i]);
    if (dependency == nullptr || dependency->graph != &graph ||
        std::find(before.begin(), before.end(), dependency) != before.end())
      return cudaErrorInvalidValue;
    before.push_back(dependency);
  }
  GraphNode* raw = made.get();
  for (size_t i = 0; i < count; ++i) {
    raw->dependencies.push_back(before[i]);
    raw->edges.push_back(edges != nullptr ? edges[i] : cudaGraphEdgeData{});
    before[i]->dependents.push_back(raw);
  }
  graph.nodes.push_back(std::move(made));
  nodes_.insert(raw);
  if (raw->child)
    add(*raw->child);
  for (const auto& body : raw->bodies)
    add(*body);
  *inserted = raw;
  return cudaSuccess;
}

} // namespace ocelot::runtime::cpu
