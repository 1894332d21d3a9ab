#pragma once

#include "ir/Module.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ocelot::instrumentors {

/// Where the application's module records the addresses of its address-taken functions.
///
/// A device function pointer is only meaningful in the module that took it: on a GPU it is an
/// offset into that module's code, and an indirect call interprets it relative to the calling
/// module. An instrumented module has another code layout, so instrumented code keeps the
/// original module's values (see FunctionAddressTranslation.h) and must learn them. The module
/// pipeline therefore adds, to every unit of the module it loads as the application's, one
/// Ocelot-owned variable that lists every function whose address the unit takes:
///
///     .global .align 8 .u64 __ocelot_function_addresses_<unit>[N] = {f1, f2, ...};
///
/// After loading, the runtime reads it back (Device::global and a copy) and so knows each
/// function's original address. Units without address-taken functions get no table: their PTX
/// is emitted exactly as it came. Kernels whose address is taken are not listed (their address
/// only feeds device-side launches, which the instrumentation leaves alone).

inline constexpr std::string_view kFunctionAddressTablePrefix = "__ocelot_function_addresses_";

/// The table's name in unit `unit` of a module (0 for a module of one unit).
std::string functionAddressTableName(uint32_t unit);

/// Device functions (not kernels) whose address the module takes, in order of first use: names
/// used as values by instructions (anything but the target of a direct call), in initializers of
/// module-scope or function-scope variables; `.alias` names of functions count as functions.
/// Ocelot's own tables are not uses.
std::vector<std::string_view> addressTakenFunctions(const ir::Module& module);

/// Adds unit `unit`'s table to `module` (before any debug section). Returns the number of
/// functions listed; 0 means nothing was added.
size_t addFunctionAddressTable(ir::Module& module, uint32_t unit);

/// The tables of a module (any unit): each table's name and the functions it lists, in order.
struct FunctionAddressTable {
  std::string_view name;
  std::vector<std::string_view> functions;
};
std::vector<FunctionAddressTable> functionAddressTables(const ir::Module& module);

} // namespace ocelot::instrumentors
