#pragma once

#include "ir/Function.h"
#include "ir/Statement.h"

#include <cstddef>
#include <unordered_map>

namespace ocelot::runtime::cpu {

/// PTX lets the code generator contract a floating-point `mul` and a dependent `add`/`sub` that
/// carry no rounding modifier into one fused multiply-add, and ptxas does: a GPU rounds once where
/// separate operations round twice. The CPU device fuses the pairs ptxas fuses, measured on an
/// H200 (CUDA 13.0) from the SASS of test kernels: a product whose every reader is such an add or
/// sub (same type, same .ftz) is fused into all of them, in any block; a product that anything
/// else also reads (a store, an fma, a compare, `add d, p, p`) stays rounded everywhere.
struct Contraction {
  const ir::Instruction* multiply = nullptr; ///< `mul p, a, b` without rounding modifier or .sat
  size_t productOperand = 1;                 ///< which source of the add/sub is p (1 or 2)
};

/// The adds and subs of `function` to execute as fused multiply-adds: f32, f64, f16, f16x2, bf16
/// and bf16x2. The product must be written only by its mul, and a and b must still hold their
/// values at the add (each written once in the function, or not written between the two within
/// one block). When both sources of an add are such products, the first mul in program order is
/// fused (as ptxas does for `mul t; mul u; sub d, t, u`). The mul still executes; its result is
/// then unused.
std::unordered_map<const ir::Instruction*, Contraction>
planContractions(const ir::Function& function);

} // namespace ocelot::runtime::cpu
