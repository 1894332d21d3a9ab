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
llvm::Function* translateKernel(const Plan& plan, const std::string& symbol, llvm::Module& module,
                                std::string* error);

} // namespace ocelot::runtime::cpu::native
