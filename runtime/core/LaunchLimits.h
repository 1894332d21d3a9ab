#pragma once

#include "runtime/core/Device.h"

#include <driver_types.h>
#include <vector_types.h>

namespace ocelot::runtime {

/// The launch-configuration limits of one device, read once when the platform starts so that the
/// launch path checks them without asking the device.
struct LaunchLimits {
  unsigned int maxThreadsPerBlock = 0;
  dim3 maxBlock{0, 0, 0};
  dim3 maxGrid{0, 0, 0};

  /// Reads the limits from the device's attributes.
  static LaunchLimits of(Device& device);

  /// CUDA 13 reports every impossible configuration as cudaErrorInvalidValue: an empty grid or
  /// block, a dimension above the device's maximum, too many threads per block. (Earlier CUDA
  /// versions said cudaErrorInvalidConfiguration.)
  cudaError_t check(dim3 grid, dim3 block) const {
    // On the launch path: `x - 1` wraps for 0, so one unsigned compare per dimension rejects both
    // an empty dimension and one above the maximum (every maximum is at least 1).
    bool outside = (grid.x - 1 >= maxGrid.x) | (grid.y - 1 >= maxGrid.y) |
                   (grid.z - 1 >= maxGrid.z) | (block.x - 1 >= maxBlock.x) |
                   (block.y - 1 >= maxBlock.y) | (block.z - 1 >= maxBlock.z);
    if (outside)
      return cudaErrorInvalidValue;
    unsigned long long threads = static_cast<unsigned long long>(block.x) * block.y *
                                 static_cast<unsigned long long>(block.z);
    return threads > maxThreadsPerBlock ? cudaErrorInvalidValue : cudaSuccess;
  }
};

} // namespace ocelot::runtime
