#include "runtime/driver/DriverEvent.h"

#include "runtime/core/Stream.h"

#include <memory>

namespace ocelot::runtime::driver {

cudaError_t DriverEvent::record(Stream& stream, unsigned int flags) {
  if (flags == 0)
    return toCudaError(api_.eventRecord(handle(), stream.handle()));
  return toCudaError(invoke(api_.eventRecordWithFlags, handle(), stream.handle(), flags));
}

cudaError_t DriverEvent::synchronize() {
  return toCudaError(api_.eventSynchronize(handle()));
}

cudaError_t DriverEvent::query() {
  return toCudaError(api_.eventQuery(handle()));
}

cudaError_t DriverEvent::elapsedSince(Event& start, float* milliseconds) {
  return toCudaError(api_.eventElapsedTime(milliseconds, start.handle(), handle()));
}

cudaError_t DriverEvents::create(unsigned int flags, Event** event) {
  CUevent created = nullptr;
  if (CUresult result = api_.eventCreate(&created, flags); result != CUDA_SUCCESS)
    return toCudaError(result);
  *event = table_.insert(created, std::make_unique<DriverEvent>(api_, created));
  return cudaSuccess;
}

cudaError_t DriverEvents::destroy(Event& event) {
  const cudaEvent_t handle = event.handle();
  cudaError_t result = toCudaError(api_.eventDestroy(handle));
  table_.remove(handle);
  return result;
}

Event* DriverEvents::adopt(cudaEvent_t handle) {
  return table_.findOrInsert(handle, [&] { return std::make_unique<DriverEvent>(api_, handle); });
}

} // namespace ocelot::runtime::driver
