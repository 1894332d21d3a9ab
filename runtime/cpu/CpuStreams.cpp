// CpuDevice: streams, events and host functions. Every stream is a StreamQueue with a thread of
// its own; the legacy default stream's implicit synchronization is added when work is queued (an
// operation on it waits for every blocking stream's last operation, an operation on a blocking
// stream waits for its last one).

#include "runtime/cpu/CpuDevice.h"

#include <algorithm>
#include <cstring>

namespace ocelot::runtime::cpu {
namespace {

bool isLegacyStream(cudaStream_t stream) {
  return stream == nullptr || stream == cudaStreamLegacy;
}

/// Stream ids of the special handles (created streams count from 16).
constexpr unsigned long long kLegacyStreamId = 1;
constexpr unsigned long long kPerThreadStreamId = 2;

} // namespace

cudaError_t CpuDevice::resolveStream(cudaStream_t stream, StreamQueue** queue) {
  std::lock_guard lock(streamsMutex_);
  if (isLegacyStream(stream)) {
    *queue = legacy_.get();
    return cudaSuccess;
  }
  if (stream == cudaStreamPerThread) {
    std::shared_ptr<StreamQueue>& own = perThread_[std::this_thread::get_id()];
    if (!own)
      own = std::make_shared<StreamQueue>(progress_, StreamQueue::Kind::PerThread, 0, 0,
                                          kPerThreadStreamId);
    *queue = own.get();
    return cudaSuccess;
  }
  auto it = streams_.find(stream);
  if (it == streams_.end())
    return cudaErrorInvalidResourceHandle;
  *queue = it->second.get();
  return cudaSuccess;
}

bool CpuDevice::validStream(cudaStream_t stream) {
  StreamQueue* queue = nullptr;
  return resolveStream(stream, &queue) == cudaSuccess;
}

CompletionPtr CpuDevice::enqueue(StreamQueue& queue, std::function<void()> run,
                                 std::vector<CompletionPtr> after, bool evenAfterFault) {
  StreamOperation operation;
  operation.done = std::make_shared<Completion>(progress_);
  if (run && evenAfterFault)
    operation.run = std::move(run);
  else if (run)
    // After a fault the context is unusable: queued work is dropped, as on a GPU.
    operation.run = [this, run = std::move(run)] {
      if (!faulted())
        run();
    };
  for (CompletionPtr& before : after)
    if (before != nullptr && !before->done())
      operation.after.push_back(std::move(before));
  std::vector<std::shared_ptr<StreamQueue>> finished;
  {
    std::lock_guard lock(streamsMutex_);
    auto follow = [&](StreamQueue& other) {
      if (&other == &queue)
        return;
      if (CompletionPtr last = other.tail(); last != nullptr && !last->done())
        operation.after.push_back(std::move(last));
    };
    if (queue.kind() == StreamQueue::Kind::Legacy) {
      for (auto& [handle, created] : streams_)
        if (created->blocking())
          follow(*created);
      for (auto& [thread, own] : perThread_)
        follow(*own);
      for (auto& retired : retired_)
        if (retired->blocking())
          follow(*retired);
    } else if (queue.blocking()) {
      follow(*legacy_);
    }
    CompletionPtr done = operation.done;
    queue.push(std::move(operation));
    // Destroyed streams whose work is done can go (outside the lock: their threads are joined).
    for (auto it = retired_.begin(); it != retired_.end();)
      if ((*it)->idle()) {
        finished.push_back(std::move(*it));
        it = retired_.erase(it);
      } else {
        ++it;
      }
    return done;
  }
}

std::vector<CompletionPtr> CpuDevice::pendingOf(StreamQueue& queue) {
  std::vector<CompletionPtr> pending;
  std::lock_guard lock(streamsMutex_);
  if (CompletionPtr last = queue.tail())
    pending.push_back(std::move(last));
  if (queue.kind() == StreamQueue::Kind::Legacy) {
    auto add = [&](StreamQueue& other) {
      if (other.blocking())
        if (CompletionPtr last = other.tail())
          pending.push_back(std::move(last));
    };
    for (auto& [handle, created] : streams_)
      add(*created);
    for (auto& [thread, own] : perThread_)
      add(*own);
    for (auto& retired : retired_)
      add(*retired);
  }
  return pending;
}

std::vector<CompletionPtr> CpuDevice::pendingEverywhere() {
  std::vector<CompletionPtr> pending;
  std::lock_guard lock(streamsMutex_);
  auto add = [&](StreamQueue& queue) {
    if (CompletionPtr last = queue.tail())
      pending.push_back(std::move(last));
  };
  add(*legacy_);
  for (auto& [handle, created] : streams_)
    add(*created);
  for (auto& [thread, own] : perThread_)
    add(*own);
  for (auto& retired : retired_)
    add(*retired);
  return pending;
}

void CpuDevice::waitAll(const std::vector<CompletionPtr>& completions) {
  progress_.wait([&] {
    return std::all_of(completions.begin(), completions.end(),
                       [](const CompletionPtr& completion) { return completion->done(); });
  });
}

void CpuDevice::drainAll() {
  // A host function calling into the device from a stream's thread must not wait for itself.
  if (StreamQueue::current() != nullptr)
    return;
  waitAll(pendingEverywhere());
}

cudaError_t CpuDevice::runSynchronously(StreamQueue& queue, std::function<void()> run) {
  CompletionPtr done = enqueue(queue, std::move(run));
  if (StreamQueue::current() == nullptr)
    done->wait();
  flushOutput();
  return sticky();
}

CpuEvent* CpuDevice::findEvent(cudaEvent_t event) {
  auto it = events_.find(event);
  return it != events_.end() ? it->second.get() : nullptr;
}

// --- Streams ------------------------------------------------------------------------------------

cudaError_t CpuDevice::createStream(cudaStream_t* stream, unsigned int flags, int priority) {
  std::lock_guard lock(streamsMutex_);
  auto created = std::make_shared<StreamQueue>(progress_, StreamQueue::Kind::Created, flags,
                                               std::clamp(priority, -5, 0), nextStreamId_++);
  *stream = reinterpret_cast<cudaStream_t>(created.get());
  streams_[created.get()] = std::move(created);
  return cudaSuccess;
}

cudaError_t CpuDevice::destroyStream(cudaStream_t stream) {
  std::shared_ptr<StreamQueue> destroyed;
  if (captures_.active()) {
    // A capturing stream that goes away invalidates its capture (and ends it as its origin).
    std::lock_guard graphLock(graphMutex_);
    if (auto ended = captures_.forget(reinterpret_cast<const StreamQueue*>(stream));
        ended != nullptr && ended->ownsGraph)
      graphs_.destroy(ended->graph);
  }
  {
    std::lock_guard lock(streamsMutex_);
    auto it = streams_.find(stream);
    if (it == streams_.end())
      return cudaErrorInvalidResourceHandle;
    destroyed = std::move(it->second);
    streams_.erase(it);
    // Work still queued completes, as CUDA promises; the stream goes once it has.
    if (!destroyed->idle())
      retired_.push_back(std::move(destroyed));
  }
  return cudaSuccess;
}

cudaError_t CpuDevice::synchronizeStream(cudaStream_t stream) {
  StreamQueue* queue = nullptr;
  if (cudaError_t error = resolveStream(stream, &queue); error != cudaSuccess)
    return error;
  if (capturing(*queue))
    return refuseDuringCapture(*queue);
  if (cudaError_t error = checkLegacyDuringCapture(*queue); error != cudaSuccess)
    return error;
  if (StreamQueue::current() == nullptr)
    waitAll(pendingOf(*queue));
  flushOutput();
  return sticky();
}

cudaError_t CpuDevice::queryStream(cudaStream_t stream) {
  StreamQueue* queue = nullptr;
  if (cudaError_t error = resolveStream(stream, &queue); error != cudaSuccess)
    return error;
  if (capturing(*queue))
    return refuseDuringCapture(*queue);
  for (const CompletionPtr& pending : pendingOf(*queue))
    if (!pending->done())
      return cudaErrorNotReady;
  return sticky();
}

cudaError_t CpuDevice::streamFlags(cudaStream_t stream, unsigned int* flags) {
  StreamQueue* queue = nullptr;
  if (cudaError_t error = resolveStream(stream, &queue); error != cudaSuccess)
    return error;
  *flags = queue->flags();
  return cudaSuccess;
}

cudaError_t CpuDevice::streamPriority(cudaStream_t stream, int* priority) {
  StreamQueue* queue = nullptr;
  if (cudaError_t error = resolveStream(stream, &queue); error != cudaSuccess)
    return error;
  *priority = queue->priority();
  return cudaSuccess;
}

cudaError_t CpuDevice::streamId(cudaStream_t stream, unsigned long long* id) {
  StreamQueue* queue = nullptr;
  if (cudaError_t error = resolveStream(stream, &queue); error != cudaSuccess)
    return error;
  *id = queue->id();
  return cudaSuccess;
}

cudaError_t CpuDevice::streamDevice(cudaStream_t stream, int* ordinal) {
  if (!validStream(stream))
    return cudaErrorInvalidResourceHandle;
  *ordinal = 0;
  return cudaSuccess;
}

cudaError_t CpuDevice::streamAttribute(cudaStream_t stream, cudaLaunchAttributeID id,
                                       cudaLaunchAttributeValue* value) {
  StreamQueue* queue = nullptr;
  if (cudaError_t error = resolveStream(stream, &queue); error != cudaSuccess)
    return error;
  std::memset(value, 0, sizeof *value);
  if (id == cudaLaunchAttributePriority)
    value->priority = queue->priority();
  return cudaSuccess;
}

cudaError_t CpuDevice::setStreamAttribute(cudaStream_t stream, cudaLaunchAttributeID id,
                                          const cudaLaunchAttributeValue* value) {
  StreamQueue* queue = nullptr;
  if (cudaError_t error = resolveStream(stream, &queue); error != cudaSuccess)
    return error;
  if (id == cudaLaunchAttributePriority && queue->kind() == StreamQueue::Kind::Created)
    queue->setPriority(std::clamp(value->priority, -5, 0));
  return cudaSuccess;
}

cudaError_t CpuDevice::launchHostFunction(cudaStream_t stream, cudaHostFn_t hostFunction,
                                          void* userData) {
  StreamQueue* queue = nullptr;
  if (cudaError_t error = resolveStream(stream, &queue); error != cudaSuccess)
    return error;
  if (cudaError_t error = sticky(); error != cudaSuccess)
    return error;
  if (capturing(*queue)) {
    cudaGraphNodeParams params = {};
    params.type = cudaGraphNodeTypeHost;
    params.host.fn = hostFunction;
    params.host.userData = userData;
    return captureNode(*queue, params);
  }
  if (cudaError_t error = checkLegacyDuringCapture(*queue); error != cudaSuccess)
    return error;
  // On the stream's thread, never the caller's (which may hold locks the function needs). Output
  // of the kernels before it appears before what the function prints.
  enqueue(*queue, [this, hostFunction, userData] {
    flushOutput();
    hostFunction(userData);
  });
  return cudaSuccess;
}

// --- Events -------------------------------------------------------------------------------------

cudaError_t CpuDevice::createEvent(cudaEvent_t* event, unsigned int flags) {
  auto created = std::make_unique<CpuEvent>();
  created->flags = flags;
  std::lock_guard lock(mutex_);
  *event = reinterpret_cast<cudaEvent_t>(created.get());
  events_[created.get()] = std::move(created);
  return cudaSuccess;
}

cudaError_t CpuDevice::destroyEvent(cudaEvent_t event) {
  std::lock_guard lock(mutex_);
  return events_.erase(event) ? cudaSuccess : cudaErrorInvalidResourceHandle;
}

cudaError_t CpuDevice::recordEvent(cudaEvent_t event, cudaStream_t stream) {
  return recordEventWithFlags(event, stream, 0);
}

cudaError_t CpuDevice::recordEventWithFlags(cudaEvent_t event, cudaStream_t stream,
                                            unsigned int flags) {
  StreamQueue* queue = nullptr;
  if (cudaError_t error = resolveStream(stream, &queue); error != cudaSuccess)
    return error;
  {
    std::lock_guard lock(mutex_);
    if (findEvent(event) == nullptr)
      return cudaErrorInvalidResourceHandle;
  }
  if (capturing(*queue)) {
    std::lock_guard graphLock(graphMutex_);
    CaptureStream* capture = captures_.find(queue);
    if (capture != nullptr) {
      if (capture->session->invalidated)
        return cudaErrorStreamCaptureInvalidated;
      {
        // The event now stands for the stream's current position in the capture.
        std::lock_guard lock(mutex_);
        if (CpuEvent* recorded = findEvent(event)) {
          recorded->captureId = capture->session->id;
          recorded->captureNodes = capture->dependencies;
        }
      }
      if ((flags & cudaEventRecordExternal) == 0)
        return cudaSuccess;
      cudaGraphNodeParams params = {};
      params.type = cudaGraphNodeTypeEventRecord;
      params.eventRecord.event = event;
      return captureNode(*queue, params);
    }
  }
  if (cudaError_t error = checkLegacyDuringCapture(*queue); error != cudaSuccess)
    return error;
  CompletionPtr done = enqueue(*queue, nullptr);
  std::lock_guard lock(mutex_);
  if (CpuEvent* recorded = findEvent(event)) {
    recorded->record = std::move(done);
    recorded->captureId = 0;
    recorded->captureNodes.clear();
  }
  return sticky();
}

cudaError_t CpuDevice::waitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags) {
  StreamQueue* queue = nullptr;
  if (cudaError_t error = resolveStream(stream, &queue); error != cudaSuccess)
    return error;
  CompletionPtr record;
  unsigned long long captureId = 0;
  std::vector<cudaGraphNode_t> captureNodes;
  {
    std::lock_guard lock(mutex_);
    CpuEvent* waited = findEvent(event);
    if (waited == nullptr)
      return cudaErrorInvalidResourceHandle;
    record = waited->record;
    captureId = waited->captureId;
    captureNodes = waited->captureNodes;
  }
  if (captures_.active()) {
    std::lock_guard graphLock(graphMutex_);
    CaptureStream* capture = captures_.find(queue);
    std::shared_ptr<CaptureSession> recordedIn =
        captureId != 0 ? captures_.session(captureId) : nullptr;
    if (capture != nullptr && capture->session->invalidated)
      return cudaErrorStreamCaptureInvalidated;
    if (recordedIn != nullptr) {
      if (capture == nullptr) {
        // A fork: the stream joins the capture, after the nodes the event stands for.
        captures_.join(queue, std::move(recordedIn), std::move(captureNodes));
        return cudaSuccess;
      }
      if (capture->session != recordedIn) {
        capture->session->invalidated = true;
        return cudaErrorStreamCaptureIsolation;
      }
      for (cudaGraphNode_t node : captureNodes)
        if (std::find(capture->dependencies.begin(), capture->dependencies.end(), node) ==
            capture->dependencies.end()) {
          capture->dependencies.push_back(node);
          capture->edges.push_back(cudaGraphEdgeData{});
        }
      return cudaSuccess;
    }
    if (capture != nullptr) {
      // Only an external wait may cross into a capture (as a wait-event node).
      if ((flags & cudaEventWaitExternal) == 0) {
        capture->session->invalidated = true;
        return cudaErrorStreamCaptureIsolation;
      }
      cudaGraphNodeParams params = {};
      params.type = cudaGraphNodeTypeWaitEvent;
      params.eventWait.event = event;
      return captureNode(*queue, params);
    }
  }
  if (cudaError_t error = checkLegacyDuringCapture(*queue); error != cudaSuccess)
    return error;
  if (record != nullptr && !record->done())
    enqueue(*queue, nullptr, {std::move(record)});
  return sticky();
}

cudaError_t CpuDevice::synchronizeEvent(cudaEvent_t event) {
  CompletionPtr record;
  {
    std::lock_guard lock(mutex_);
    CpuEvent* waited = findEvent(event);
    if (waited == nullptr)
      return cudaErrorInvalidResourceHandle;
    record = waited->record;
  }
  if (record != nullptr && StreamQueue::current() == nullptr)
    record->wait();
  flushOutput();
  return sticky();
}

cudaError_t CpuDevice::queryEvent(cudaEvent_t event) {
  std::lock_guard lock(mutex_);
  CpuEvent* queried = findEvent(event);
  if (queried == nullptr)
    return cudaErrorInvalidResourceHandle;
  if (queried->record != nullptr && !queried->record->done())
    return cudaErrorNotReady;
  return sticky();
}

cudaError_t CpuDevice::elapsedTime(float* milliseconds, cudaEvent_t start, cudaEvent_t end) {
  std::lock_guard lock(mutex_);
  CpuEvent* from = findEvent(start);
  CpuEvent* to = findEvent(end);
  if (from == nullptr || to == nullptr)
    return cudaErrorInvalidResourceHandle;
  if ((from->flags & cudaEventDisableTiming) != 0 || (to->flags & cudaEventDisableTiming) != 0)
    return cudaErrorInvalidResourceHandle;
  if (from->record == nullptr || to->record == nullptr)
    return cudaErrorInvalidResourceHandle;
  if (!from->record->done() || !to->record->done())
    return cudaErrorNotReady;
  *milliseconds =
      std::chrono::duration<float, std::milli>(to->record->time() - from->record->time()).count();
  return sticky();
}

} // namespace ocelot::runtime::cpu
