#pragma once

#include "ir/Module.h"

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

namespace ocelot::ir {

/// A deep copy of `source`: every item, function, block, statement, operand, table and debug
/// section, with its names interned in the copy's own string pool, its statements and operand
/// lists in the copy's own arena, and every internal reference (instruction forms, the label
/// table's statements, the blocks' function) pointing into the copy. The copy outlives `source`
/// and may be changed (instrumented) while `source` is read by other threads: cloning only reads
/// `source`. Emitting the copy gives the text emitting `source` gives, byte for byte (source
/// lines are copied too).
std::unique_ptr<Module> cloneModule(const Module& source);

/// How the names of one unit change when its items are copied into another module (the PTX-level
/// linker, ir/ModuleLinker.h, gives colliding unit-local symbols new names and numbers each
/// unit's `.file`s after the previous units').
struct CloneRenaming {
  /// Module-scope symbol (as the source spells it) -> its name in the target. Applied to the
  /// definitions and declarations of those symbols and to every reference to them (operands,
  /// initializers, `.alias`, `.calltargets`) that no declaration inside a function shadows.
  std::unordered_map<std::string_view, std::string> symbols;
  /// Labels of debug sections (`$L__info_string0` of `.debug_str`) -> their names in the target,
  /// in the sections and in the `inlined_at ... function_name` of `.loc`s.
  std::unordered_map<std::string_view, std::string> debugLabels;
  uint32_t fileOffset = 0; ///< added to `.file` numbers and to the file of every `.loc`
};

/// A copy of module-scope `item` (of another module) for `target`, with `renaming` applied. The
/// caller appends it; while copying functions, `target`'s arena should be current (Arena::Scope).
std::unique_ptr<ModuleItem> cloneItem(Module& target, const ModuleItem& item,
                                      const CloneRenaming& renaming);

} // namespace ocelot::ir
