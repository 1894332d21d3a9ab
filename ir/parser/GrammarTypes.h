#pragma once

// Value types that travel on the parser's stack between grammar rules. Kept out of the IR headers:
// they exist only while a module is being parsed.

#include "ir/Declaration.h"
#include "ir/ModuleItem.h"
#include "ir/Operand.h"
#include "ir/SourceLocation.h"
#include "ir/Statement.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace ocelot::ir::detail {

/// `@%p`, `@!p` before an instruction.
struct GuardSyntax {
  bool present = false;
  bool negated = false;
  std::string_view name;
  SourceRange location;
};

/// An identifier with where it was written (for error messages about it later).
struct NameSyntax {
  std::string_view name;
  SourceRange location;
};

/// Builds the elements of `{...}` initializers, keeping lists of plain decimal integers packed
/// (see IntegerValues: one byte an element for byte tables) so that megabyte-sized tables stay
/// small while they are parsed. Whichever way the elements arrive (one by one from the grammar or
/// in runs from the scanner), the same elements give the same Initializer.
class InitializerListBuilder {
public:
  void add(Initializer element);
  /// Fast path for the common element: a plain decimal integer.
  void addInteger(int64_t value);
  /// A run of plain decimal integers (taken over, not copied, when it is the first element).
  void addIntegers(IntegerValues&& run);
  /// A run of `0f`/`0d` literals (ImmediateOperand values).
  void addScalars(std::vector<Initializer>&& run);
  Initializer finish();
  /// Brace nesting depth of the elements added so far (for the nesting limit).
  unsigned depth() const { return depth_; }

private:
  void unpack();

  bool packed_ = true;
  IntegerValues integers_;
  std::vector<Initializer> elements_;
  unsigned depth_ = 0;
};

/// Nesting depth of an initializer: 0 for a scalar, 1 for a flat list.
unsigned initializerDepth(const Initializer& init);

/// True when `imm` can be stored in a packed integer list without changing its spelling.
bool isPlainDecimal(const ImmediateOperand& imm);

} // namespace ocelot::ir::detail
