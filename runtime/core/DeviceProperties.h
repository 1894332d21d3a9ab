#pragma once

#include "runtime/core/Device.h"

#include <driver_types.h>

namespace ocelot::runtime {

/// cudaGetDeviceProperties: every field of CUDA 13's cudaDeviceProp from the device's attributes
/// (the same attribute numbers NVIDIA's runtime reads from the driver), its name, UUID and total
/// memory. Works for any Device that answers attributes. Fields the device does not report stay
/// zero; the locally unique identifier (LUID) is undefined outside Windows and is left zero.
cudaError_t fillDeviceProperties(Device& device, cudaDeviceProp* properties);

} // namespace ocelot::runtime
