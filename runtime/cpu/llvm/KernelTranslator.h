#pragma once

#include "runtime/cpu/llvm/NativePlan.h"

#include <string>

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace ocelot::runtime::cpu::native {

/// Translates a plan into one LLVM function `uint32_t symbol(NativeWarpState*)` in `module`: a
/// warp of 32 lanes as vectors, registers in SSA values between the points where the interpreter
/// takes over, the interpreter's SIMT stack for divergence (see docs/cpu-backend.md, "The LLVM
/// executor"). Returns null with `error` set when the plan cannot be translated.
/// What the host CPU offers that the translation uses (part of every cache key through the
/// target's features).
struct TargetInfo {
  bool avx512 = false; ///< AVX-512F: two-source permutations for small-span loads
};

llvm::Function* translateKernel(const Plan& plan, const TargetInfo& target,
                                const std::string& symbol, llvm::Module& module, std::string* error,
                                std::string* analysis = nullptr);

} // namespace ocelot::runtime::cpu::native
