#pragma once

#include "instrumentors/BufferPlan.h"
#include "ir/Module.h"
#include "passes/AnalysisManager.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

namespace ocelot::instrumentors {

/// The values of one of the application module's function-address tables (FunctionAddressTable.h)
/// as the loaded module holds them: `entries` values for the table `name`, or nullopt when the
/// loaded module has no such table (it runs the application's own binary) or it cannot be read.
using OriginalFunctionAddresses =
    std::function<std::optional<std::vector<uint64_t>>(std::string_view name, size_t entries)>;

/// At most this many candidate functions, an indirect call translates through a chain of
/// compares; above, through a branch-free binary search over a sorted table.
inline constexpr size_t kCompareChainLimit = 16;
/// More address-taken functions than this and function identity is not kept (kernels that need
/// it stay uninstrumented).
inline constexpr size_t kMaxTranslatedFunctions = 1 << 16;

struct FunctionTranslationResult {
  uint32_t functions = 0;     ///< address-taken functions whose original address is known
  uint32_t materialized = 0;  ///< function names used as values, now the original addresses
  uint32_t indirectCalls = 0; ///< indirect calls that translate their target
  /// Kernels that must run the application's code, and why: function identity cannot be kept for
  /// code they can reach.
  std::vector<Exclusion> excludedKernels;
};

/// Keeps function-pointer identity in an instrumented copy of a module.
///
/// Every function pointer value a program can observe (in memory, in registers, in comparisons)
/// stays the address the application's original module gives the function; the instrumented copy
/// translates where code meets such values:
///  * a function's name used as a value (`mov.u64 %rd, f;`, an operand of another instruction, an
///    initializer of a function-scope variable) becomes the original address, an immediate;
///  * an indirect call (`call (...), %rd, (...), proto;`) first maps an original address to the
///    copy's own function: a chain of `setp.eq` and guarded `mov` for up to kCompareChainLimit
///    candidates (the `.calltargets` list, else every address-taken function), else an unrolled
///    binary search over a table of the original addresses, sorted, next to a table of the copy's
///    functions in the same order (two `.global` variables the pass adds). Values that are no
///    function's original address pass through unchanged.
/// Module-scope variables need nothing: GlobalRedirect makes the copy use the application's
/// storage, whose vtables and function tables hold the original addresses.
///
/// Identity cannot be kept where the original addresses are unknown (no table, or `originals`
/// answers nullopt), where there are more than kMaxTranslatedFunctions, where a function's name
/// is used in a way the pass cannot rewrite (an address expression `[f]`, inside a vector or a
/// call's argument list, a kernel's own address), and for indirect calls in a unit of a
/// separately compiled (-rdc) program (addresses taken by other units are not in its table).
/// The pass then leaves the code that needs identity as it is and lists every kernel that can
/// reach it, with the reason, so that they run uninstrumented. Run it after redirectGlobals (its
/// tables are the copy's own). Offline (`originals` null) every function gets a placeholder
/// address: the code assembles but must not run.
FunctionTranslationResult translateFunctionAddresses(ir::Module& module,
                                                     passes::AnalysisManager& analyses,
                                                     const OriginalFunctionAddresses& originals,
                                                     bool linked);

} // namespace ocelot::instrumentors
