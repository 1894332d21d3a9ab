// Runtime: device properties, flags, limits, cache configuration, PCI bus ids and peer access.

#include "runtime/core/ChannelFormat.h"
#include "runtime/core/DeviceProperties.h"
#include "runtime/core/PciBusId.h"
#include "runtime/core/Runtime.h"

#include <cstring>

namespace ocelot::runtime {
namespace {

bool validLimit(int limit) {
  return limit >= cudaLimitStackSize && limit <= cudaLimitPersistingL2CacheSize;
}

bool validCacheConfig(int config) {
  return config >= cudaFuncCachePreferNone && config <= cudaFuncCachePreferEqual;
}

/// How well a device matches what cudaChooseDevice asks for: the closest compute capability, then
/// the most multiprocessors. Fields left zero in `wanted` do not count.
long long matchScore(const cudaDeviceProp& device, const cudaDeviceProp& wanted) {
  long long score = 0;
  if (wanted.major != 0 || wanted.minor != 0) {
    long long have = device.major * 10 + device.minor;
    long long want = wanted.major * 10 + wanted.minor;
    score -= (have >= want ? have - want : (want - have) * 1000) * 1000000;
  }
  score += device.multiProcessorCount;
  return score;
}

} // namespace

cudaError_t Runtime::getDeviceProperties(cudaDeviceProp* properties, int device) {
  Device* selected = nullptr;
  if (cudaError_t error = deviceByOrdinal(device, &selected); error != cudaSuccess)
    return error;
  if (properties == nullptr)
    return cudaErrorInvalidValue;
  return fillDeviceProperties(*selected, properties);
}

cudaError_t Runtime::chooseDevice(int* device, const cudaDeviceProp* properties) {
  if (cudaError_t error = initialize(); error != cudaSuccess)
    return error;
  if (device == nullptr || properties == nullptr)
    return cudaErrorInvalidValue;
  int best = 0;
  long long bestScore = 0;
  for (int ordinal = 0; ordinal < platform_.platform->deviceCount(); ++ordinal) {
    cudaDeviceProp candidate;
    if (fillDeviceProperties(platform_.platform->device(ordinal), &candidate) != cudaSuccess)
      continue;
    long long score = matchScore(candidate, *properties);
    if (ordinal == 0 || score > bestScore) {
      best = ordinal;
      bestScore = score;
    }
  }
  *device = best;
  return cudaSuccess;
}

cudaError_t Runtime::setValidDevices(int* devices, int count) {
  if (cudaError_t error = initialize(); error != cudaSuccess)
    return error;
  if (count < 0 || (count > 0 && devices == nullptr))
    return cudaErrorInvalidValue;
  for (int i = 0; i < count; ++i)
    if (devices[i] < 0 || devices[i] >= platform_.platform->deviceCount())
      return cudaErrorInvalidDevice;
  // Ocelot does not let devices be chosen implicitly: the list is accepted and the thread keeps
  // its current device, which is the first valid one when the list says so.
  if (count > 0)
    thread().currentDevice = devices[0];
  return cudaSuccess;
}

cudaError_t Runtime::setDeviceFlags(unsigned int flags) {
  Device* device = nullptr;
  if (cudaError_t error = deviceByOrdinal(thread().currentDevice, &device); error != cudaSuccess)
    return error;
  if ((flags & ~static_cast<unsigned int>(cudaDeviceMask)) != 0)
    return cudaErrorInvalidValue;
  // Only one scheduling policy at a time.
  unsigned int schedule = flags & cudaDeviceScheduleMask;
  if (schedule != cudaDeviceScheduleAuto && schedule != cudaDeviceScheduleSpin &&
      schedule != cudaDeviceScheduleYield && schedule != cudaDeviceScheduleBlockingSync)
    return cudaErrorInvalidValue;
  return deviceResult(device->setFlags(flags));
}

cudaError_t Runtime::getDeviceFlags(unsigned int* flags) {
  Device* device = nullptr;
  if (cudaError_t error = deviceByOrdinal(thread().currentDevice, &device); error != cudaSuccess)
    return error;
  if (flags == nullptr)
    return cudaErrorInvalidValue;
  return deviceResult(device->flags(flags));
}

cudaError_t Runtime::deviceGetLimit(size_t* value, int limit) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (value == nullptr || !validLimit(limit))
    return cudaErrorInvalidValue;
  return deviceResult(device->limit(static_cast<cudaLimit>(limit), value));
}

cudaError_t Runtime::deviceSetLimit(int limit, size_t value) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (!validLimit(limit))
    return cudaErrorInvalidValue;
  return deviceResult(device->setLimit(static_cast<cudaLimit>(limit), value));
}

cudaError_t Runtime::deviceGetCacheConfig(cudaFuncCache* config) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (config == nullptr)
    return cudaErrorInvalidValue;
  return deviceResult(device->cacheConfig(config));
}

cudaError_t Runtime::deviceSetCacheConfig(int config) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (!validCacheConfig(config))
    return cudaErrorInvalidValue;
  return deviceResult(device->setCacheConfig(static_cast<cudaFuncCache>(config)));
}

// Shared-memory bank configuration is fixed at four bytes since Volta; the calls remain.
cudaError_t Runtime::deviceGetSharedMemConfig(cudaSharedMemConfig* config) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (config == nullptr)
    return cudaErrorInvalidValue;
  *config = cudaSharedMemBankSizeFourByte;
  return cudaSuccess;
}

cudaError_t Runtime::deviceSetSharedMemConfig(int config) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (config < cudaSharedMemBankSizeDefault || config > cudaSharedMemBankSizeEightByte)
    return cudaErrorInvalidValue;
  return cudaSuccess;
}

cudaError_t Runtime::deviceGetPCIBusId(char* busId, int length, int device) {
  Device* selected = nullptr;
  if (cudaError_t error = deviceByOrdinal(device, &selected); error != cudaSuccess)
    return error;
  if (busId == nullptr || length <= 0)
    return cudaErrorInvalidValue;
  PciBusId id;
  int value = 0;
  if (cudaError_t error = selected->attribute(cudaDevAttrPciDomainId, &value); error != cudaSuccess)
    return error;
  id.domain = static_cast<unsigned int>(value);
  if (cudaError_t error = selected->attribute(cudaDevAttrPciBusId, &value); error != cudaSuccess)
    return error;
  id.bus = static_cast<unsigned int>(value);
  if (cudaError_t error = selected->attribute(cudaDevAttrPciDeviceId, &value); error != cudaSuccess)
    return error;
  id.device = static_cast<unsigned int>(value);
  // Like the driver, write as much as fits, always terminated.
  std::string text = id.text();
  size_t copied = std::min(text.size(), static_cast<size_t>(length) - 1);
  std::memcpy(busId, text.data(), copied);
  busId[copied] = '\0';
  return cudaSuccess;
}

cudaError_t Runtime::deviceGetByPCIBusId(int* device, const char* busId) {
  if (cudaError_t error = initialize(); error != cudaSuccess)
    return error;
  if (device == nullptr || busId == nullptr)
    return cudaErrorInvalidValue;
  auto wanted = PciBusId::parse(busId);
  if (!wanted)
    return cudaErrorInvalidValue;
  for (int ordinal = 0; ordinal < platform_.platform->deviceCount(); ++ordinal) {
    Device& candidate = platform_.platform->device(ordinal);
    int domain = 0, bus = 0, slot = 0;
    if (candidate.attribute(cudaDevAttrPciDomainId, &domain) != cudaSuccess ||
        candidate.attribute(cudaDevAttrPciBusId, &bus) != cudaSuccess ||
        candidate.attribute(cudaDevAttrPciDeviceId, &slot) != cudaSuccess)
      continue;
    if (static_cast<unsigned int>(domain) == wanted->domain &&
        static_cast<unsigned int>(bus) == wanted->bus &&
        static_cast<unsigned int>(slot) == wanted->device) {
      *device = ordinal;
      return cudaSuccess;
    }
  }
  return cudaErrorInvalidDevice;
}

cudaError_t Runtime::deviceCanAccessPeer(int* canAccess, int device, int peer) {
  Device* from = nullptr;
  Device* to = nullptr;
  if (cudaError_t error = deviceByOrdinal(device, &from); error != cudaSuccess)
    return error;
  if (cudaError_t error = deviceByOrdinal(peer, &to); error != cudaSuccess)
    return error;
  if (canAccess == nullptr)
    return cudaErrorInvalidValue;
  // A device is not its own peer.
  if (device == peer) {
    *canAccess = 0;
    return cudaSuccess;
  }
  // A back end without peer access (the CPU device's several devices, OCELOT_CPU_DEVICES: kernels
  // reach their own arena only) answers the question: no, as CUDA does for GPUs without it.
  cudaError_t error = from->canAccessPeer(canAccess, *to);
  if (error == cudaErrorNotSupported) {
    *canAccess = 0;
    return cudaSuccess;
  }
  return error;
}

cudaError_t Runtime::deviceEnablePeerAccess(int peer, unsigned int flags) {
  Device* device = nullptr;
  Device* other = nullptr;
  int ordinal = 0;
  if (cudaError_t error = currentDevice(&device, &ordinal); error != cudaSuccess)
    return error;
  if (cudaError_t error = deviceByOrdinal(peer, &other); error != cudaSuccess)
    return error;
  if (flags != 0)
    return cudaErrorInvalidValue;
  if (peer == ordinal)
    return cudaErrorInvalidDevice;
  return deviceResult(device->enablePeerAccess(*other, flags));
}

cudaError_t Runtime::deviceDisablePeerAccess(int peer) {
  Device* device = nullptr;
  Device* other = nullptr;
  int ordinal = 0;
  if (cudaError_t error = currentDevice(&device, &ordinal); error != cudaSuccess)
    return error;
  if (cudaError_t error = deviceByOrdinal(peer, &other); error != cudaSuccess)
    return error;
  if (peer == ordinal)
    return cudaErrorInvalidDevice;
  return deviceResult(device->disablePeerAccess(*other));
}

cudaError_t Runtime::deviceGetP2PAttribute(int* value, int attribute, int source, int destination) {
  Device* from = nullptr;
  Device* to = nullptr;
  if (cudaError_t error = deviceByOrdinal(source, &from); error != cudaSuccess)
    return error;
  if (cudaError_t error = deviceByOrdinal(destination, &to); error != cudaSuccess)
    return error;
  if (value == nullptr || attribute < cudaDevP2PAttrPerformanceRank ||
      attribute > cudaDevP2PAttrOnlyPartialNativeAtomicSupported)
    return cudaErrorInvalidValue;
  if (source == destination)
    return cudaErrorInvalidDevice;
  return from->p2pAttribute(value, static_cast<cudaDeviceP2PAttr>(attribute), *to);
}

cudaError_t Runtime::deviceGetAtomicCapabilities(unsigned int* capabilities,
                                                 const cudaAtomicOperation* operations,
                                                 unsigned int count, int device, int peer) {
  Device* from = nullptr;
  Device* to = nullptr;
  if (cudaError_t error = deviceByOrdinal(device, &from); error != cudaSuccess)
    return error;
  if (peer >= 0)
    if (cudaError_t error = deviceByOrdinal(peer, &to); error != cudaSuccess)
      return error;
  if (capabilities == nullptr || operations == nullptr || count == 0)
    return cudaErrorInvalidValue;
  return from->atomicCapabilities(capabilities, operations, count, to);
}

cudaError_t Runtime::deviceFlushGPUDirectRDMAWrites(int target, int scope) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (target != cudaFlushGPUDirectRDMAWritesTargetCurrentDevice ||
      (scope != cudaFlushGPUDirectRDMAWritesToOwner &&
       scope != cudaFlushGPUDirectRDMAWritesToAllDevices))
    return cudaErrorInvalidValue;
  return deviceResult(
      device->flushRemoteWrites(static_cast<cudaFlushGPUDirectRDMAWritesTarget>(target),
                                static_cast<cudaFlushGPUDirectRDMAWritesScope>(scope)));
}

cudaError_t Runtime::ctxResetPersistingL2Cache() {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  return deviceResult(device->resetPersistingL2Cache());
}

} // namespace ocelot::runtime
