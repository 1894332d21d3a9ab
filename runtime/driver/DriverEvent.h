#pragma once

#include "runtime/core/Event.h"
#include "runtime/driver/DriverApi.h"

namespace ocelot::runtime::driver {

/// An event of a GPU: the CUevent is the handle.
class DriverEvent final : public Event {
public:
  DriverEvent(const DriverApi& api, CUevent event) : Event(event), api_(api) {}

  cudaError_t record(Stream& stream, unsigned int flags) override;
  cudaError_t synchronize() override;
  cudaError_t query() override;
  cudaError_t elapsedSince(Event& start, float* milliseconds) override;

private:
  const DriverApi& api_;
};

/// A GPU's events. A CUevent the table does not know (made with cuEventCreate or opened from an
/// IPC handle) is wrapped when it is first seen.
class DriverEvents final : public Events {
public:
  explicit DriverEvents(const DriverApi& api) : api_(api) {}

  cudaError_t create(unsigned int flags, Event** event) override;
  cudaError_t destroy(Event& event) override;

protected:
  Event* adopt(cudaEvent_t handle) override;

private:
  const DriverApi& api_;
};

} // namespace ocelot::runtime::driver
