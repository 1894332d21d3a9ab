#pragma once

#include "ir/Module.h"

#include <memory>
#include <string>
#include <vector>

namespace ocelot::ir {

/// One relocatable PTX unit to link (a `-rdc` translation unit) and how messages name it.
struct LinkUnit {
  const Module* module = nullptr;
  std::string name; ///< "unit 2"
};

/// A unit-local symbol that linking gave another name (it collided with a symbol of another unit).
struct LinkRenaming {
  std::string unit;
  std::string from;
  std::string to;
};

/// The linked module, or why the units could not be linked.
struct LinkResult {
  std::unique_ptr<Module> module; ///< null when linking failed
  std::string error;              ///< why, naming the units and the symbol
  /// Symbols no unit defines, kept `.extern` in the linked module (the device runtime's entry
  /// points such as `cudaLaunchDeviceV2`, `vprintf`): the driver's linker resolves them.
  std::vector<std::string> unresolved;
  std::vector<LinkRenaming> renamed;
  bool ok() const { return module != nullptr; }
};

/// Links relocatable PTX units into one module, as the device linker links their code:
///
/// - `.extern` functions and variables resolve against the definitions (`.visible`, `.weak`,
///   `.common`) of other units; each symbol keeps one definition. A `.visible` definition wins
///   over `.weak` ones; among `.weak` definitions the first unit's wins; among `.common` variables
///   the largest wins (the first of equal size). Two `.visible` definitions of one symbol, or a
///   `.common` variable that another unit defines as `.visible`/`.weak`, are errors.
/// - Declarations of one symbol must agree (function or variable, `.entry` or `.func`, parameter
///   and return types; a variable's state space and type): a conflict is an error.
/// - Unit-local symbols (no linkage word) that collide with a symbol of another unit are renamed
///   `name_unitN` (N the unit's position; more `_` until the name is free), deterministically;
///   the first unit to use a local name keeps it unless a linked symbol has it. Kernels are looked
///   up by name, so two units' local kernels of one name are an error instead.
/// - `.version` is the highest of the units'; `.target` and `.address_size` must be equal.
/// - `.file` numbers of each unit follow the previous units' (`.loc` follows them).
/// - `-lineinfo` units' `.debug_str` sections (the names `.loc ... inlined_at` refers to) become
///   one at the end, later units' labels renamed `label_unitN`. Units with the other DWARF
///   sections of `-G` are refused: those refer to labels inside functions that linking would
///   have to renumber.
///
/// Items keep their units' order. A declaration that precedes the definition it resolves to stays
/// as a prototype with the definition's linkage (functions), or the definition moves up to it
/// (variables). The units are only read.
LinkResult linkModules(const std::vector<LinkUnit>& units);

} // namespace ocelot::ir
