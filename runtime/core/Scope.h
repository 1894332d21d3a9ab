#pragma once

#include "runtime/core/Array.h"
#include "runtime/core/Copies.h"
#include "runtime/core/Device.h"
#include "runtime/core/Event.h"
#include "runtime/core/ExternalResource.h"
#include "runtime/core/Graph.h"
#include "runtime/core/HostMemory.h"
#include "runtime/core/Ipc.h"
#include "runtime/core/Library.h"
#include "runtime/core/ManagedMemory.h"
#include "runtime/core/MemoryPool.h"
#include "runtime/core/Runtime.h"
#include "runtime/core/Stream.h"
#include "runtime/core/Texture.h"

#include <cuda_runtime_api.h>

namespace ocelot::runtime {

/// A Runtime API call that fails before it reaches a device: a handle that names nothing, a
/// feature the device does not have. Scope throws it; the API boundary answers with `error`.
struct CallError {
  cudaError_t error;
};

/// What one Runtime API call works in: the runtime, the calling thread's state and its current
/// device, and the application's handles turned into that device's objects. Every API function
/// that needs a device starts with one; each resolver answers the object or throws CallError with
/// the error NVIDIA's runtime gives for such a handle.
class Scope {
public:
  explicit Scope(Runtime& runtime)
      : runtime_(runtime), thread_(runtime.thread()), epoch_(runtime.resetEpoch()) {}

  Runtime& runtime() { return runtime_; }
  ThreadState& thread() { return thread_; }

  /// Makes the calling thread's current device ready for a call: the runtime initialized, no
  /// sticky error, the device's context current on this thread. Every call that uses the current
  /// device opens it first.
  cudaError_t open() { return runtime_.currentDevice(thread_, &device_, &ordinal_); }
  /// The opened device and its ordinal.
  Device& device() { return *device_; }
  int ordinal() const { return ordinal_; }
  /// A device by ordinal (the runtime initialized; its context is not made current):
  /// cudaErrorInvalidDevice when there is none.
  Device& device(int ordinal) {
    Device* device = nullptr;
    check(runtime_.deviceByOrdinal(ordinal, &device));
    return *device;
  }
  /// The runtime initialized (throws its error otherwise).
  void initialize() { check(runtime_.initialize()); }

  /// A device's result: errors that corrupt the context become sticky.
  /// Not when a cudaDeviceReset overlapped the call: the error was the destroyed context's.
  cudaError_t result(cudaError_t error) { return runtime_.deviceResult(error, epoch_); }

  // --- The opened device's objects ---------------------------------------------------------
  Stream& stream(cudaStream_t handle) { return stream(*device_, handle); }
  /// A stream of another device (the destination's, for a peer copy).
  static Stream& stream(Device& device, cudaStream_t handle) {
    return found(device.streams().find(handle), cudaErrorInvalidResourceHandle);
  }
  Event& event(cudaEvent_t handle) {
    if (handle == nullptr)
      throw CallError{cudaErrorInvalidResourceHandle};
    return found(device_->events().find(handle), cudaErrorInvalidResourceHandle);
  }

  /// Graphs and executable graphs: null and unknown handles are invalid values.
  Graph& graph(cudaGraph_t handle) {
    if (handle == nullptr)
      throw CallError{cudaErrorInvalidValue};
    return found(graphs().find(handle), cudaErrorInvalidValue);
  }
  GraphExec& exec(cudaGraphExec_t handle) {
    if (handle == nullptr)
      throw CallError{cudaErrorInvalidValue};
    return found(graphs().find(handle), cudaErrorInvalidValue);
  }
  MemoryPool& pool(cudaMemPool_t handle) {
    if (handle == nullptr)
      throw CallError{cudaErrorInvalidValue};
    return found(memoryPools().find(handle), cudaErrorInvalidValue);
  }

  /// CUDA arrays: null and unknown handles are invalid resource handles.
  Array& array(cudaArray_const_t handle) { return array(*device_, handle); }
  static Array& array(Device& device, cudaArray_const_t handle) {
    if (handle == nullptr)
      throw CallError{cudaErrorInvalidResourceHandle};
    return found(area(device.arrays()).find(handle), cudaErrorInvalidResourceHandle);
  }
  MipmappedArray& mipmappedArray(cudaMipmappedArray_const_t handle) {
    return mipmappedArray(*device_, handle);
  }
  static MipmappedArray& mipmappedArray(Device& device, cudaMipmappedArray_const_t handle) {
    if (handle == nullptr)
      throw CallError{cudaErrorInvalidResourceHandle};
    return found(area(device.arrays()).find(handle), cudaErrorInvalidResourceHandle);
  }
  /// Texture and surface objects: unknown handles are invalid values.
  Texture& texture(cudaTextureObject_t handle) {
    return found(textures().findTexture(handle), cudaErrorInvalidValue);
  }
  Surface& surface(cudaSurfaceObject_t handle) {
    return found(textures().findSurface(handle), cudaErrorInvalidValue);
  }

  /// External memory and semaphores (the area first: cudaErrorNotSupported where there is none).
  ExternalMemory& externalMemory(cudaExternalMemory_t handle) {
    return found(externalResources().find(handle), cudaErrorInvalidResourceHandle);
  }

  // --- The opened device's areas (cudaErrorNotSupported where it has none) --------------------
  HostMemory& hostMemory() { return area(device_->hostMemory()); }
  ManagedMemory& managedMemory() { return area(device_->managedMemory()); }
  Copies& copies() { return area(device_->copies()); }
  MemoryPools& memoryPools() { return area(device_->memoryPools()); }
  Graphs& graphs() { return area(device_->graphs()); }
  Ipc& ipc() { return area(device_->ipc()); }
  Arrays& arrays() { return area(device_->arrays()); }
  Textures& textures() { return area(device_->textures()); }
  ExternalResources& externalResources() { return area(device_->externalResources()); }
  /// An area of a device, cudaErrorNotSupported when it has none.
  template <class Area> static Area& area(Area* area) { return found(area, cudaErrorNotSupported); }

  /// Throws `error` unless it is success.
  static void check(cudaError_t error) {
    if (error != cudaSuccess) [[unlikely]]
      throw CallError{error};
  }
  /// `*object`, or throws `error` when there is none.
  template <class Object> static Object& found(Object* object, cudaError_t error) {
    if (object == nullptr) [[unlikely]]
      throw CallError{error};
    return *object;
  }

private:
  Runtime& runtime_;
  ThreadState& thread_;
  Device* device_ = nullptr;
  int ordinal_ = 0;
  uint64_t epoch_; ///< the runtime's reset epoch when the call began
};

} // namespace ocelot::runtime
