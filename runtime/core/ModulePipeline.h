#pragma once

#include "runtime/core/ModuleImage.h"
#include "runtime/core/Registration.h"
#include "runtime/fatbin/Expected.h"
#include "runtime/fatbin/Selection.h"

#include <string>

namespace ocelot::runtime {

/// Why Ocelot could not build its own module for a registration (one line for the log).
struct PipelineFailure {
  std::string reason;
};

/// Turns a registered fatbinary into the module Ocelot hands to a device: the best PTX for the
/// device is extracted, parsed into Ocelot's IR, transformed by the configured passes (none yet:
/// the module still goes through parse and emit) and emitted again. For a device-linked (-rdc)
/// program every unit's PTX goes through the pipeline and the device JIT-links the results.
class ModulePipeline {
public:
  /// Ocelot's module for a device of `capability`, or why there is none (one line: no PTX for the
  /// device, a decompression or parse error). The caller then loads `original()` instead.
  Expected<ModuleImage, PipelineFailure> build(const FatbinaryRegistration& registration,
                                               fatbin::ComputeCapability capability) const;

  /// The application's own code for the fallback path: its (device-linked) container, from which
  /// the driver picks the cubin or PTX exactly as it does for NVIDIA's runtime.
  static ModuleImage original(const FatbinaryRegistration& registration);

  /// "module 3 (/path/to/app)" for log lines.
  static std::string label(const FatbinaryRegistration& registration);
};

} // namespace ocelot::runtime
