#include "runtime/core/GraphNodeParams.h"

#include <cstring>

namespace ocelot::runtime::graph_params {
namespace {

/// Generic parameters of one type with every other byte zero, as the driver requires.
cudaGraphNodeParams ofType(cudaGraphNodeType type) {
  // Aggregate initialization zeroes the padding union (the type has no default constructor).
  cudaGraphNodeParams params = {};
  params.type = type;
  return params;
}

} // namespace

std::optional<cudaGraphNodeParams> kernel(const cudaKernelNodeParams* params) {
  if (params == nullptr)
    return std::nullopt;
  cudaGraphNodeParams generic = ofType(cudaGraphNodeTypeKernel);
  generic.kernel.func = params->func;
  generic.kernel.gridDim = params->gridDim;
  generic.kernel.blockDim = params->blockDim;
  generic.kernel.sharedMemBytes = params->sharedMemBytes;
  generic.kernel.kernelParams = params->kernelParams;
  generic.kernel.extra = params->extra;
  return generic;
}

std::optional<cudaGraphNodeParams> memcpy(const cudaMemcpy3DParms* params) {
  if (params == nullptr)
    return std::nullopt;
  cudaGraphNodeParams generic = ofType(cudaGraphNodeTypeMemcpy);
  generic.memcpy.copyParams = *params;
  return generic;
}

cudaGraphNodeParams memcpy1D(void* destination, const void* source, size_t bytes,
                             cudaMemcpyKind kind) {
  cudaGraphNodeParams generic = ofType(cudaGraphNodeTypeMemcpy);
  cudaMemcpy3DParms& copy = generic.memcpy.copyParams;
  copy.srcPtr = cudaPitchedPtr{const_cast<void*>(source), bytes, bytes, 1};
  copy.dstPtr = cudaPitchedPtr{destination, bytes, bytes, 1};
  copy.extent = cudaExtent{bytes, 1, 1};
  copy.kind = kind;
  return generic;
}

std::optional<cudaGraphNodeParams> memset(const cudaMemsetParams* params) {
  if (params == nullptr)
    return std::nullopt;
  cudaGraphNodeParams generic = ofType(cudaGraphNodeTypeMemset);
  generic.memset.dst = params->dst;
  generic.memset.pitch = params->pitch;
  generic.memset.value = params->value;
  generic.memset.elementSize = params->elementSize;
  generic.memset.width = params->width;
  generic.memset.height = params->height;
  return generic;
}

std::optional<cudaGraphNodeParams> host(const cudaHostNodeParams* params) {
  if (params == nullptr)
    return std::nullopt;
  cudaGraphNodeParams generic = ofType(cudaGraphNodeTypeHost);
  generic.host.fn = params->fn;
  generic.host.userData = params->userData;
  return generic;
}

std::optional<cudaGraphNodeParams>
externalSemaphoresSignal(const cudaExternalSemaphoreSignalNodeParams* params) {
  if (params == nullptr)
    return std::nullopt;
  cudaGraphNodeParams generic = ofType(cudaGraphNodeTypeExtSemaphoreSignal);
  generic.extSemSignal.extSemArray = params->extSemArray;
  generic.extSemSignal.paramsArray = params->paramsArray;
  generic.extSemSignal.numExtSems = params->numExtSems;
  return generic;
}

std::optional<cudaGraphNodeParams>
externalSemaphoresWait(const cudaExternalSemaphoreWaitNodeParams* params) {
  if (params == nullptr)
    return std::nullopt;
  cudaGraphNodeParams generic = ofType(cudaGraphNodeTypeExtSemaphoreWait);
  generic.extSemWait.extSemArray = params->extSemArray;
  generic.extSemWait.paramsArray = params->paramsArray;
  generic.extSemWait.numExtSems = params->numExtSems;
  return generic;
}

cudaGraphNodeParams childGraph(cudaGraph_t graph) {
  cudaGraphNodeParams generic = ofType(cudaGraphNodeTypeGraph);
  generic.graph.graph = graph;
  return generic;
}

cudaGraphNodeParams empty() {
  return ofType(cudaGraphNodeTypeEmpty);
}

cudaGraphNodeParams eventRecord(cudaEvent_t event) {
  cudaGraphNodeParams generic = ofType(cudaGraphNodeTypeEventRecord);
  generic.eventRecord.event = event;
  return generic;
}

cudaGraphNodeParams eventWait(cudaEvent_t event) {
  cudaGraphNodeParams generic = ofType(cudaGraphNodeTypeWaitEvent);
  generic.eventWait.event = event;
  return generic;
}

std::optional<cudaGraphNodeParams> memAlloc(const cudaMemAllocNodeParams* params) {
  if (params == nullptr)
    return std::nullopt;
  cudaGraphNodeParams generic = ofType(cudaGraphNodeTypeMemAlloc);
  generic.alloc.poolProps = params->poolProps;
  generic.alloc.accessDescs = params->accessDescs;
  generic.alloc.accessDescCount = params->accessDescCount;
  generic.alloc.bytesize = params->bytesize;
  generic.alloc.dptr = params->dptr;
  return generic;
}

cudaGraphNodeParams memFree(void* pointer) {
  cudaGraphNodeParams generic = ofType(cudaGraphNodeTypeMemFree);
  generic.free.dptr = pointer;
  return generic;
}

void toKernel(const cudaGraphNodeParams& params, cudaKernelNodeParams* out) {
  out->func = params.kernel.func;
  out->gridDim = params.kernel.gridDim;
  out->blockDim = params.kernel.blockDim;
  out->sharedMemBytes = params.kernel.sharedMemBytes;
  out->kernelParams = params.kernel.kernelParams;
  out->extra = params.kernel.extra;
}

void toMemset(const cudaGraphNodeParams& params, cudaMemsetParams* out) {
  out->dst = params.memset.dst;
  out->pitch = params.memset.pitch;
  out->value = params.memset.value;
  out->elementSize = params.memset.elementSize;
  out->width = params.memset.width;
  out->height = params.memset.height;
}

void toHost(const cudaGraphNodeParams& params, cudaHostNodeParams* out) {
  out->fn = params.host.fn;
  out->userData = params.host.userData;
}

void toExternalSemaphoresSignal(const cudaGraphNodeParams& params,
                                cudaExternalSemaphoreSignalNodeParams* out) {
  out->extSemArray = params.extSemSignal.extSemArray;
  out->paramsArray = params.extSemSignal.paramsArray;
  out->numExtSems = params.extSemSignal.numExtSems;
}

void toExternalSemaphoresWait(const cudaGraphNodeParams& params,
                              cudaExternalSemaphoreWaitNodeParams* out) {
  out->extSemArray = params.extSemWait.extSemArray;
  out->paramsArray = params.extSemWait.paramsArray;
  out->numExtSems = params.extSemWait.numExtSems;
}

void toMemAlloc(const cudaGraphNodeParams& params, cudaMemAllocNodeParams* out) {
  out->poolProps = params.alloc.poolProps;
  out->accessDescs = params.alloc.accessDescs;
  out->accessDescCount = params.alloc.accessDescCount;
  out->bytesize = params.alloc.bytesize;
  out->dptr = params.alloc.dptr;
}

} // namespace ocelot::runtime::graph_params
