#pragma once

// The bodies of the launch calls that have a per-thread default stream variant (_ptsz):
// ExecutionApi.cpp defines them.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <driver_types.h>
#include <vector_types.h>

namespace ocelot::runtime::api {

cudaError_t launchCooperativeKernel(const void* function, dim3 grid, dim3 block, void** args,
                                    size_t sharedMem, cudaStream_t stream);
/// cudaLaunchKernelExC; `perThreadStream`: the _ptsz variant (stream 0 is the thread's own).
cudaError_t launchKernelEx(const cudaLaunchConfig_t* config, const void* function, void** args,
                           bool perThreadStream);

} // namespace ocelot::runtime::api
