#pragma once

#include "runtime/core/HandleTable.h"

#include <cuda_runtime_api.h>

#include <driver_types.h>

namespace ocelot::runtime {

class Stream;

/// An event of a device: the completion of its latest record in a stream. Its handle is the
/// device's own (the CUevent itself on the driver).
class Event {
public:
  explicit Event(cudaEvent_t handle) : handle_(handle) {}
  virtual ~Event() = default;
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  cudaEvent_t handle() const { return handle_; }

  /// cudaEventRecordWithFlags (flags validated; 0 for cudaEventRecord).
  virtual cudaError_t record(Stream& stream, unsigned int flags) = 0;
  virtual cudaError_t synchronize() = 0;
  /// cudaSuccess once the latest record completed, cudaErrorNotReady before.
  virtual cudaError_t query() = 0;
  /// cudaEventElapsedTime(start, this): milliseconds from `start`'s completion to this event's.
  virtual cudaError_t elapsedSince(Event& start, float* milliseconds) = 0;

private:
  const cudaEvent_t handle_;
};

/// A device's events. A device reset takes the handles away but never the objects (they go with
/// the device): a holder from before the reset (Ocelot's profile thread, a racing application
/// thread) may still query one, which answers for the work it stood for.
class Events {
public:
  virtual ~Events() = default;

  /// cudaEventCreateWithFlags (flags validated).
  virtual cudaError_t create(unsigned int flags, Event** event) = 0;
  virtual cudaError_t destroy(Event& event) = 0;

  /// The event of a handle, or null when the device knows none.
  Event* find(cudaEvent_t handle) {
    if (Event* event = table_.find(handle))
      return event;
    return adopt(handle);
  }

protected:
  /// A handle the table does not know (see Streams::adopt).
  virtual Event* adopt(cudaEvent_t /*handle*/) { return nullptr; }

  HandleTable<Event> table_;
};

} // namespace ocelot::runtime
