// Peer access between GPUs, and the atomics they share with peers and the host.
#include "runtime/driver/DriverPeers.h"

#include "runtime/driver/DriverDevice.h"

namespace ocelot::runtime::driver {
namespace {

/// A peer given to a two-device call, which is always another DriverDevice of the same platform.
DriverDevice& driverDevice(Device& device) {
  return static_cast<DriverDevice&>(device);
}

} // namespace

cudaError_t DriverPeers::canAccess(Device& peer, int* canAccess) {
  return toCudaError(invoke(device_.api().deviceCanAccessPeer, canAccess, device_.handle(),
                            driverDevice(peer).handle()));
}

cudaError_t DriverPeers::enableAccess(Device& peer, unsigned int flags) {
  // Peer access is granted from the current (this device's) context to the peer's context.
  CUcontext peerContext = nullptr;
  if (cudaError_t error = driverDevice(peer).primaryContext(&peerContext); error != cudaSuccess)
    return error;
  return toCudaError(invoke(device_.api().ctxEnablePeerAccess, peerContext, flags));
}

cudaError_t DriverPeers::disableAccess(Device& peer) {
  CUcontext peerContext = nullptr;
  if (cudaError_t error = driverDevice(peer).primaryContext(&peerContext); error != cudaSuccess)
    return error;
  return toCudaError(invoke(device_.api().ctxDisablePeerAccess, peerContext));
}

cudaError_t DriverPeers::attribute(Device& peer, cudaDeviceP2PAttr attribute, int* value) {
  // cudaDeviceP2PAttr and CUdevice_P2PAttribute number the attributes alike.
  return toCudaError(invoke(device_.api().deviceGetP2PAttribute, value,
                            static_cast<CUdevice_P2PAttribute>(attribute), device_.handle(),
                            driverDevice(peer).handle()));
}

cudaError_t DriverPeers::atomicCapabilities(Device* peer, const cudaAtomicOperation* operations,
                                            unsigned int count, unsigned int* capabilities) {
  const auto* driverOperations = reinterpret_cast<const CUatomicOperation*>(operations);
  if (peer == nullptr)
    return toCudaError(invoke(device_.api().deviceGetHostAtomicCapabilities, capabilities,
                              driverOperations, count, device_.handle()));
  return toCudaError(invoke(device_.api().deviceGetP2PAtomicCapabilities, capabilities,
                            driverOperations, count, device_.handle(),
                            driverDevice(*peer).handle()));
}

} // namespace ocelot::runtime::driver
