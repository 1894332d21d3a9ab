#pragma once

#include "runtime/core/Peers.h"

namespace ocelot::runtime::driver {

class DriverDevice;

/// Peer access between GPUs of the driver's platform, and atomics shared with peers and the host.
/// Every peer is another DriverDevice of the same platform.
class DriverPeers final : public Peers {
public:
  explicit DriverPeers(DriverDevice& device) : device_(device) {}

  cudaError_t canAccess(Device& peer, int* canAccess) override;
  cudaError_t enableAccess(Device& peer, unsigned int flags) override;
  cudaError_t disableAccess(Device& peer) override;
  cudaError_t attribute(Device& peer, cudaDeviceP2PAttr attribute, int* value) override;
  cudaError_t atomicCapabilities(Device* peer, const cudaAtomicOperation* operations,
                                 unsigned int count, unsigned int* capabilities) override;

private:
  DriverDevice& device_;
};

} // namespace ocelot::runtime::driver
