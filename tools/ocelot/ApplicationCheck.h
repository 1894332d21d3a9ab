#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace ocelot::tools {

/// How an application reaches the CUDA runtime, read from its ELF file before `ocelot run` starts
/// it. Ocelot only sees applications that load a shared libcudart.so.13; nvcc links NVIDIA's
/// runtime statically unless told `-cudart shared`, and such a program runs without Ocelot.
struct RuntimeLinkage {
  bool readable = false;            ///< a 64-bit little-endian ELF file whose tables could be read
  bool needsSharedRuntime = false;  ///< DT_NEEDED names a libcudart.so
  std::string sharedRuntime;        ///< that name (libcudart.so.13), when there is one
  bool definesRegistration = false; ///< defines __cudaRegisterFatBinary (NVIDIA's static runtime)
  bool hasFatbinary = false;        ///< has a .nv_fatbin section (device code nvcc embedded)

  /// The application carries NVIDIA's runtime inside it: Ocelot cannot intercept its kernels.
  bool staticRuntime() const {
    return readable && !needsSharedRuntime && (definesRegistration || hasFatbinary);
  }
  /// The application loads a shared runtime of another CUDA major version (libcudart.so.12):
  /// Ocelot's libcudart.so.13 does not stand in for it, so it is not intercepted either.
  bool otherRuntimeVersion() const;
};

/// Reads `file`'s dynamic section, symbol tables and section names. Anything that is not a
/// readable 64-bit ELF file (a script, a 32-bit program, a truncated file) gives readable = false;
/// it never throws.
RuntimeLinkage inspectApplication(const std::filesystem::path& file);

/// The file execvp would run for `command`: itself when it contains '/', else the first
/// executable match on $PATH.
std::optional<std::filesystem::path> resolveCommand(const std::string& command);

} // namespace ocelot::tools
