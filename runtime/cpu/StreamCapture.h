#pragma once

#include "runtime/cpu/GraphBody.h"

#include <atomic>
#include <driver_types.h>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

namespace ocelot::runtime::cpu {

class CpuStream;

/// One stream-capture sequence, from cudaStreamBeginCapture to cudaStreamEndCapture. Streams join
/// it by waiting on an event recorded in it; the origin stream ends it.
struct CaptureSession {
  unsigned long long id = 0;
  GraphBody* graph = nullptr;
  bool ownsGraph = true; ///< BeginCapture made the graph; BeginCaptureToGraph captures into one
  cudaStreamCaptureMode mode = cudaStreamCaptureModeGlobal;
  std::thread::id thread; ///< the thread that began it
  bool invalidated = false;
  const CpuStream* origin = nullptr;
  std::vector<CpuStream*> streams; ///< the streams taking part, the origin first
};

/// A stream taking part in a capture (held by the stream): its sequence and the nodes its next
/// operation depends on (what cudaStreamGetCaptureInfo reports).
struct CaptureStream {
  std::shared_ptr<CaptureSession> session;
  std::vector<cudaGraphNode_t> dependencies;
  std::vector<cudaGraphEdgeData> edges;
};

/// The capture sequences of a device and the rules for "potentially unsafe" calls under the
/// capture modes. Each capturing stream keeps its own CaptureStream (CpuStream::captureState);
/// the registry knows which streams take part in which sequence. Not thread-safe: the device's
/// graphs guard it.
class CaptureRegistry {
public:
  /// Starts a sequence on `stream` (which is not capturing).
  CaptureStream& begin(CpuStream& stream, GraphBody* graph, bool ownsGraph,
                       cudaStreamCaptureMode mode);
  /// Makes `stream` part of `session` with `dependencies` (a fork through an event).
  CaptureStream& join(CpuStream& stream, std::shared_ptr<CaptureSession> session,
                      std::vector<cudaGraphNode_t> dependencies);
  /// Ends `session`: every stream in it stops capturing.
  void end(const CaptureSession& session);
  /// A capturing stream is going away: its sequence is invalidated, and ended when it was the
  /// origin (nothing could end it any more). Returns the ended sequence, if any.
  std::shared_ptr<CaptureSession> forget(CpuStream& stream);
  /// The live sequence with this id, or null.
  std::shared_ptr<CaptureSession> session(unsigned long long id) const;
  /// Whether every stream of `session` other than the origin has been joined back into it: each
  /// of their last nodes is the origin's or an ancestor of one of the origin's.
  bool joined(const CaptureSession& session);
  /// Sessions that capture `graph` (to refuse destroying it meanwhile).
  bool capturesInto(const GraphBody* graph) const;
  /// Ends every sequence (device reset).
  void clear();
  /// Calls `visit(stream, state)` for every capturing stream.
  void forEachStream(const std::function<void(CpuStream&, CaptureStream&)>& visit);

  /// Any capture at all (a fast path for the checks every call makes).
  bool active() const { return active_.load(std::memory_order_acquire) != 0; }
  /// A potentially unsafe call (one that may synchronize implicitly) on the calling thread:
  /// whether the capture modes prohibit it. Sequences that prohibit it are invalidated.
  bool prohibitsUnsafeCall();
  /// The calling thread's mode (cudaThreadExchangeStreamCaptureMode).
  static cudaStreamCaptureMode& threadMode();

private:
  std::map<unsigned long long, std::shared_ptr<CaptureSession>> sessions_;
  std::atomic<int> active_{0};
  unsigned long long nextId_ = 1;
};

} // namespace ocelot::runtime::cpu
