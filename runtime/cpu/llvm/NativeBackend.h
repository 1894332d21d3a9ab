#pragma once

// The contract between libcudart and the LLVM component (libocelot_cpu_llvm.so), which libcudart
// loads with dlopen so that it never needs LLVM to load itself. Both sides are built together
// from this header; kBackendAbi guards against a component from another build.

#include "runtime/cpu/NativeCode.h"
#include "runtime/cpu/llvm/NativePlan.h"

#include <memory>
#include <string>

namespace ocelot::runtime::cpu::native {

/// Kernels whose optimized LLVM IR has more instructions than this run in the interpreter. LLVM's
/// greedy register allocator is superlinear in a function's size: the oracle-instrumented
/// while_switch kernel (2565 PTX instructions, 193k LLVM instructions) spent more than 10 minutes
/// there. Its fast allocator took 11 s, but its code keeps every value in its own stack slot and
/// ran e2e/reduction under all five shipped probe tools past 300 s, slower than the interpreter.
inline constexpr uint64_t kLargestNativeKernel = 60000;

struct BackendOptions {
  std::string cacheDirectory;                    ///< empty: no cache on disk
  uint64_t largestKernel = kLargestNativeKernel; ///< LLVM instructions
  /// Code whose stack frame is larger cannot run on the device's threads: the kernel's compile
  /// fails (and it runs in the interpreter). 0: no limit.
  uint64_t frameLimitBytes = 0;
};

/// Both sides compute this from their own view of the shared types: a component built with other
/// headers than libcudart (another build) is refused instead of misreading plans.
inline constexpr uint32_t kBackendAbi =
    kPlanVersion * 1000003u + static_cast<uint32_t>(sizeof(Plan)) * 8191u +
    static_cast<uint32_t>(sizeof(Instruction)) * 127u +
    static_cast<uint32_t>(sizeof(NativeWarpState)) * 31u + static_cast<uint32_t>(sizeof(Row)) +
    static_cast<uint32_t>(sizeof(BackendOptions)) * 7u;

/// The component's one exported symbol.
inline constexpr const char* kCreateBackendSymbol = "ocelot_cpu_llvm_create_backend";
/// Its file name (looked for next to libcudart.so.13).
inline constexpr const char* kComponentName = "libocelot_cpu_llvm.so";

struct CompiledCode {
  NativeFunction function = nullptr;
  std::shared_ptr<const void> owner; ///< keeps the code mapped
  bool fromCache = false;            ///< the machine code came from the disk cache
  double seconds = 0;                ///< translation, optimization and code generation
};

/// Turns plans into machine code (an LLVM ORC JIT behind it).
class Backend {
public:
  virtual ~Backend() = default;
  /// "LLVM 19.1.7, x86_64, znver4" and the cache directory, for the log.
  virtual std::string description() const = 0;
  /// The code of `plan`; a null function with `error` set when it cannot be made.
  virtual CompiledCode compile(const Plan& plan, std::string* error) = 0;
};

/// The signature of kCreateBackendSymbol: a new backend, or null with `error` set.
using CreateBackendFunction = Backend* (*)(uint32_t abi, const BackendOptions& options,
                                           std::string* error);

} // namespace ocelot::runtime::cpu::native
