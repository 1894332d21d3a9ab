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
    if (grid.x == 0 || grid.y == 0 || grid.z == 0 || block.x == 0 || block.y == 0 || block.z == 0)
      return cudaErrorInvalidValue;
    if (block.x > maxBlock.x || block.y > maxBlock.y || block.z > maxBlock.z ||
        grid.x > maxGrid.x || grid.y > maxGrid.y || grid.z > maxGrid.z)
      return cudaErrorInvalidValue;
    unsigned long long threads = static_cast<unsigned long long>(block.x) * block.y *
                                 static_cast<unsigned long long>(block.z);
    return threads > maxThreadsPerBlock ? cudaErrorInvalidValue : cudaSuccess;
  }
};

} // namespace ocelot::runtime
