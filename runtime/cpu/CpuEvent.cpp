#include "runtime/cpu/CpuEvent.h"

#include "runtime/cpu/CpuDevice.h"

#include <chrono>
#include <optional>

namespace ocelot::runtime::cpu {

CpuEvent::CpuEvent(CpuDevice& device, unsigned int flags)
    : Event(reinterpret_cast<cudaEvent_t>(this)), device_(device), flags_(flags) {}

CpuEvent::Record CpuEvent::latest() const {
  std::lock_guard lock(mutex_);
  return latest_;
}

void CpuEvent::recorded(CompletionPtr done) {
  std::lock_guard lock(mutex_);
  latest_ = Record{std::move(done), 0, {}};
}

void CpuEvent::captured(unsigned long long captureId, std::vector<cudaGraphNode_t> nodes) {
  std::lock_guard lock(mutex_);
  latest_.captureId = captureId;
  latest_.captureNodes = std::move(nodes);
}

cudaError_t CpuEvent::record(Stream& stream, unsigned int flags) {
  auto& queue = static_cast<CpuStream&>(stream);
  if (queue.capturing())
    if (std::optional<cudaError_t> captured = queue.captureEventRecord(*this, flags))
      return *captured;
  if (cudaError_t error = queue.checkLegacyDuringCapture(); error != cudaSuccess)
    return error;
  recorded(queue.enqueue(nullptr));
  return device_.sticky();
}

cudaError_t CpuEvent::synchronize() {
  CompletionPtr done = latest().done;
  if (done != nullptr && StreamQueue::current() == nullptr)
    done->wait();
  device_.flushOutput();
  return device_.sticky();
}

cudaError_t CpuEvent::query() {
  CompletionPtr done = latest().done;
  if (done != nullptr && !done->done())
    return cudaErrorNotReady;
  return device_.sticky();
}

cudaError_t CpuEvent::elapsedSince(Event& start, float* milliseconds) {
  auto& from = static_cast<CpuEvent&>(start);
  if ((from.flags_ & cudaEventDisableTiming) != 0 || (flags_ & cudaEventDisableTiming) != 0)
    return cudaErrorInvalidResourceHandle;
  CompletionPtr begin = from.latest().done;
  CompletionPtr end = latest().done;
  if (begin == nullptr || end == nullptr)
    return cudaErrorInvalidResourceHandle;
  if (!begin->done() || !end->done())
    return cudaErrorNotReady;
  *milliseconds = std::chrono::duration<float, std::milli>(end->time() - begin->time()).count();
  return device_.sticky();
}

cudaError_t CpuEvents::create(unsigned int flags, Event** event) {
  auto created = std::make_unique<CpuEvent>(device_, flags);
  const cudaEvent_t handle = created->handle();
  *event = table_.insert(handle, std::move(created));
  return cudaSuccess;
}

cudaError_t CpuEvents::destroy(Event& event) {
  return table_.remove(event.handle()) != nullptr ? cudaSuccess : cudaErrorInvalidResourceHandle;
}

} // namespace ocelot::runtime::cpu
