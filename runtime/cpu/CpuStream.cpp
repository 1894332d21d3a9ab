// The CPU device's streams. Every stream is a StreamQueue with a thread of its own; the legacy
// default stream's implicit synchronization is added when work is queued (an operation on it waits
// for every blocking stream's last operation, an operation on a blocking stream waits for its last
// one). Capture is in CpuCapture.cpp.

#include "runtime/cpu/CpuStream.h"

#include "runtime/cpu/CpuDevice.h"

#include <algorithm>
#include <cstring>

namespace ocelot::runtime::cpu {
namespace {

/// Stream ids of the special handles (created streams count from 16).
constexpr unsigned long long kLegacyStreamId = 1;
constexpr unsigned long long kPerThreadStreamId = 2;

} // namespace

CpuStream::CpuStream(CpuDevice& device, cudaStream_t handle, std::shared_ptr<StreamQueue> queue)
    : Stream(handle), device_(device), queue_(std::move(queue)) {}

cudaError_t CpuStream::synchronize() {
  if (capturing())
    return refuseDuringCapture();
  if (cudaError_t error = checkLegacyDuringCapture(); error != cudaSuccess)
    return error;
  CpuStreams& streams = device_.cpuStreams();
  if (StreamQueue::current() == nullptr)
    streams.waitAll(streams.pendingOf(*this));
  device_.flushOutput();
  return device_.sticky();
}

cudaError_t CpuStream::query() {
  if (capturing())
    return refuseDuringCapture();
  for (const CompletionPtr& pending : device_.cpuStreams().pendingOf(*this))
    if (!pending->done())
      return cudaErrorNotReady;
  return device_.sticky();
}

cudaError_t CpuStream::waitEvent(Event& event, unsigned int flags) {
  CpuEvent::Record record = static_cast<CpuEvent&>(event).latest();
  if (std::optional<cudaError_t> captured = captureEventWait(record, event.handle(), flags))
    return *captured;
  if (cudaError_t error = checkLegacyDuringCapture(); error != cudaSuccess)
    return error;
  if (record.done != nullptr && !record.done->done())
    enqueue(nullptr, {std::move(record.done)});
  return device_.sticky();
}

cudaError_t CpuStream::launchHostFunction(cudaHostFn_t function, void* userData) {
  if (cudaError_t error = device_.sticky(); error != cudaSuccess)
    return error;
  // On the stream's thread, never the caller's (which may hold locks the function needs). Output
  // of the kernels before it appears before what the function prints.
  CpuDevice& device = device_;
  return submit(
      [&device, function, userData] {
        device.flushOutput();
        function(userData);
      },
      true,
      [&] {
        cudaGraphNodeParams params = {};
        params.type = cudaGraphNodeTypeHost;
        params.host.fn = function;
        params.host.userData = userData;
        return params;
      });
}

cudaError_t CpuStream::flags(unsigned int* flags) {
  *flags = queue_->flags();
  return cudaSuccess;
}

cudaError_t CpuStream::priority(int* priority) {
  *priority = queue_->priority();
  return cudaSuccess;
}

cudaError_t CpuStream::id(unsigned long long* id) {
  *id = queue_->id();
  return cudaSuccess;
}

cudaError_t CpuStream::device(int* ordinal) {
  *ordinal = 0;
  return cudaSuccess;
}

cudaError_t CpuStream::attribute(cudaLaunchAttributeID id, cudaLaunchAttributeValue* value) {
  std::memset(value, 0, sizeof *value);
  if (id == cudaLaunchAttributePriority)
    value->priority = queue_->priority();
  return cudaSuccess;
}

cudaError_t CpuStream::setAttribute(cudaLaunchAttributeID id,
                                    const cudaLaunchAttributeValue* value) {
  if (id == cudaLaunchAttributePriority && queue_->kind() == StreamQueue::Kind::Created)
    queue_->setPriority(std::clamp(value->priority, -5, 0));
  return cudaSuccess;
}

cudaError_t CpuStream::attachMemory(void*, size_t, unsigned int) {
  // Managed memory is host memory here: attaching changes nothing.
  return device_.sticky();
}

cudaError_t CpuStream::submit(std::function<void()> run, bool async,
                              const std::function<cudaGraphNodeParams()>& node) {
  if (capturing()) {
    if (!async)
      return refuseDuringCapture();
    return capture(node());
  }
  if (cudaError_t error = checkLegacyDuringCapture(); error != cudaSuccess)
    return error;
  if (!async)
    return runSynchronously(std::move(run));
  enqueue(std::move(run));
  return cudaSuccess;
}

CompletionPtr CpuStream::enqueue(std::function<void()> run, std::vector<CompletionPtr> after,
                                 bool evenAfterFault) {
  return device_.cpuStreams().enqueue(*this, std::move(run), std::move(after), evenAfterFault);
}

cudaError_t CpuStream::runSynchronously(std::function<void()> run) {
  CompletionPtr done = enqueue(std::move(run));
  if (StreamQueue::current() == nullptr)
    done->wait();
  device_.flushOutput();
  return device_.sticky();
}

// --- CpuStreams
// -----------------------------------------------------------------------------------

CpuStreams::CpuStreams(CpuDevice& device) : device_(device) {
  auto legacyQueue =
      std::make_shared<StreamQueue>(progress_, StreamQueue::Kind::Legacy, 0, 0, kLegacyStreamId);
  null_ = std::make_unique<CpuStream>(device, nullptr, legacyQueue);
  legacy_ = std::make_unique<CpuStream>(device, cudaStreamLegacy, legacyQueue);
  nullStream_ = null_.get();
  legacyStream_ = legacy_.get();
}

CpuStreams::~CpuStreams() {
  drainAll();
  created_.clear();
  std::lock_guard lock(mutex_);
  perThread_.clear();
  retired_.clear();
}

Stream& CpuStreams::perThreadStream() {
  std::lock_guard lock(mutex_);
  std::unique_ptr<CpuStream>& own = perThread_[std::this_thread::get_id()];
  if (!own)
    own = std::make_unique<CpuStream>(device_, cudaStreamPerThread,
                                      std::make_shared<StreamQueue>(progress_,
                                                                    StreamQueue::Kind::PerThread, 0,
                                                                    0, kPerThreadStreamId));
  return *own;
}

cudaError_t CpuStreams::create(unsigned int flags, int priority, Stream** stream) {
  std::lock_guard lock(mutex_);
  auto queue = std::make_shared<StreamQueue>(progress_, StreamQueue::Kind::Created, flags,
                                             std::clamp(priority, -5, 0), nextId_++);
  // The handle is the queue's address, as it always was.
  auto handle = reinterpret_cast<cudaStream_t>(queue.get());
  *stream = created_.insert(handle, std::make_unique<CpuStream>(device_, handle, std::move(queue)));
  return cudaSuccess;
}

cudaError_t CpuStreams::destroy(Stream& stream) {
  // The special streams cannot be destroyed.
  if (created_.find(stream.handle()) != &stream)
    return cudaErrorInvalidResourceHandle;
  // A capturing stream that goes away invalidates its capture (and ends it as its origin).
  static_cast<CpuStream&>(stream).forgetCapture();
  std::unique_ptr<Stream> destroyed;
  {
    std::lock_guard lock(mutex_);
    destroyed = created_.remove(stream.handle());
    // Work still queued completes, as CUDA promises; the stream goes once it has.
    if (destroyed != nullptr && !static_cast<CpuStream&>(*destroyed).queue().idle())
      retired_.push_back(std::move(destroyed));
  }
  return cudaSuccess;
}

cudaError_t CpuStreams::priorityRange(int* least, int* greatest) {
  *least = 0;
  *greatest = -5;
  return cudaSuccess;
}

cudaError_t CpuStreams::exchangeCaptureMode(cudaStreamCaptureMode* mode) {
  std::swap(*mode, CaptureRegistry::threadMode());
  return cudaSuccess;
}

template <class Visit> void CpuStreams::forEachOther(Visit visit) {
  created_.forEach([&](Stream& stream) { visit(static_cast<CpuStream&>(stream)); });
  for (auto& [thread, own] : perThread_)
    visit(*own);
  for (auto& retired : retired_)
    visit(static_cast<CpuStream&>(*retired));
}

CompletionPtr CpuStreams::enqueue(CpuStream& stream, std::function<void()> run,
                                  std::vector<CompletionPtr> after, bool evenAfterFault) {
  StreamOperation operation;
  operation.done = std::make_shared<Completion>(progress_);
  if (run && evenAfterFault) {
    operation.run = std::move(run);
  } else if (run) {
    // After a fault the context is unusable: queued work is dropped, as on a GPU.
    CpuDevice& device = device_;
    operation.run = [&device, run = std::move(run)] {
      if (!device.faulted())
        run();
    };
  }
  for (CompletionPtr& before : after)
    if (before != nullptr && !before->done())
      operation.after.push_back(std::move(before));
  std::vector<std::unique_ptr<Stream>> finished;
  std::lock_guard lock(mutex_);
  StreamQueue& queue = stream.queue();
  auto follow = [&](StreamQueue& other) {
    if (&other == &queue)
      return;
    if (CompletionPtr last = other.tail(); last != nullptr && !last->done())
      operation.after.push_back(std::move(last));
  };
  if (stream.legacy()) {
    forEachOther([&](CpuStream& other) {
      if (other.blocking())
        follow(other.queue());
    });
  } else if (stream.blocking()) {
    follow(legacy_->queue());
  }
  CompletionPtr done = operation.done;
  queue.push(std::move(operation));
  // Destroyed streams whose work is done can go (their threads are joined when `finished` goes,
  // after the lock).
  for (auto it = retired_.begin(); it != retired_.end();)
    if (static_cast<CpuStream&>(**it).queue().idle()) {
      finished.push_back(std::move(*it));
      it = retired_.erase(it);
    } else {
      ++it;
    }
  return done;
}

std::vector<CompletionPtr> CpuStreams::pendingOf(CpuStream& stream) {
  std::vector<CompletionPtr> pending;
  std::lock_guard lock(mutex_);
  if (CompletionPtr last = stream.queue().tail())
    pending.push_back(std::move(last));
  if (stream.legacy())
    forEachOther([&](CpuStream& other) {
      if (other.blocking())
        if (CompletionPtr last = other.queue().tail())
          pending.push_back(std::move(last));
    });
  return pending;
}

void CpuStreams::waitAll(const std::vector<CompletionPtr>& completions) {
  progress_.wait([&] {
    return std::all_of(completions.begin(), completions.end(),
                       [](const CompletionPtr& completion) { return completion->done(); });
  });
}

void CpuStreams::drainAll() {
  // A host function calling into the device from a stream's thread must not wait for itself.
  if (StreamQueue::current() != nullptr)
    return;
  std::vector<CompletionPtr> pending;
  {
    std::lock_guard lock(mutex_);
    if (CompletionPtr last = legacy_->queue().tail())
      pending.push_back(std::move(last));
    forEachOther([&](CpuStream& other) {
      if (CompletionPtr last = other.queue().tail())
        pending.push_back(std::move(last));
    });
  }
  waitAll(pending);
}

void CpuStreams::reset() {
  // The handles go; the objects (their work done) stay until the device goes: another thread's
  // launch racing the reset may still hold one.
  std::vector<std::unique_ptr<Stream>> gone = created_.clear();
  std::lock_guard lock(mutex_);
  for (auto& stream : gone)
    reset_.push_back(std::move(stream));
}

} // namespace ocelot::runtime::cpu
