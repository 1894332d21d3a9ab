#pragma once

#include "runtime/cpu/LaunchServices.h"

#include <cstdint>
#include <string>
#include <vector_types.h>

namespace ocelot::runtime::cpu {

// Dynamic parallelism: the device runtime's launch calls (cudaGetParameterBuffer(V2),
// cudaLaunchDevice(V2)) as the interpreter provides them. A launch records the grid in its
// parent's LaunchState; the parent's runner starts the recorded grids after the parent grid has
// finished, in launch order, tail launches (cudaStreamTailLaunch) last: CUDA lets children run any
// time before the parent completes, and no later than that. Results are cudaError_t values.

/// The parameter buffer of a launch of the kernel at `function` (its address in device code), or
/// 0 with the launch's device error set.
uint64_t deviceParameterBuffer(LaunchState& launch, uint64_t function, dim3 grid, dim3 block,
                               uint32_t dynamicShared);
/// cudaGetParameterBuffer(alignment, size): a buffer for a later cudaLaunchDevice.
uint64_t deviceParameterBuffer(LaunchState& launch, uint64_t size);
/// cudaLaunchDeviceV2(buffer, stream).
uint32_t deviceLaunch(LaunchState& launch, uint64_t buffer, uint64_t stream);
/// cudaLaunchDevice(function, buffer, grid, block, shared, stream).
uint32_t deviceLaunch(LaunchState& launch, uint64_t function, uint64_t buffer, dim3 grid,
                      dim3 block, uint32_t dynamicShared, uint64_t stream);

/// Whether a recorded launch went to cudaStreamTailLaunch (it runs after the parent's others).
bool isTailLaunch(const DeviceLaunch& launch);

/// The LaunchState of a grid `parent` launched, ready to run (shares its memory, heap, textures
/// and options).
void prepareChildLaunch(const LaunchState& parent, const DeviceLaunch& launch, LaunchState* child);

} // namespace ocelot::runtime::cpu
