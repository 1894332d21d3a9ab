#include "runtime/core/LaunchLimits.h"

#include <limits>

namespace ocelot::runtime {
namespace {

/// An attribute as an unsigned limit; a device that cannot say imposes none (the device's own
/// launch then decides).
unsigned int limitOf(Device& device, cudaDeviceAttr attribute) {
  int value = 0;
  if (device.attribute(attribute, &value) != cudaSuccess || value <= 0)
    return std::numeric_limits<unsigned int>::max();
  return static_cast<unsigned int>(value);
}

} // namespace

LaunchLimits LaunchLimits::of(Device& device) {
  LaunchLimits limits;
  limits.maxThreadsPerBlock = limitOf(device, cudaDevAttrMaxThreadsPerBlock);
  limits.maxBlock =
      dim3(limitOf(device, cudaDevAttrMaxBlockDimX), limitOf(device, cudaDevAttrMaxBlockDimY),
           limitOf(device, cudaDevAttrMaxBlockDimZ));
  limits.maxGrid =
      dim3(limitOf(device, cudaDevAttrMaxGridDimX), limitOf(device, cudaDevAttrMaxGridDimY),
           limitOf(device, cudaDevAttrMaxGridDimZ));
  return limits;
}

} // namespace ocelot::runtime
