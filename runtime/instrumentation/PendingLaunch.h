#pragma once

#include "ocelot/Instrumentor.h"
#include "ocelot/LaunchInfo.h"
#include "runtime/core/Device.h"
#include "runtime/core/DeviceOperation.h"
#include "runtime/core/Event.h"
#include "runtime/instrumentation/BufferPool.h"
#include "runtime/instrumentation/GraphPlan.h"
#include "runtime/instrumentation/InstrumentedModuleCache.h"
#include "runtime/instrumentation/LaunchCallPath.h"
#include "runtime/instrumentation/ResultRing.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ocelot::runtime::instrumentation {

class LoadedInstrumentation;
class DeviceResources;

/// Everything about an instrumented launch between its enqueueing and its profile: the launch,
/// the module and instrumentor states it ran with, the buffers its results land in, the events
/// around the kernel. Created by the launching thread, completed by Ocelot's profile worker.
///
/// The results land in one chunk of the device's result ring (`ring`, `chunk`: nothing of
/// Ocelot's in the application's stream but the event after the kernel; the profile worker reads
/// the chunk back), or, when the ring has no room or an instrumentor asks for a fill other than
/// zero, in pooled buffers that the application's stream fills before and copies after the kernel.
struct PendingLaunch {
  struct Slot {
    std::shared_ptr<const PTXInstrumentor> instrumentor;
    const InstrumentorModuleState* state = nullptr;
    BufferPool::Block deviceBuffer; ///< pooled buffers only
    BufferPool::Block staging;      ///< pinned host memory the pooled buffer is copied into
    uint64_t offset = 0;            ///< in the ring's chunk
    uint64_t bytes = 0;
    uint8_t fill = 0; ///< what the buffer holds before the kernel runs
  };

  Device* device = nullptr;
  DeviceResources* resources = nullptr;
  LaunchInfo info;
  std::vector<std::string> instrumentors; ///< "name options", in slot order
  std::vector<std::string> notes;
  bool instrumented = false; ///< false: the original kernel ran (notes say why)
  bool launchFailed =
      false; ///< not even the original kernel could be launched (`outcome` says why)
  std::shared_ptr<LoadedInstrumentation> module; ///< keeps states and instrumentors alive
  std::vector<Slot> slots;
  /// The slot of the kernel's own clock (instrumentors/LaunchClock.h), if it has one: its GPU
  /// time comes from there, and no event is recorded before it.
  std::optional<uint32_t> clockSlot;
  std::shared_ptr<ResultRing> ring; ///< null: pooled buffers
  ResultRing::Chunk chunk;
  /// The kernel writes the chunk's completion word when its last thread leaves
  /// (instrumentors/LaunchClock.h): no event after it; the profile worker reads the word, and asks
  /// the device only while the word stays unset (a fault leaves it so).
  bool signals = false;
  Event *start = nullptr, *end = nullptr;
  /// What the profile thread polls (never a host function in the application's stream, which would
  /// hold the stream until the host has run it): `end` for results in the ring, else an event
  /// recorded after the result copies.
  Event* done = nullptr;
  int64_t enqueuedNs = 0;
  /// The host thread that enqueued it (hostThreadNumber()): launches one thread makes on a stream
  /// reach the profile worker in the order they run, launches of several threads need not.
  uint64_t hostThread = 0;
  /// The launching thread's return addresses; named on the profile thread.
  CapturedCallPath callPath;
  /// DeviceResources::generation() when the launch began: a device reset since then destroyed its
  /// buffers and events, and its results are not reported.
  uint64_t generation = 0;
  /// How the launch and the copies of its results ended, as the device reported it when the
  /// completion was seen (an error: the kernel faulted, or the context became unusable first).
  cudaError_t outcome = cudaSuccess;
  /// The hidden parameter's value: one device pointer per slot.
  std::vector<uint64_t> parameter;
  /// Set for a timed copy, memset or unprofiled kernel (host measures): `start` and `done` are
  /// the events around it, and it becomes a DeviceOperation, not a KernelProfile.
  std::optional<DeviceOperation> operation;
  /// Set for a launch of a graph plan's kernel nodes: one record for all of them, split into one
  /// profile per node on the profile worker.
  std::optional<GraphPlanLaunch> graphPlan;
  /// Where the slots' results already are on the host (a node of a graph plan's launch), or null.
  const std::byte* hostResults = nullptr;
  /// Why an instrumented launch's results were not kept (its profile says so), or empty.
  std::string resultsLost;
  /// Each active instrumentor's variant for this launch (describe's choice), in slot order.
  std::vector<SlotChoice> choices;

  /// As a new record, but strings and vectors keep their capacity (LaunchRecordPool).
  void clearForReuse();
};

/// A small number naming the calling host thread for as long as the process runs.
uint64_t hostThreadNumber();

} // namespace ocelot::runtime::instrumentation
