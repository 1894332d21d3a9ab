#include "runtime/instrumentation/DeviceResources.h"

#include <cstdlib>

namespace ocelot::runtime::instrumentation {

DeviceResources::DeviceResources(Device& device)
    : device_(device),
      deviceBuffers_([&device](void** p, size_t n) { return device.allocate(p, n); },
                     [&device](void* p) { device.free(p); }),
      // Pinned memory makes the copy back truly asynchronous; a device that has none (Ocelot's
      // CPU back end, test devices) gets ordinary host memory: the copy is still in stream order.
      staging_(
          [this](void** p, size_t n) {
            if (!pageable_.load(std::memory_order_relaxed)) {
              cudaError_t error = device_.allocateHost(p, n, 0);
              if (error != cudaErrorNotSupported)
                return error;
              pageable_.store(true, std::memory_order_relaxed);
            }
            *p = std::malloc(n);
            return *p != nullptr ? cudaSuccess : cudaErrorMemoryAllocation;
          },
          [this](void* p) {
            if (pageable_.load(std::memory_order_relaxed))
              std::free(p);
            else
              device_.freeHost(p);
          }) {
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

void DeviceResources::releaseEvent(cudaEvent_t event) {
  if (event == nullptr)
    return;
  std::lock_guard lock(eventsMutex_);
  events_.push_back(event);
}

void DeviceResources::forget() {
  deviceBuffers_.forget();
  // Pageable staging memory (malloc) outlives the reset: free it; pinned memory went with it.
  if (pageable_.load(std::memory_order_relaxed))
    staging_.trim();
  staging_.forget();
  std::lock_guard lock(eventsMutex_);
  events_.clear();
}

} // namespace ocelot::runtime::instrumentation
