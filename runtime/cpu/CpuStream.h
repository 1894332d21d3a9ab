#pragma once

#include "runtime/core/Stream.h"
#include "runtime/cpu/CpuEvent.h"
#include "runtime/cpu/StreamCapture.h"
#include "runtime/cpu/StreamQueue.h"

#include <driver_types.h>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace ocelot::runtime::cpu {

class CpuDevice;
class CpuStreams;
struct GraphNode;

/// A stream of the CPU device: a StreamQueue (a FIFO of operations run in order by a host thread of
/// its own) and what the device's stream-ordered calls need around it. The streams of handle 0 and
/// cudaStreamLegacy share the legacy queue.
///
/// Every stream-ordered call (launch, copy, fill, host function, event record and wait,
/// stream-ordered allocation and free, graph launch) is validated on the calling thread and then
/// either becomes a graph node (while the stream is captured) or is queued here.
class CpuStream final : public Stream {
public:
  CpuStream(CpuDevice& device, cudaStream_t handle, std::shared_ptr<StreamQueue> queue);

  StreamQueue& queue() { return *queue_; }
  const std::shared_ptr<StreamQueue>& sharedQueue() const { return queue_; }
  bool legacy() const { return queue_->kind() == StreamQueue::Kind::Legacy; }
  bool blocking() const { return queue_->blocking(); }

  // --- Stream --------------------------------------------------------------------------------
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

  // --- What the device's stream-ordered calls use ----------------------------------------------
  /// The usual shape of stream-ordered work: while the stream is captured, the graph node
  /// `node()` makes (a synchronous call cannot be captured: it invalidates the capture);
  /// otherwise `run` queued after the stream's earlier work, and waited for unless `async`.
  cudaError_t submit(std::function<void()> run, bool async,
                     const std::function<cudaGraphNodeParams()>& node);
  /// Queues `run` after `after` and the stream's earlier work (with the legacy default stream's
  /// implicit dependencies) and returns its completion. `run` is skipped once the device faulted
  /// unless `evenAfterFault`.
  CompletionPtr enqueue(std::function<void()> run, std::vector<CompletionPtr> after = {},
                        bool evenAfterFault = false);
  /// Queues `run` and waits for it (and writes printf output): a synchronous call.
  cudaError_t runSynchronously(std::function<void()> run);

  /// Whether the stream is being captured (or takes part in a capture).
  bool capturing();
  /// While the stream is captured: adds a node made from `params` after its current dependencies
  /// (returned in `*node`); otherwise does nothing. cudaErrorStreamCaptureInvalidated once the
  /// capture is invalidated.
  cudaError_t capture(const cudaGraphNodeParams& params, GraphNode** node = nullptr);
  /// A call that would synchronize with a capturing stream (a synchronous copy, a query): it
  /// invalidates the capture and fails with cudaErrorStreamCaptureUnsupported.
  cudaError_t refuseDuringCapture();
  /// The legacy stream cannot take work while a blocking stream is captured (that work would make
  /// the capture depend on it): invalidates such captures.
  cudaError_t checkLegacyDuringCapture();
  /// An event recorded while the stream is captured: the event stands for the stream's position in
  /// the capture (and with cudaEventRecordExternal becomes a node). Nothing when the stream is not
  /// captured after all.
  std::optional<cudaError_t> captureEventRecord(CpuEvent& event, unsigned int flags);
  /// A wait for an event recorded in a capture, or while the stream is captured: joins, extends or
  /// refuses the capture. Nothing when neither is captured.
  std::optional<cudaError_t> captureEventWait(const CpuEvent::Record& record, cudaEvent_t event,
                                              unsigned int flags);
  /// The stream goes away: its capture is invalidated (and ended when it began it).
  void forgetCapture();
  /// The stream's part in a capture, null when it is not capturing (under the graphs' mutex).
  CaptureStream* captureState() { return capture_ ? &*capture_ : nullptr; }
  std::optional<CaptureStream>& captureSlot() { return capture_; }

private:
  CpuDevice& device_;
  std::shared_ptr<StreamQueue> queue_;
  /// Guarded by the device's graphs (CpuGraphs::mutex), like every capture.
  std::optional<CaptureStream> capture_;
};

/// The CPU device's streams: the legacy default stream, one per-thread default stream per host
/// thread and the created ones, and the legacy stream's implicit synchronization: an operation on
/// it waits for every blocking stream's last operation, an operation on a blocking stream for its
/// last one.
class CpuStreams final : public Streams {
public:
  explicit CpuStreams(CpuDevice& device);
  ~CpuStreams() override;

  cudaError_t create(unsigned int flags, int priority, Stream** stream) override;
  cudaError_t destroy(Stream& stream) override;
  cudaError_t priorityRange(int* least, int* greatest) override;
  cudaError_t exchangeCaptureMode(cudaStreamCaptureMode* mode) override;

  ProgressSignal& progress() { return progress_; }
  /// See CpuStream::enqueue.
  CompletionPtr enqueue(CpuStream& stream, std::function<void()> run,
                        std::vector<CompletionPtr> after, bool evenAfterFault);
  /// What synchronizing `stream` waits for: its last operation, and for the legacy stream the last
  /// operation of every blocking stream too.
  std::vector<CompletionPtr> pendingOf(CpuStream& stream);
  /// Waits until every completion is done.
  void waitAll(const std::vector<CompletionPtr>& completions);
  /// Waits for all work of the device (not from a stream's own thread).
  void drainAll();
  /// A device reset: the created streams go (their work done).
  void reset();

protected:
  Stream& perThreadStream() override;

private:
  /// Calls `visit(stream)` for every stream but the legacy ones (under mutex_).
  template <class Visit> void forEachOther(Visit visit);

  CpuDevice& device_;
  ProgressSignal progress_;
  /// Guards the per-thread and retired streams and is held while an operation is queued, so that
  /// the legacy stream's implicit dependencies come from one consistent picture.
  std::mutex mutex_;
  std::unique_ptr<CpuStream> null_, legacy_;
  std::map<std::thread::id, std::unique_ptr<CpuStream>> perThread_;
  /// Streams destroyed while work was pending: the work still runs (as in CUDA).
  std::vector<std::unique_ptr<Stream>> retired_;
  /// Streams a device reset took the handles of: kept (idle) until the device goes, since another
  /// thread's launch racing the reset may still hold one.
  std::vector<std::unique_ptr<Stream>> reset_;
  unsigned long long nextId_ = 16;
};

} // namespace ocelot::runtime::cpu
