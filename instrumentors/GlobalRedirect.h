#pragma once

#include "ir/Module.h"
#include "passes/AnalysisManager.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace ocelot::instrumentors {

/// The device address (a generic address, as cuModuleGetGlobal gives it) of a module-scope
/// variable in the application's own loaded module, or nullopt when it has none.
using VariableAddresses = std::function<std::optional<uint64_t>(std::string_view name)>;

struct RedirectResult {
  bool ok = true;
  std::string error;      ///< why the module cannot be redirected (then it must not run)
  uint32_t variables = 0; ///< variables whose uses were redirected
  uint32_t uses = 0;      ///< operands rewritten
};

/// Makes an instrumented copy of a module use the application's variables instead of its own.
///
/// An instrumented module is loaded next to the application's module, so it has its own copy of
/// every `__device__` and `__constant__` variable; the application's cudaMemcpyToSymbol,
/// cudaGetSymbolAddress and its other kernels use the original's. So that instrumentation never
/// changes what the program computes, every use of a module-scope `.global` or `.const` variable
/// in the copy is rewritten to the original's storage, whose address is an immediate:
///  * `[var+off]` in an instruction with a state space becomes `[%r+off]`, %r holding the
///    global-space address (`mov.u64` + `cvta.to.global`); in a generic ld/st/atom, the generic
///    address; `var` as a value (`mov`, `cvta`) becomes that register;
///  * when any `.const` variable is redirected, const-space accesses read the same bytes through
///    global memory: `ld.const` becomes `ld.global`, `cvta.const`/`cvta.to.const` become their
///    global forms (the constant bank is backed by that memory, and kernels cannot write it).
/// Uses this cannot rewrite (texture references, `isspacep.const`, a variable as a call
/// argument) and variables without an address make the result not ok: the caller then runs the
/// original code.
RedirectResult redirectGlobals(ir::Module& module, passes::AnalysisManager& analyses,
                               const VariableAddresses& addresses);

} // namespace ocelot::instrumentors
