#pragma once

#include "ocelot/Instrumentor.h"
#include "ocelot/LaunchInfo.h"
#include "runtime/core/Device.h"
#include "runtime/core/Event.h"
#include "runtime/instrumentation/BufferPool.h"
#include "runtime/instrumentation/LaunchCallPath.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ocelot::runtime::instrumentation {

class LoadedInstrumentation;
class DeviceResources;

/// Everything about an instrumented launch between its enqueueing and its profile: the launch,
/// the module and instrumentor states it ran with, the buffers its results land in, the events
/// around the kernel. Created by the launching thread, completed by Ocelot's profile worker.
struct PendingLaunch {
  struct Slot {
    std::shared_ptr<const PTXInstrumentor> instrumentor;
    const InstrumentorModuleState* state = nullptr;
    BufferPool::Block deviceBuffer;
    BufferPool::Block staging; ///< pinned host memory the buffer is copied into
    uint64_t bytes = 0;
  };

  Device* device = nullptr;
  DeviceResources* resources = nullptr;
  LaunchInfo info;
  std::vector<std::string> instrumentors; ///< "name options", in slot order
  std::vector<std::string> notes;
  bool instrumented = false;                     ///< false: the original kernel ran (notes say why)
  std::shared_ptr<LoadedInstrumentation> module; ///< keeps states and instrumentors alive
  std::vector<Slot> slots;
  Event *start = nullptr, *end = nullptr;
  /// Recorded after the result copies: the profile thread polls it (never a host function in the
  /// application's stream, which would hold the stream until the host has run it).
  Event* done = nullptr;
  int64_t enqueuedNs = 0;
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
};

} // namespace ocelot::runtime::instrumentation
