#pragma once

#include "runtime/core/ModuleImage.h"
#include "runtime/core/Registration.h"
#include "runtime/fatbin/Selection.h"
#include "support/Expected.h"

#include <driver_types.h>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace ocelot::ir {
class Module;
}

namespace ocelot::runtime {

/// The configured passes: transforms a parsed module in place before it is emitted. Returns an
/// error message when it could not (the module then falls back to the application's original
/// code, with one log line); an exception it throws is treated the same way. `label` names the
/// module for messages ("the module", "unit 1", "library").
using ModuleTransform =
    std::function<std::optional<std::string>(ir::Module& module, const std::string& label)>;

/// Why Ocelot could not build its own module for a registration (one line for the log).
struct PipelineFailure {
  std::string reason;
  /// What a device that cannot fall back to the original code answers (see parseFailureError).
  cudaError_t error = cudaErrorInvalidPtx;
};

/// Turns a registered fatbinary into the module Ocelot hands to a device: the best PTX for the
/// device is extracted, parsed into Ocelot's IR, transformed by the configured passes (none yet:
/// the module still goes through parse and emit) and emitted again. For a device-linked (-rdc)
/// program every unit's PTX goes through the pipeline and the device JIT-links the results.
/// A unit that takes the address of device functions also gets Ocelot's table of them
/// (instrumentors/FunctionAddressTable.h), from which instrumented copies learn the addresses
/// the application's code uses.
class ModulePipeline {
public:
  /// Ocelot's module for a device of `capability`, or why there is none (one line: no PTX for the
  /// device, a decompression or parse error). The caller then loads `original()` instead. With
  /// `keepIr`, the image also holds the parsed units its text was emitted from
  /// (ModuleImage::units).
  support::Expected<ModuleImage, PipelineFailure> build(const FatbinaryRegistration& registration,
                                                        fatbin::ComputeCapability capability,
                                                        bool keepIr = false) const;

  /// A PTX text the application loads itself (cudaLibraryLoadData) through the same pipeline:
  /// parsed, transformed, emitted; or why not (the caller then loads the text unchanged).
  support::Expected<std::string, PipelineFailure> buildText(std::string_view ptx,
                                                            const std::string& label) const;

  /// The application's own code for the fallback path: its (device-linked) container, from which
  /// the driver picks the cubin or PTX exactly as it does for NVIDIA's runtime.
  static ModuleImage original(const FatbinaryRegistration& registration);

  /// "module 3 (/path/to/app)" for log lines.
  static std::string label(const FatbinaryRegistration& registration);

  /// Sets the passes every later module goes through (none by default: parse and emit only).
  /// Modules already loaded keep what they were built with. Safe to call from any thread.
  void setTransform(ModuleTransform transform);

private:
  /// One PTX text through the pipeline: the emitted text, and the IR it was emitted from.
  struct Processed {
    std::string text;
    std::unique_ptr<ir::Module> module;
  };
  /// Parse, transform, emit one PTX text; with `unit`, add that unit's function-address table.
  support::Expected<Processed, PipelineFailure> process(std::string_view ptx,
                                                        const std::string& label,
                                                        const std::string& fileName,
                                                        std::optional<uint32_t> unit) const;

  mutable std::mutex transformMutex_;
  std::shared_ptr<const ModuleTransform> transform_; ///< null: no passes
};

} // namespace ocelot::runtime
