#pragma once

#include "runtime/cpu/StreamQueue.h"

#include <cstdint>
#include <driver_types.h>
#include <vector>

namespace ocelot::runtime::cpu {

/// An event of the CPU device. An event is its latest record: the completion of a record
/// operation in a stream (or of an event-record node of a graph launch). Queries, synchronization,
/// cudaStreamWaitEvent and timing all look at that completion; recording again replaces it, so a
/// wait issued earlier keeps waiting for the record it saw.
struct CpuEvent {
  unsigned int flags = 0;
  CompletionPtr record; ///< null: never recorded (queries and waits succeed at once)
  /// A record made while its stream was being captured: the capture sequence and the nodes the
  /// event stands for (what a stream that waits on it will depend on).
  unsigned long long captureId = 0;
  std::vector<cudaGraphNode_t> captureNodes;
};

} // namespace ocelot::runtime::cpu
