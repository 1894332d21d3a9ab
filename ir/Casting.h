#pragma once

#include <cassert>

namespace ocelot::ir {

// LLVM-style checked casts over small class hierarchies whose classes provide
// `static bool classof(const Base*)`. No RTTI, no string lookups.

template <class To, class From> bool isa(const From* value) {
  return value != nullptr && To::classof(value);
}

template <class To, class From> To* dyn_cast(From* value) {
  return isa<To>(value) ? static_cast<To*>(value) : nullptr;
}

template <class To, class From> const To* dyn_cast(const From* value) {
  return isa<To>(value) ? static_cast<const To*>(value) : nullptr;
}

/// For casts the caller has already proven valid (programming errors, never input errors).
template <class To, class From> To* cast(From* value) {
  assert(isa<To>(value) && "cast to the wrong statement kind");
  return static_cast<To*>(value);
}

template <class To, class From> const To* cast(const From* value) {
  assert(isa<To>(value) && "cast to the wrong statement kind");
  return static_cast<const To*>(value);
}

} // namespace ocelot::ir
