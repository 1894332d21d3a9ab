#pragma once

#include "runtime/core/Stream.h"
#include "runtime/driver/DriverApi.h"

#include <memory>

namespace ocelot::runtime::driver {

/// A stream of a GPU: the CUstream is the handle (the special handles 0, CU_STREAM_LEGACY and
/// CU_STREAM_PER_THREAD mean to the driver what they mean to the Runtime API). The driver keeps its
/// state; the object only calls it.
class DriverStream final : public Stream {
public:
  DriverStream(const DriverApi& api, CUstream stream) : Stream(stream), api_(api) {}

  cudaError_t synchronize() override;
  cudaError_t query() override;
  cudaError_t waitEvent(Event& event, unsigned int flags) override;
  cudaError_t launchHostFunction(cudaHostFn_t function, void* userData) override;
  cudaError_t flags(unsigned int* flags) override;
  cudaError_t priority(int* priority) override;
  cudaError_t id(unsigned long long* id) override;
  cudaError_t device(int* ordinal) override;
  cudaError_t attribute(cudaLaunchAttributeID id, cudaLaunchAttributeValue* value) override;
  cudaError_t setAttribute(cudaLaunchAttributeID id,
                           const cudaLaunchAttributeValue* value) override;
  cudaError_t copyAttributesFrom(Stream& source) override;
  cudaError_t attachMemory(void* pointer, size_t bytes, unsigned int flags) override;
  cudaError_t beginCapture(cudaStreamCaptureMode mode) override;
  cudaError_t beginCaptureToGraph(Graph& graph, const cudaGraphNode_t* dependencies,
                                  const cudaGraphEdgeData* edges, size_t count,
                                  cudaStreamCaptureMode mode) override;
  cudaError_t endCapture(cudaGraph_t* graph) override;
  cudaError_t captureStatus(cudaStreamCaptureStatus* status) override;
  cudaError_t captureInfo(cudaStreamCaptureStatus* status, unsigned long long* id,
                          cudaGraph_t* graph, const cudaGraphNode_t** dependencies,
                          const cudaGraphEdgeData** edges, size_t* count) override;
  cudaError_t updateCaptureDependencies(cudaGraphNode_t* dependencies,
                                        const cudaGraphEdgeData* edges, size_t count,
                                        unsigned int flags) override;

private:
  const DriverApi& api_;
};

/// A GPU's streams. A CUstream the table does not know (made with cuStreamCreate) is wrapped when
/// it is first seen.
class DriverStreams final : public Streams {
public:
  explicit DriverStreams(const DriverApi& api);

  cudaError_t create(unsigned int flags, int priority, Stream** stream) override;
  cudaError_t destroy(Stream& stream) override;
  cudaError_t priorityRange(int* least, int* greatest) override;
  cudaError_t exchangeCaptureMode(cudaStreamCaptureMode* mode) override;

protected:
  Stream& perThreadStream() override { return perThread_; }
  Stream* adopt(cudaStream_t handle) override;

private:
  const DriverApi& api_;
  DriverStream null_, legacy_, perThread_;
};

} // namespace ocelot::runtime::driver
