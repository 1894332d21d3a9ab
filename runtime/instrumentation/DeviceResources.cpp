#include "runtime/instrumentation/DeviceResources.h"

#include <cstdlib>

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
              cudaError_t error = device_.registerHost(*p, bytes, cudaHostRegisterDefault);
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
              device_.unregisterHost(p);
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

cudaEvent_t DeviceResources::acquireEvent() {
  {
    std::lock_guard lock(eventsMutex_);
    if (!events_.empty()) {
      cudaEvent_t event = events_.back();
      events_.pop_back();
      return event;
    }
  }
  cudaEvent_t event = nullptr;
  if (device_.createEvent(&event, cudaEventDefault) != cudaSuccess)
    return nullptr;
  return event;
}

void DeviceResources::releaseEvent(cudaEvent_t event, uint64_t generation) {
  if (event == nullptr)
    return;
  std::lock_guard lock(eventsMutex_);
  if (generation == generation_.load(std::memory_order_acquire))
    events_.push_back(event);
}

cudaError_t DeviceResources::read(void* host, const void* device, size_t bytes) {
  std::lock_guard lock(readMutex_);
  if (readStream_ == nullptr)
    if (cudaError_t error = device_.createStream(&readStream_, cudaStreamNonBlocking, 0);
        error != cudaSuccess) {
      readStream_ = nullptr;
      return error;
    }
  if (cudaError_t error = device_.copy(host, device, bytes, readStream_, true);
      error != cudaSuccess)
    return error;
  return device_.synchronizeStream(readStream_);
}

void DeviceResources::forget() {
  {
    std::lock_guard lock(readMutex_);
    readStream_ = nullptr; // destroyed by the reset
  }
  deviceBuffers_.forget();
  // Staging memory is Ocelot's own and outlives the reset (only a registration goes with the
  // context; unregistering what the reset already dropped fails harmlessly): free it.
  staging_.trim();
  staging_.forget();
  std::lock_guard lock(eventsMutex_);
  events_.clear();
  generation_.fetch_add(1, std::memory_order_acq_rel);
}

} // namespace ocelot::runtime::instrumentation
