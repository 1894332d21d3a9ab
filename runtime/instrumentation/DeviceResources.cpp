#include "runtime/instrumentation/DeviceResources.h"

#include "runtime/core/HostMemory.h"

#include <chrono>
#include <cstdlib>
#include <thread>

namespace ocelot::runtime::instrumentation {
namespace {

constexpr size_t kPageBytes = 4096;

size_t roundUpToPage(size_t bytes) {
  return (bytes == 0 ? 1 : (bytes + kPageBytes - 1) / kPageBytes) * kPageBytes;
}

} // namespace

DeviceResources::DeviceResources(Device& device)
    : device_(device),
      deviceBuffers_([&device](void** p, size_t n) { return device.allocate(p, n); },
                     [&device](void* p) { device.free(p); }),
      // Pinned memory makes the copy back truly asynchronous. It is page-aligned memory of
      // Ocelot's own, registered with the device, never cudaHostAlloc: the driver carves small
      // cudaHostAlloc blocks out of shared pinned chunks, and cudaHostGetFlags then reports the
      // chunk's flags, so Ocelot's buffers would change what the application's allocations
      // report. A device that cannot register (test devices) gets ordinary host memory: the
      // copy is still in stream order.
      staging_(
          [this](void** p, size_t n) {
            const size_t bytes = roundUpToPage(n);
            *p = std::aligned_alloc(kPageBytes, bytes);
            if (*p == nullptr)
              return cudaErrorMemoryAllocation;
            if (!pageable_.load(std::memory_order_relaxed)) {
              HostMemory* host = device_.hostMemory();
              cudaError_t error = host != nullptr
                                      ? host->registerRange(*p, bytes, cudaHostRegisterDefault)
                                      : cudaErrorNotSupported;
              if (error == cudaSuccess)
                return cudaSuccess;
              if (error != cudaErrorNotSupported) {
                std::free(*p);
                *p = nullptr;
                return error;
              }
              pageable_.store(true, std::memory_order_relaxed);
            }
            return cudaSuccess;
          },
          [this](void* p) {
            if (!pageable_.load(std::memory_order_relaxed))
              device_.hostMemory()->unregisterRange(p);
            std::free(p);
          },
          /*freeForgotten=*/true) {
  int value = 0;
  if (device.attribute(cudaDevAttrMultiProcessorCount, &value) == cudaSuccess)
    facts_.multiprocessors = value;
  if (device.attribute(cudaDevAttrClockRate, &value) == cudaSuccess)
    facts_.clockRateKHz = value;
  facts_.computeCapability = static_cast<int>(device.computeCapability().number());
}

Event* DeviceResources::acquireEvent(bool timed) {
  {
    std::lock_guard lock(eventsMutex_);
    std::vector<Event*>& pool = timed ? events_ : untimedEvents_;
    if (!pool.empty()) {
      Event* event = pool.back();
      pool.pop_back();
      return event;
    }
  }
  Event* event = nullptr;
  if (device_.events().create(timed ? cudaEventDefault : cudaEventDisableTiming, &event) !=
      cudaSuccess)
    return nullptr;
  if (!timed) {
    std::lock_guard lock(eventsMutex_);
    untimed_.insert(event);
  }
  return event;
}

void DeviceResources::releaseEvent(Event* event, uint64_t generation) {
  if (event == nullptr)
    return;
  std::lock_guard lock(eventsMutex_);
  if (generation == generation_.load(std::memory_order_acquire))
    (untimed_.contains(event) ? untimedEvents_ : events_).push_back(event);
}

Stream* DeviceResources::ownStreamLocked() {
  if (readStream_ == nullptr)
    if (device_.streams().create(cudaStreamNonBlocking, 0, &readStream_) != cudaSuccess)
      readStream_ = nullptr;
  return readStream_;
}

Stream* DeviceResources::ownStream() {
  std::lock_guard lock(readMutex_);
  return ownStreamLocked();
}

std::shared_ptr<ResultRing> DeviceResources::ring() {
  if (resetting())
    return nullptr; // the reset would destroy it at once
  // Every instrumented launch asks for the ring: a lock of its own, never held across a driver
  // call once the ring exists. readMutex_, which read() holds through a copy and a synchronize
  // on the profile worker's thread, is taken only to make it.
  std::lock_guard ringLock(ringMutex_);
  if (!ringTried_) {
    std::lock_guard lock(readMutex_);
    ringTried_ = true;
    std::unique_ptr<ResultRing> made;
    Stream* stream = ownStreamLocked();
    const cudaError_t error = stream == nullptr
                                  ? cudaErrorNotSupported
                                  : ResultRing::create(device_, *stream, kRingBytes, &made);
    ringError_.store(error, std::memory_order_relaxed);
    if (error == cudaSuccess)
      ring_ = std::move(made);
  }
  return ring_;
}

cudaError_t DeviceResources::read(void* host, const void* device, size_t bytes) {
  std::lock_guard lock(readMutex_);
  if (ownStreamLocked() == nullptr)
    return cudaErrorNotSupported;
  if (cudaError_t error = device_.copy(host, device, bytes, *readStream_, true);
      error != cudaSuccess)
    return error;
  return readStream_->synchronize();
}

void DeviceResources::forget() {
  {
    std::lock_guard ringLock(ringMutex_); // before readMutex_, as in ring()
    std::lock_guard lock(readMutex_);
    readStream_ = nullptr; // destroyed by the reset
    // Launches in flight keep the ring (its host mirror) until they complete; its device memory
    // went with the reset. The next launch makes a new one.
    if (ring_)
      ring_->forgetDeviceMemory();
    ring_.reset();
    ringTried_ = false;
  }
  deviceBuffers_.forget();
  // Staging memory is Ocelot's own and outlives the reset (only a registration goes with the
  // context; unregistering what the reset already dropped fails harmlessly): free it.
  staging_.trim();
  staging_.forget();
  std::lock_guard lock(eventsMutex_);
  events_.clear();
  untimedEvents_.clear();
  untimed_.clear();
  generation_.fetch_add(1, std::memory_order_acq_rel);
}

} // namespace ocelot::runtime::instrumentation

namespace ocelot::runtime::instrumentation {

DeviceResources::Use DeviceResources::use() {
  users_.fetch_add(1, std::memory_order_seq_cst);
  if (resetting_.load(std::memory_order_seq_cst) > 0) {
    users_.fetch_sub(1, std::memory_order_seq_cst);
    return Use();
  }
  return Use(this);
}

void DeviceResources::beginReset() {
  // New uses see the reset from here on; those in progress (a launch being enqueued, a read back
  // being synchronized: microseconds) end before anything is forgotten and the device destroys
  // the memory.
  resetting_.fetch_add(1, std::memory_order_seq_cst);
  while (users_.load(std::memory_order_seq_cst) != 0)
    std::this_thread::sleep_for(std::chrono::microseconds(20));
  forget();
}

void DeviceResources::endReset() {
  forget();
  resetting_.fetch_sub(1, std::memory_order_seq_cst);
}

} // namespace ocelot::runtime::instrumentation
