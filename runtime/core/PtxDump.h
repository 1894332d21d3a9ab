#pragma once

#include "runtime/core/Logger.h"
#include "runtime/core/Registration.h"

#include <filesystem>
#include <memory>
#include <mutex>
#include <vector>

namespace ocelot::runtime {

/// The inspection hook behind OCELOT_DUMP_PTX=<dir>: when a fatbinary's registration completes,
/// every PTX entry of it is written to <dir> (one file per entry, exactly the extracted text) and
/// every entry of it, PTX or not, gets one line in <dir>/index.tsv:
///
///   module=2  image=/path/app  wrapper=1  unit=main  entry=1  kind=ptx  compression=zstd
///   arch=compute_75  version=9.0  bytes=1357  file=module2-main-entry1-compute_75.ptx
///   pipeline=ok  ptx-kernels=_Z3addPii,_Z5otherPf  registered-kernels=_Z3addPii,_Z5otherPf
///
/// (tab-separated key=value fields; `unit` is main, or prelinked-<n> for the per-unit containers of
/// a device-linked program). `pipeline` says whether the text parses and re-emits through Ocelot's
/// IR, or why not. Tests use this to check extraction without a GPU.
class PtxDump {
public:
  explicit PtxDump(std::filesystem::path directory) : directory_(std::move(directory)) {}

  /// A dump into $OCELOT_DUMP_PTX, or nothing when it is unset or empty.
  static std::unique_ptr<PtxDump> fromEnvironment();

  /// Writes the files of one registration. Failures to write are logged, never fatal.
  void write(const FatbinaryRegistration& registration,
             const std::vector<const RegisteredFunction*>& kernels, const Logger& logger);

  const std::filesystem::path& directory() const { return directory_; }

private:
  std::filesystem::path directory_;
  std::mutex mutex_; ///< registrations of several threads append to one index
};

} // namespace ocelot::runtime
