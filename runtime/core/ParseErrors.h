#pragma once

#include "ir/Parser.h"

#include <driver_types.h>

namespace ocelot::runtime {

/// The error NVIDIA's runtime gives for a module whose PTX fails to parse as `parsed` did: a
/// `.version` newer than the JIT knows is cudaErrorUnsupportedPtxVersion, a module beyond the
/// front end's memory budget cudaErrorMemoryAllocation, anything else cudaErrorInvalidPtx.
inline cudaError_t parseFailureError(const ir::ParseResult& parsed) {
  if (parsed.diagnostics.empty())
    return cudaErrorInvalidPtx;
  switch (parsed.diagnostics.front().kind) {
  case ir::DiagnosticKind::UnsupportedPtxVersion:
    return cudaErrorUnsupportedPtxVersion;
  case ir::DiagnosticKind::ResourceLimit:
    return cudaErrorMemoryAllocation;
  default:
    return cudaErrorInvalidPtx;
  }
}

} // namespace ocelot::runtime
