#pragma once

#include "runtime/core/HandleTable.h"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <driver_types.h>

namespace ocelot::runtime {

class Event;
class Graph;

/// A stream of a device: work in it runs in order. What the API layer orders on a stream (copies,
/// launches, event records, graph launches, ...) takes the Stream; the calls of this class are the
/// stream's own. Every call answers with the cudaError_t the Runtime API returns for it.
///
/// The handle is what the application holds: 0, cudaStreamLegacy or cudaStreamPerThread for the
/// special streams, the device's own handle for a created one (the CUstream itself on the driver).
class Stream {
public:
  explicit Stream(cudaStream_t handle) : handle_(handle) {}
  virtual ~Stream() = default;
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  cudaStream_t handle() const { return handle_; }

  virtual cudaError_t synchronize() = 0;
  /// cudaSuccess when all work is done, cudaErrorNotReady while some is pending.
  virtual cudaError_t query() = 0;
  /// Later work waits for the event's latest record.
  virtual cudaError_t waitEvent(Event& event, unsigned int flags) = 0;
  /// Runs `function(userData)` on a host thread once earlier work is done; later work waits for it
  /// (cudaLaunchHostFunc; the API builds cudaStreamAddCallback on it). Captured: a host node.
  virtual cudaError_t launchHostFunction(cudaHostFn_t function, void* userData) = 0;

  virtual cudaError_t flags(unsigned int* flags) = 0;
  virtual cudaError_t priority(int* priority) = 0;
  virtual cudaError_t id(unsigned long long* id) = 0;
  /// The ordinal of the device the stream belongs to.
  virtual cudaError_t device(int* ordinal) = 0;
  virtual cudaError_t attribute(cudaLaunchAttributeID id, cudaLaunchAttributeValue* value) = 0;
  virtual cudaError_t setAttribute(cudaLaunchAttributeID id,
                                   const cudaLaunchAttributeValue* value) = 0;
  virtual cudaError_t copyAttributesFrom(Stream& /*source*/) { return cudaErrorNotSupported; }
  /// cudaStreamAttachMemAsync: which processors may touch managed memory while the stream runs.
  virtual cudaError_t attachMemory(void* /*pointer*/, size_t /*bytes*/, unsigned int /*flags*/) {
    return cudaErrorNotSupported;
  }

  // --- Capture into a graph (devices without graphs cannot capture) ------------------------
  virtual cudaError_t beginCapture(cudaStreamCaptureMode /*mode*/) { return cudaErrorNotSupported; }
  virtual cudaError_t beginCaptureToGraph(Graph& /*graph*/, const cudaGraphNode_t* /*dependencies*/,
                                          const cudaGraphEdgeData* /*edges*/, size_t /*count*/,
                                          cudaStreamCaptureMode /*mode*/) {
    return cudaErrorNotSupported;
  }
  virtual cudaError_t endCapture(cudaGraph_t* /*graph*/) { return cudaErrorNotSupported; }
  virtual cudaError_t captureStatus(cudaStreamCaptureStatus* /*status*/) {
    return cudaErrorNotSupported;
  }
  virtual cudaError_t captureInfo(cudaStreamCaptureStatus* /*status*/, unsigned long long* /*id*/,
                                  cudaGraph_t* /*graph*/, const cudaGraphNode_t** /*dependencies*/,
                                  const cudaGraphEdgeData** /*edges*/, size_t* /*count*/) {
    return cudaErrorNotSupported;
  }
  virtual cudaError_t updateCaptureDependencies(cudaGraphNode_t* /*dependencies*/,
                                                const cudaGraphEdgeData* /*edges*/,
                                                size_t /*count*/, unsigned int /*flags*/) {
    return cudaErrorNotSupported;
  }

private:
  const cudaStream_t handle_;
};

/// A device's streams: the special ones and those the application created.
class Streams {
public:
  virtual ~Streams() = default;

  /// cudaStreamCreateWithPriority (flags validated; the priority is clamped to the range).
  virtual cudaError_t create(unsigned int flags, int priority, Stream** stream) = 0;
  /// Work still queued in it completes, as CUDA promises.
  virtual cudaError_t destroy(Stream& stream) = 0;
  /// The least and greatest stream priorities (cudaDeviceGetStreamPriorityRange).
  virtual cudaError_t priorityRange(int* /*least*/, int* /*greatest*/) {
    return cudaErrorNotSupported;
  }
  /// cudaThreadExchangeStreamCaptureMode for the calling thread.
  virtual cudaError_t exchangeCaptureMode(cudaStreamCaptureMode* /*mode*/) {
    return cudaErrorNotSupported;
  }

  /// The stream a handle names: a special stream (cudaStreamPerThread: the calling thread's), a
  /// created one, or null when the device knows none. The launch path passes its thread's cache.
  Stream* find(cudaStream_t handle) {
    if (Stream* special = specialStream(handle))
      return special;
    if (Stream* created = created_.find(handle))
      return created;
    return adopt(handle);
  }
  /// find() through the calling thread's cache: two compares and no lock once the thread has
  /// used the stream (the launch path's lookup).
  Stream* find(cudaStream_t handle, HandleCache& cache) {
    if (cache.handle == handle && cache.generation == created_.generation()) [[likely]]
      return static_cast<Stream*>(cache.object);
    return findAndRemember(handle, cache);
  }

protected:
  /// Set by the device: the streams of handle 0 and cudaStreamLegacy.
  Stream* nullStream_ = nullptr;
  Stream* legacyStream_ = nullptr;
  /// The calling thread's per-thread default stream.
  virtual Stream& perThreadStream() = 0;
  /// A handle the table does not know: devices whose handles also come from elsewhere (the
  /// driver's CUstream made through the driver API) wrap it; others answer null.
  virtual Stream* adopt(cudaStream_t /*handle*/) { return nullptr; }

  HandleTable<Stream> created_;

private:
  Stream* findAndRemember(cudaStream_t handle, HandleCache& cache) {
    if (Stream* special = specialStream(handle)) {
      created_.remember(handle, special, cache);
      return special;
    }
    if (Stream* created = created_.findAndRemember(handle, cache))
      return created;
    return adopt(handle);
  }
  Stream* specialStream(cudaStream_t handle) {
    if (handle == nullptr)
      return nullStream_;
    if (handle == cudaStreamLegacy)
      return legacyStream_;
    if (handle == cudaStreamPerThread)
      return &perThreadStream();
    return nullptr;
  }
};

} // namespace ocelot::runtime
