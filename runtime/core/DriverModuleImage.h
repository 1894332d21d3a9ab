#pragma once

#include "runtime/fatbin/Fatbinary.h"
#include "support/Expected.h"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace ocelot::runtime {

/// An image an application hands the driver API (cuModuleLoadData, cuModuleLoadFatBinary,
/// cuLibraryLoadData): PTX text, a fatbinary container, a registration wrapper around one, or an
/// ELF cubin. Copied, because the application may free its buffer as soon as the call returns,
/// and read into one container so that the module takes the registered modules' path (pipeline,
/// instrumentation, fallback to the original code).
struct DriverModuleImage {
  /// The copied bytes (PTX text keeps its terminating NUL). Behind a pointer: `container` and the
  /// registration's unit point into them, so they must not move.
  std::unique_ptr<std::vector<std::byte>> bytes;
  /// The image as a container. A container image is parsed as it is; PTX text and a cubin become
  /// one entry each whose payload is the whole image.
  fatbin::Container container;
  /// What the application handed over: "PTX", "fatbinary", "cubin".
  std::string kind;
  /// Whether any entry is PTX (what the CPU device and the instrumentation need).
  bool hasPtx = false;
};

/// Reads an image the application passed; an error message for the log when it is none of the
/// above (the driver answers CUDA_ERROR_INVALID_IMAGE there).
support::Expected<DriverModuleImage, std::string> readDriverModuleImage(const void* image);

} // namespace ocelot::runtime
