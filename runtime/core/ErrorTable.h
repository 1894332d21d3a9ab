#pragma once

#include <driver_types.h>

namespace ocelot::runtime {

/// cudaGetErrorName: "cudaErrorInvalidValue"; "unrecognized error code" for codes CUDA 13.0 does
/// not define (exactly what NVIDIA's library answers).
const char* errorName(int error);
/// cudaGetErrorString: "invalid argument"; "unrecognized error code" for unknown codes.
const char* errorString(int error);
/// Whether CUDA 13.0 defines `code`.
bool isKnownError(int error);
/// Errors that leave the context unusable (a kernel faulted, trapped or timed out): NVIDIA's
/// runtime returns them from every later call until the device is reset.
bool isStickyError(cudaError_t error);

} // namespace ocelot::runtime
