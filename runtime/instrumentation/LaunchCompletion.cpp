// A finished launch becomes its profile: on the profile worker, the batch's results read back from
// the result ring, each instrumentor's finalize, the kernel's own GPU time, the summary.
#include "ocelot/Demangle.h"
#include "ocelot/KernelProfile.h"
#include "runtime/core/ApiCallLog.h"
#include "runtime/core/ErrorTable.h"
#include "runtime/core/Event.h"
#include "runtime/core/Functions.h"
#include "runtime/core/Stream.h"
#include "runtime/instrumentation/InstrumentationFramework.h"

#include <algorithm>
#include <tuple>

namespace ocelot::runtime::instrumentation {

void InstrumentationFramework::completeOperation(PendingLaunch& pending) {
  DeviceOperation operation = std::move(*pending.operation);
  if (pending.generation == pending.resources->generation() && pending.outcome == cudaSuccess &&
      pending.start != nullptr && pending.done != nullptr) {
    float ms = 0;
    if (pending.done->elapsedSince(*pending.start, &ms) == cudaSuccess)
      operation.gpuNs = static_cast<double>(ms) * 1e6;
  }
  release(pending);
  summary_.addDeviceWork(operation.kind == DeviceOperation::Kind::Kernel
                             ? DeviceInterval::Kind::Kernel
                             : DeviceInterval::Kind::Transfer,
                         operation.device, operation.enqueuedNs, operation.gpuNs);
  hub_.addOperation(std::move(operation));
}

void InstrumentationFramework::release(PendingLaunch& pending) {
  DeviceResources& pool = *pending.resources;
  for (auto& slot : pending.slots) {
    pool.deviceBuffers().release(slot.deviceBuffer);
    pool.stagingBuffers().release(slot.staging);
    slot.deviceBuffer = {};
    slot.staging = {};
  }
  pending.slots.clear();
  pending.parameter.clear();
  if (pending.ring) {
    // Unread: a launch that never ran leaves its chunk zero; complete() cleared a failed one's.
    pending.ring->give(pending.chunk);
    pending.ring.reset();
  }
  if (pending.done == pending.end)
    pending.done = nullptr;
  pool.releaseEvent(pending.start, pending.generation);
  pool.releaseEvent(pending.end, pending.generation);
  pool.releaseEvent(pending.done, pending.generation);
  pending.start = pending.end = pending.done = nullptr;
}

void InstrumentationFramework::complete(ProfileWorker::Batch& batch) {
  readBack(batch);
  for (auto& pending : batch)
    complete(std::move(pending));
}

void InstrumentationFramework::readBack(ProfileWorker::Batch& batch) {
  // Each finished launch's chunk of its device's result ring is copied into the ring's host
  // mirror and zeroed again on Ocelot's stream (a failed launch's chunk too: nobody reads its
  // copy). Launches made back to back hold adjacent chunks: one copy and one fill serve each run
  // of them, and one synchronization per device the whole batch, so that the worker's driver calls
  // (which contend with the application's launches for the driver) do not grow with the launches.
  struct Span {
    ResultRing* ring;
    DeviceResources* resources;
    Stream* stream;
    ResultRing::Chunk chunk;     ///< the run of adjacent chunks
    std::vector<size_t> members; ///< indices into batch
  };
  std::vector<Span> spans;
  // From the checks below to the last synchronization, no device reset may begin (each device's
  // DeviceResources::Use): it would free the ring's device memory and Ocelot's stream under the
  // copies (the CI segfault of
  // ALaunchRacingAResetLeavesNoFunctionOfTheDestroyedContextBehind: the check said "not
  // disturbed", then the reset freed the ring while the copy read it). A reset that begins later
  // marks these launches disturbed, and complete() reports no counts for them.
  std::vector<std::pair<DeviceResources*, DeviceResources::Use>> uses;
  for (size_t i = 0; i < batch.size(); ++i) {
    PendingLaunch& pending = *batch[i];
    if (!pending.ring)
      continue;
    DeviceResources& pool = *pending.resources;
    auto use =
        std::find_if(uses.begin(), uses.end(), [&](const auto& u) { return u.first == &pool; });
    if (use == uses.end()) {
      uses.emplace_back(&pool, pool.use());
      use = std::prev(uses.end());
    }
    // A reset in progress, or one since the ring was made, took the ring's memory: nothing to
    // read or zero (complete() reports the disturbance). A disturbed launch that holds a chunk of
    // the live ring (it began before a reset and took its chunk after it) is read back like a
    // failed one, only to zero its chunk again: its kernel may have written there, and the next
    // launch given that chunk would count those writes as its own.
    if (!use->second || pending.ring->deviceMemoryGone())
      continue;
    Stream* stream = pool.ownStream();
    if (stream == nullptr) {
      pending.ring->poison(); // nothing can zero its chunk again: later launches use pools
      if (pending.outcome == cudaSuccess)
        pending.outcome = cudaErrorNotSupported;
      continue;
    }
    const ResultRing::Chunk chunk = pending.chunk;
    auto joins = [&](const Span& span) {
      return span.ring == pending.ring.get() &&
             span.chunk.position + span.chunk.bytes == chunk.position &&
             span.ring->device(span.chunk) < span.ring->device(chunk); // not across the wrap
    };
    auto span = std::find_if(spans.begin(), spans.end(), joins);
    if (span == spans.end())
      spans.push_back({pending.ring.get(), &pool, stream, chunk, {i}});
    else {
      span->chunk.bytes += chunk.bytes;
      span->members.push_back(i);
    }
  }
  auto fail = [&](const std::vector<size_t>& members, cudaError_t error) {
    for (size_t i : members) {
      PendingLaunch& pending = *batch[i];
      pending.ring->poison(); // its memory may no longer be zero: later launches use pools
      if (pending.outcome == cudaSuccess)
        pending.outcome = error;
    }
  };
  std::vector<std::pair<DeviceResources*, Stream*>> toSynchronize;
  for (Span& span : spans) {
    PendingLaunch& first = *batch[span.members.front()];
    first.device->activate();
    relaxStreamCaptureRules(*first.device);
    if (cudaError_t error = span.ring->readBack(span.chunk, *span.stream); error != cudaSuccess) {
      fail(span.members, error);
      continue;
    }
    if (std::none_of(toSynchronize.begin(), toSynchronize.end(),
                     [&](const auto& entry) { return entry.first == span.resources; }))
      toSynchronize.emplace_back(span.resources, span.stream);
  }
  for (const auto& [resources, stream] : toSynchronize) {
    const cudaError_t error = stream->synchronize();
    if (error == cudaSuccess)
      continue;
    for (const Span& span : spans)
      if (span.resources == resources)
        fail(span.members, error);
  }
}

namespace {

/// What a finished launch's slot holds: its part of the ring's host mirror, or its staging buffer.
std::span<const std::byte> slotContents(const PendingLaunch& pending,
                                        const PendingLaunch::Slot& slot) {
  const std::byte* contents = pending.hostResults != nullptr ? pending.hostResults + slot.offset
                              : pending.ring ? pending.ring->host(pending.chunk) + slot.offset
                                             : static_cast<const std::byte*>(slot.staging.pointer);
  return {contents, slot.bytes};
}

} // namespace

void InstrumentationFramework::complete(std::unique_ptr<PendingLaunch> pending) {
  if (pending->graphPlan) {
    completePlanLaunch(std::move(pending));
    return;
  }
  try {
    if (pending->operation) {
      pending->device->activate(); // event queries in the device's context
      completeOperation(*pending);
      return;
    }
    Device& device = *pending->device;
    DeviceResources& pool = *pending->resources;
    device.activate(); // the profile thread uses the device's context for event queries
    KernelProfile::Timing timing;
    timing.enqueuedNs = pending->enqueuedNs;
    // A launch whose results cannot be trusted reports that, never what its buffers hold: they
    // were not written (a fault), not copied (an unusable context), or went with a device reset.
    std::string failure;
    if (pending->instrumented) {
      if (!pending->resultsLost.empty())
        failure = pending->resultsLost;
      else if (pool.disturbed(pending->generation))
        failure = "the device was reset (cudaDeviceReset) while the launch was in flight: its "
                  "results are not reported";
      else if (pending->outcome != cudaSuccess)
        failure = "the launch failed (" + std::string(errorName(pending->outcome)) +
                  "): its results are not reported";
    } else if (pending->launchFailed) {
      failure =
          "the kernel could not be launched (" + std::string(errorName(pending->outcome)) + ")";
    }
    if (failure.empty() && pending->start != nullptr && pending->end != nullptr) {
      float ms = 0;
      cudaError_t error = pending->end->elapsedSince(*pending->start, &ms);
      if (error == cudaSuccess)
        timing.gpuMilliseconds = ms;
      else if (pending->instrumented && error != cudaErrorNotReady &&
               error != cudaErrorInvalidResourceHandle)
        failure = "the launch failed (" + std::string(errorName(error)) +
                  "): its results are not reported";
    }
    if (failure.empty() && pending->instrumented && pending->clockSlot) {
      // The kernel's own start and end (the first warp's start to the last lanes' exit).
      if (std::optional<uint64_t> ns = instrumentors::LaunchClock::gpuNanoseconds(
              slotContents(*pending, pending->slots[*pending->clockSlot])))
        timing.gpuMilliseconds = static_cast<double>(*ns) * 1e-6;
    }
    DeviceFacts facts = pool.facts();
    facts.kernelMilliseconds = timing.gpuMilliseconds.value_or(0);
    std::vector<std::shared_ptr<const InstrumentorResult>> results;
    if (!failure.empty()) {
      timing.gpuMilliseconds.reset();
      pending->notes.push_back(failure);
      logOnce("failed/" + pending->info.kernelName + "/" + failure,
              "instrumentation: " + pending->info.demangledName + ": " + failure);
    }
    for (const auto& slot : pending->slots) {
      if (!failure.empty())
        break;
      if (slot.instrumentor == launchClock_)
        continue; // read above
      try {
        auto result = slot.instrumentor->finalize(*slot.state, pending->info, facts,
                                                  slotContents(*pending, slot));
        if (result)
          results.push_back(std::move(result));
      } catch (const std::exception& e) {
        pending->notes.push_back(std::string(slot.instrumentor->name()) + " finalize: " + e.what());
      }
    }
    release(*pending);
    pending->info.callPath = callPathSymbolizer_.symbolize(pending->callPath);
    timing.completedNs = ApiCallLog::nowNs();
    auto profile = std::make_shared<const KernelProfile>(
        pending->info, timing,
        !failure.empty()        ? KernelProfile::Execution::Failed
        : pending->instrumented ? KernelProfile::Execution::Instrumented
                                : KernelProfile::Execution::Original,
        pending->instrumentors, pending->notes, std::move(results));
    summary_.add(*profile);
    hub_.publish(std::move(profile));
    records_.recycle(std::move(pending)); // its capacity serves a later launch
  } catch (const std::exception& e) {
    logger_.warn(std::string("instrumentation: a profile was lost: ") + e.what());
  }
}

} // namespace ocelot::runtime::instrumentation
