#pragma once

#include <driver_types.h>
#include <optional>

namespace ocelot::runtime {

/// The typed graph-node parameter structs of the Runtime API (cudaKernelNodeParams,
/// cudaMemsetParams,
/// ...) as the generic cudaGraphNodeParams every graph call reaches the runtime in, and back.
/// Null input gives no parameters (the caller reports cudaErrorInvalidValue).
namespace graph_params {

std::optional<cudaGraphNodeParams> kernel(const cudaKernelNodeParams* params);
std::optional<cudaGraphNodeParams> memcpy(const cudaMemcpy3DParms* params);
/// A 1D copy of `bytes` bytes (cudaGraphAddMemcpyNode1D and the symbol forms).
cudaGraphNodeParams memcpy1D(void* destination, const void* source, size_t bytes,
                             cudaMemcpyKind kind);
std::optional<cudaGraphNodeParams> memset(const cudaMemsetParams* params);
std::optional<cudaGraphNodeParams> host(const cudaHostNodeParams* params);
cudaGraphNodeParams childGraph(cudaGraph_t graph);
cudaGraphNodeParams empty();
cudaGraphNodeParams eventRecord(cudaEvent_t event);
cudaGraphNodeParams eventWait(cudaEvent_t event);
std::optional<cudaGraphNodeParams> memAlloc(const cudaMemAllocNodeParams* params);
cudaGraphNodeParams memFree(void* pointer);
std::optional<cudaGraphNodeParams>
externalSemaphoresSignal(const cudaExternalSemaphoreSignalNodeParams* params);
std::optional<cudaGraphNodeParams>
externalSemaphoresWait(const cudaExternalSemaphoreWaitNodeParams* params);

void toKernel(const cudaGraphNodeParams& params, cudaKernelNodeParams* out);
void toMemset(const cudaGraphNodeParams& params, cudaMemsetParams* out);
void toHost(const cudaGraphNodeParams& params, cudaHostNodeParams* out);
void toMemAlloc(const cudaGraphNodeParams& params, cudaMemAllocNodeParams* out);
void toExternalSemaphoresSignal(const cudaGraphNodeParams& params,
                                cudaExternalSemaphoreSignalNodeParams* out);
void toExternalSemaphoresWait(const cudaGraphNodeParams& params,
                              cudaExternalSemaphoreWaitNodeParams* out);

} // namespace graph_params
} // namespace ocelot::runtime
