#pragma once

#include "runtime/driver/DriverApi.h"

#include <driver_types.h>

namespace ocelot::runtime::driver {

class DriverDevice;

/// Runtime API graph node parameters as the driver's (copies as CUDA_MEMCPY3D, the device's
/// context named where the driver wants one), and a node's parameters back.
cudaError_t toDriverNodeParams(DriverDevice& device, const cudaGraphNodeParams& params,
                               CUgraphNodeParams* out);
cudaError_t toRuntimeNodeParams(DriverDevice& device, CUgraphNode node, cudaGraphNodeParams* out);

} // namespace ocelot::runtime::driver
