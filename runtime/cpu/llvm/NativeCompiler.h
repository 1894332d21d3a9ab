#pragma once

#include "runtime/cpu/DecodedKernel.h"
#include "runtime/cpu/NativeCode.h"

#include <memory>
#include <mutex>
#include <set>
#include <string>

namespace ocelot::runtime::cpu {

class DeviceMemory;

namespace native {
class Backend;
}

/// The CPU device's LLVM executor, as the device sees it: the LLVM component
/// (libocelot_cpu_llvm.so, loaded with dlopen so that libcudart never needs LLVM to load) and the
/// native code it made for kernels. Kernels are compiled at their first launch; a kernel whose
/// code cannot be made runs in the interpreter, which the log says once.
class NativeCompiler {
public:
  ~NativeCompiler();
  NativeCompiler(const NativeCompiler&) = delete;
  NativeCompiler& operator=(const NativeCompiler&) = delete;

  /// What OCELOT_CPU_EXECUTOR asks for: `llvm` (the default where Ocelot was built with the
  /// component) gives the compiler, `interpreter` null. When the component or LLVM cannot be
  /// loaded, null and one log line: the interpreter runs every kernel.
  static std::shared_ptr<NativeCompiler> fromEnvironment();
  /// Loads the component from `path` (empty: OCELOT_CPU_LLVM_LIBRARY, else next to libcudart),
  /// caching code in `cacheDirectory` (empty: no cache on disk).
  static std::shared_ptr<NativeCompiler>
  load(const std::string& path, const std::string& cacheDirectory, std::string* error);

  /// "LLVM 19.1.7, x86_64-pc-linux-gnu, znver4, code cache ~/.cache/ocelot/cpu-llvm".
  std::string description() const;

  /// The kernel's native code (made on first use), or null when the kernel runs interpreted.
  const NativeKernel* nativeFor(const DecodedKernel& kernel, const DeviceMemory& memory);

  /// Says once per kernel, in the log (OCELOT_LOG=info), that `kernel` runs in the interpreter
  /// for `reason` although the LLVM executor is on (traced launches: the trace follows every
  /// instruction).
  void noteInterpreted(const DecodedKernel& kernel, const char* reason);

  /// Where compiled code is cached: OCELOT_CACHE_DIR, else $XDG_CACHE_HOME/ocelot, else
  /// ~/.cache/ocelot, with "/cpu-llvm" appended; empty when none can be found or
  /// OCELOT_CACHE_DIR is "off".
  static std::string cacheDirectory();

  /// Compilation statistics (for the benchmark): kernels compiled and loaded from the cache, and
  /// the seconds spent.
  struct Statistics {
    uint32_t compiled = 0, cached = 0, failed = 0;
    double seconds = 0;
  };
  Statistics statistics() const;

private:
  NativeCompiler() = default;

  void* library_ = nullptr;
  std::unique_ptr<native::Backend> backend_;
  bool verbose_ = false;
  mutable std::mutex mutex_;
  Statistics statistics_;
  std::set<std::string> noted_; ///< kernels noteInterpreted() reported
};

} // namespace ocelot::runtime::cpu
