#include "runtime/instrumentation/ProfileWorker.h"

#include "runtime/core/Device.h"
#include "runtime/core/Stream.h"
#include "runtime/instrumentation/DeviceResources.h"

#include <algorithm>
#include <atomic>
#include <tuple>
#include <vector>

namespace ocelot::runtime::instrumentation {

ProfileWorker::~ProfileWorker() {
  // The thread waits on this object's members: it must end before they do. Launches still queued
  // are dropped (their owner is going away; the process's runtime never is destroyed).
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  work_.notify_all();
  if (!thread_.joinable())
    return;
  if (thread_.get_id() == std::this_thread::get_id())
    thread_.detach(); // destroyed from a completion on the worker itself
  else
    thread_.join();
}

void ProfileWorker::beginLocked() {
  ++begun_;
  if (!thread_.joinable())
    thread_ = std::thread([this] { run(); });
}

void ProfileWorker::begin() {
  std::lock_guard lock(mutex_);
  beginLocked();
}

void ProfileWorker::queue(std::unique_ptr<PendingLaunch> launch, bool begins) {
  bool wake = false;
  {
    std::lock_guard lock(mutex_);
    if (begins)
      beginLocked();
    queue_.push_back(std::move(launch));
    wake = sleeping_;
  }
  // A worker that is polling launches in flight picks this one up at its next poll: waking it for
  // every launch would cost the launching thread a system call per launch.
  if (wake)
    work_.notify_one();
}

void ProfileWorker::completeHere(std::unique_ptr<PendingLaunch> launch) {
  Batch batch;
  batch.push_back(std::move(launch));
  complete_(batch);
  finished(1);
}

void ProfileWorker::finished(uint64_t count) {
  {
    std::lock_guard lock(mutex_);
    completed_ += count;
  }
  done_.notify_all();
}

bool ProfileWorker::flush(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  uint64_t target = begun_;
  auto reached = [&] { return completed_ >= target; };
  if (reached())
    return true;
  // Someone waits for the profiles: the worker polls at once rather than after its pause.
  ++flushing_;
  work_.notify_all();
  bool done = true;
  if (timeout == std::chrono::milliseconds::max())
    done_.wait(lock, reached);
  else
    done = done_.wait_for(lock, timeout, reached);
  --flushing_;
  return done;
}

uint64_t ProfileWorker::pending() const {
  std::lock_guard lock(mutex_);
  return begun_ - completed_;
}

uint64_t hostThreadNumber() {
  static std::atomic<uint64_t> next{1};
  thread_local const uint64_t number = next.fetch_add(1, std::memory_order_relaxed);
  return number;
}

void relaxStreamCaptureRules(Device& device) {
  // Capture modes are per host thread: once per thread is enough (and a failure is retried).
  thread_local bool relaxed = false;
  if (relaxed)
    return;
  cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
  relaxed = device.streams().exchangeCaptureMode(&mode) == cudaSuccess;
}

void ProfileWorker::unsignalled(std::deque<std::unique_ptr<PendingLaunch>>& waiting, Batch& batch) {
  // Launches whose kernels write a completion word leave nothing in the device to query while the
  // word is unset. It stays unset when the kernel faulted (the context then answers every call with
  // the fault's error: one query of Ocelot's idle stream per device tells), when a device reset
  // destroyed the work (the generation changed), or when the kernel ended without writing it (not
  // expected: LaunchClock::signalsCompletion; seen where the application's stream can be asked
  // safely, the default streams, which live as long as the device). Only the oldest waiting launch
  // of each stream is asked about: the later ones wait behind it.
  std::vector<std::pair<DeviceResources*, cudaError_t>> devices; // each device's answer, once
  std::vector<const Device*> askedStreams;
  auto deviceStatus = [&](PendingLaunch& launch) {
    auto known = std::find_if(devices.begin(), devices.end(),
                              [&](const auto& d) { return d.first == launch.resources; });
    if (known != devices.end())
      return known->second;
    cudaError_t status = cudaSuccess;
    if (Stream* own = launch.resources->ownStream(); own != nullptr) {
      launch.device->activate();
      relaxStreamCaptureRules(*launch.device);
      status = own->query();
    }
    devices.emplace_back(launch.resources, status);
    return status;
  };
  std::vector<uint64_t> seen;
  for (auto it = waiting.begin(); it != waiting.end();) {
    PendingLaunch& launch = **it;
    if (!launch.signals) {
      ++it;
      continue;
    }
    const bool oldest = std::find(seen.begin(), seen.end(), launch.info.stream) == seen.end();
    seen.push_back(launch.info.stream);
    DeviceResources& resources = *launch.resources;
    bool over = !resources.resetting() && resources.generation() != launch.generation;
    // A fault fails every launch of the device still waiting (none of them will run).
    const bool asked = std::any_of(devices.begin(), devices.end(),
                                   [&](const auto& d) { return d.first == launch.resources; });
    if (!over && (oldest || asked)) {
      const cudaError_t status = deviceStatus(launch);
      if (status != cudaSuccess && status != cudaErrorNotReady) {
        launch.outcome = status; // complete() reports the failure, never the chunk
        over = true;
      }
    }
    const uint64_t legacy = reinterpret_cast<uint64_t>(cudaStreamLegacy);
    if (!over && oldest && (launch.info.stream == 0 || launch.info.stream == legacy) &&
        std::find(askedStreams.begin(), askedStreams.end(), launch.device) == askedStreams.end()) {
      askedStreams.push_back(launch.device);
      Stream* stream =
          launch.device->streams().find(reinterpret_cast<cudaStream_t>(launch.info.stream));
      if (stream != nullptr) {
        launch.device->activate();
        relaxStreamCaptureRules(*launch.device);
        const cudaError_t status = stream->query();
        // Idle: the kernel ended; its word may have come meanwhile.
        over = status != cudaErrorNotReady;
        if (over && status != cudaSuccess)
          launch.outcome = status;
      }
    }
    if (!over) {
      ++it;
      continue;
    }
    batch.push_back(std::move(*it));
    it = waiting.erase(it);
  }
}

void ProfileWorker::run() {
  // Launches wait here until their completion event has fired. They complete in queue order
  // except that a launch whose event has fired may overtake launches of other streams: a kernel
  // still running on one stream never holds back the profiles of another. The first poll after
  // the worker wakes comes at once and then after 20, 40, ... us (a lone launch's profile arrives
  // soon after its kernel ends); after a batch the worker pauses 2 ms, so that while launches keep
  // coming its reads of the result ring (a copy, a fill and a synchronization per batch) and its
  // event queries come once per 2 ms, not per launch: their driver calls contend with the
  // application's. On an H200 (launch-cost probe, 1-CTA kernel under bbcount, time spent inside
  // cudaLaunchKernel): 27-31 us per launch with a batch per launch, 10.4-11.3 us with 150-180
  // batches for 22,200 launches; NVIDIA's runtime 4.0-4.7 us.
  std::deque<std::unique_ptr<PendingLaunch>> waiting;
  constexpr auto kShortest = std::chrono::microseconds(20);
  constexpr auto kLongest = std::chrono::microseconds(2000);
  auto pause = kShortest;
  bool progressed = false;
  while (true) {
    {
      std::unique_lock lock(mutex_);
      // After a batch the worker pauses before it looks again, also when nothing is waiting:
      // an application launching every few microseconds pushes the next launch right after.
      if (waiting.empty() && queue_.empty() && !progressed) {
        sleeping_ = true;
        work_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
        sleeping_ = false;
        pause = kShortest;
      } else
        // Launches pushed meanwhile wait for the pause's end: waking for each, or sleeping only
        // until the next push once a batch left none waiting, made nearly every launch a batch of
        // its own, with its own result copy, fill and synchronization, whose driver calls slowed
        // the application's launches 2-3x (the launch bench's 1-CTA kernel under bbcount on an
        // H200: 35,000 batches for 42,000 launches).
        work_.wait_for(lock, pause, [&] { return stopping_ || flushing_ > 0; });
      if (stopping_)
        return;
      for (auto& launch : queue_)
        waiting.push_back(std::move(launch));
      queue_.clear(); // keeps its capacity: a push allocates nothing once it has grown
    }
    Batch batch;
    // A stream runs its work in order: when the newest waiting launch of a stream has finished,
    // so has every earlier one, and one event query answers for all of them (the worker's driver
    // calls contend with the application's launches, so they must not grow with the launches).
    // "Earlier" holds among the launches of one host thread: two threads launching into one stream
    // may push their launches in another order than the stream runs them.
    // Streams the application created qualify (their handles name one stream of one device), and
    // the legacy default stream, which handles 0 and cudaStreamLegacy (1) name on each device: the
    // launch bench's 1-CTA kernels on it cost the worker an event query each otherwise. The
    // per-thread default stream (cudaStreamPerThread, 2: launches through the _ptsz entry points
    // resolve 0 to it) is one per host thread under a single handle, so its launches are asked one
    // by one.
    using StreamKey = std::tuple<const Device*, uint64_t, uint64_t>; // device, stream, thread
    auto keyOf = [](const PendingLaunch& launch) {
      const uint64_t legacy = reinterpret_cast<uint64_t>(cudaStreamLegacy);
      return StreamKey{launch.device, launch.info.stream == legacy ? 0 : launch.info.stream,
                       launch.hostThread};
    };
    auto inOrder = [](const PendingLaunch& launch) {
      return launch.info.stream != reinterpret_cast<uint64_t>(cudaStreamPerThread);
    };
    std::vector<std::pair<StreamKey, const PendingLaunch*>> finishedUpTo; // stream, newest done
    {
      std::vector<StreamKey> seen;
      for (auto it = waiting.rbegin(); it != waiting.rend(); ++it) {
        PendingLaunch& launch = **it;
        const StreamKey stream = keyOf(launch);
        if ((launch.done == nullptr && !launch.signals) || !inOrder(launch) ||
            std::find(seen.begin(), seen.end(), stream) != seen.end())
          continue;
        seen.push_back(stream);
        if (it == waiting.rbegin() && waiting.size() == 1)
          break; // a single launch: the loop below asks it anyway
        if (launch.signals) {
          // Its kernel wrote its completion word: no driver call.
          if (launch.ring->signalled(launch.chunk))
            finishedUpTo.emplace_back(stream, &launch);
          continue;
        }
        launch.device->activate();
        relaxStreamCaptureRules(*launch.device);
        if (launch.done->query() == cudaSuccess)
          finishedUpTo.emplace_back(stream, &launch);
      }
    }
    std::vector<uint64_t> busyStreams;      // streams with an earlier launch still running
    std::vector<StreamKey> finishedStreams; // streams whose newest done launch is not reached yet
    for (const auto& entry : finishedUpTo)
      finishedStreams.push_back(entry.first);
    for (auto it = waiting.begin(); it != waiting.end();) {
      PendingLaunch& launch = **it;
      const uint64_t stream = launch.info.stream;
      if (auto done = std::find(finishedStreams.begin(), finishedStreams.end(), keyOf(launch));
          inOrder(launch) && done != finishedStreams.end()) {
        // Finished with its stream's newest (which succeeded, so this one did too).
        const bool newest = std::any_of(finishedUpTo.begin(), finishedUpTo.end(),
                                        [&](const auto& e) { return e.second == &launch; });
        if (newest)
          finishedStreams.erase(done);
        batch.push_back(std::move(*it));
        it = waiting.erase(it);
        continue;
      }
      bool ready = std::find(busyStreams.begin(), busyStreams.end(), stream) == busyStreams.end();
      if (ready && launch.signals)
        ready = launch.ring->signalled(launch.chunk);
      // Even after a device reset, the launch is over only when its completion event says so: its
      // result copies may still be queued, writing into staging memory that complete() frees (the
      // event objects outlive the reset and answer for it, with an error once the work is gone).
      else if (ready && launch.done != nullptr) {
        launch.device->activate();
        relaxStreamCaptureRules(*launch.device);
        // Any answer but "not ready" means done: success, or the error that stopped the launch or
        // its result copies (the profile then reports a failed launch, not the buffers).
        const cudaError_t status = launch.done->query();
        ready = status != cudaErrorNotReady;
        if (ready && launch.outcome == cudaSuccess)
          launch.outcome = status;
      }
      if (!ready) {
        busyStreams.push_back(stream);
        ++it;
        continue;
      }
      batch.push_back(std::move(*it));
      it = waiting.erase(it);
    }
    unsignalled(waiting, batch);
    progressed = !batch.empty();
    if (progressed) {
      const uint64_t count = batch.size();
      complete_(batch);
      finished(count);
    }
    pause = progressed ? kLongest : std::min(pause * 2, kLongest);
  }
}

} // namespace ocelot::runtime::instrumentation
