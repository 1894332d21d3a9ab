#pragma once

// The bodies of the stream, event and external semaphore calls that have a per-thread default
// stream variant (_ptsz): StreamApi.cpp, EventApi.cpp and ExternalResourceApi.cpp define them and
// call them with the application's stream, PerThreadDefaultStreamApi.cpp with perThread(stream).

#include <cuda_runtime_api.h>

#include <driver_types.h>

namespace ocelot::runtime::api {

cudaError_t eventRecord(cudaEvent_t event, cudaStream_t stream, unsigned int flags);

cudaError_t signalExternalSemaphores(const cudaExternalSemaphore_t* semaphores,
                                     const cudaExternalSemaphoreSignalParams* params,
                                     unsigned int count, cudaStream_t stream);
cudaError_t waitExternalSemaphores(const cudaExternalSemaphore_t* semaphores,
                                   const cudaExternalSemaphoreWaitParams* params,
                                   unsigned int count, cudaStream_t stream);

cudaError_t streamSynchronize(cudaStream_t stream);
cudaError_t streamQuery(cudaStream_t stream);
cudaError_t streamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags);
cudaError_t streamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void* userData,
                              unsigned int flags);
cudaError_t launchHostFunction(cudaStream_t stream, cudaHostFn_t function, void* userData);
cudaError_t streamAttachMemory(cudaStream_t stream, void* pointer, size_t bytes,
                               unsigned int flags);
cudaError_t streamGetFlags(cudaStream_t stream, unsigned int* flags);
cudaError_t streamGetPriority(cudaStream_t stream, int* priority);
cudaError_t streamGetId(cudaStream_t stream, unsigned long long* id);
cudaError_t streamGetDevice(cudaStream_t stream, int* ordinal);
cudaError_t streamGetAttribute(cudaStream_t stream, int attribute, cudaLaunchAttributeValue* value);
cudaError_t streamSetAttribute(cudaStream_t stream, int attribute,
                               const cudaLaunchAttributeValue* value);
cudaError_t streamCopyAttributes(cudaStream_t destination, cudaStream_t source);
cudaError_t streamBeginCapture(cudaStream_t stream, int mode);
cudaError_t streamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph,
                                      const cudaGraphNode_t* dependencies,
                                      const cudaGraphEdgeData* edges, size_t count, int mode);
cudaError_t streamEndCapture(cudaStream_t stream, cudaGraph_t* graph);
cudaError_t streamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus* status);
cudaError_t streamGetCaptureInfo(cudaStream_t stream, cudaStreamCaptureStatus* status,
                                 unsigned long long* id, cudaGraph_t* graph,
                                 const cudaGraphNode_t** dependencies,
                                 const cudaGraphEdgeData** edges, size_t* count);
cudaError_t streamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t* dependencies,
                                            const cudaGraphEdgeData* edges, size_t count,
                                            unsigned int flags);

} // namespace ocelot::runtime::api
