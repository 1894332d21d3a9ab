#pragma once

#include "runtime/core/Event.h"
#include "runtime/cpu/StreamQueue.h"

#include <cstdint>
#include <driver_types.h>
#include <mutex>
#include <vector>

namespace ocelot::runtime::cpu {

class CpuDevice;

/// An event of the CPU device. An event is its latest record: the completion of a record
/// operation in a stream (or of an event-record node of a graph launch). Queries, synchronization,
/// cudaStreamWaitEvent and timing all look at that completion; recording again replaces it, so a
/// wait issued earlier keeps waiting for the record it saw.
class CpuEvent final : public Event {
public:
  /// What the event stands for now.
  struct Record {
    CompletionPtr done; ///< null: never recorded (queries and waits succeed at once)
    /// A record made while its stream was being captured: the capture sequence and the nodes the
    /// event stands for (what a stream that waits on it will depend on).
    unsigned long long captureId = 0;
    std::vector<cudaGraphNode_t> captureNodes;
  };

  CpuEvent(CpuDevice& device, unsigned int flags);

  cudaError_t record(Stream& stream, unsigned int flags) override;
  cudaError_t synchronize() override;
  cudaError_t query() override;
  cudaError_t elapsedSince(Event& start, float* milliseconds) override;

  unsigned int flags() const { return flags_; }
  Record latest() const;
  /// A record made in a stream or by a graph launch.
  void recorded(CompletionPtr done);
  /// A record made while a stream was captured.
  void captured(unsigned long long captureId, std::vector<cudaGraphNode_t> nodes);

private:
  CpuDevice& device_;
  const unsigned int flags_;
  mutable std::mutex mutex_;
  Record latest_;
};

/// The CPU device's events.
class CpuEvents final : public Events {
public:
  explicit CpuEvents(CpuDevice& device) : device_(device) {}

  cudaError_t create(unsigned int flags, Event** event) override;
  cudaError_t destroy(Event& event) override;

  CpuEvent* find(cudaEvent_t handle) { return static_cast<CpuEvent*>(Events::find(handle)); }
  /// A device reset: every event's handle goes. The objects stay until the device goes: Ocelot's
  /// instrumentation (and an application's racing threads) may still hold them.
  void reset() {
    auto gone = table_.clear();
    std::lock_guard lock(resetMutex_);
    for (auto& event : gone)
      reset_.push_back(std::move(event));
  }

private:
  CpuDevice& device_;
  std::mutex resetMutex_;
  std::vector<std::unique_ptr<Event>> reset_;
};

} // namespace ocelot::runtime::cpu
