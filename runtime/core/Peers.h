#pragma once

#include <cuda_runtime_api.h>

#include <driver_types.h>

namespace ocelot::runtime {

class Device;

/// What a device can do with other devices (never itself: the API answers that) and the host.
class Peers {
public:
  virtual ~Peers() = default;

  virtual cudaError_t canAccess(Device& peer, int* canAccess) = 0;
  virtual cudaError_t enableAccess(Device& peer, unsigned int flags) = 0;
  virtual cudaError_t disableAccess(Device& peer) = 0;
  virtual cudaError_t attribute(Device& peer, cudaDeviceP2PAttr attribute, int* value) = 0;
  /// cudaDeviceGetP2PAtomicCapabilities, or with `peer` null cudaDeviceGetHostAtomicCapabilities.
  virtual cudaError_t atomicCapabilities(Device* peer, const cudaAtomicOperation* operations,
                                         unsigned int count, unsigned int* capabilities) = 0;
};

} // namespace ocelot::runtime
