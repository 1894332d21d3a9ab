#pragma once

#include <driver_types.h>

namespace ocelot::runtime {

/// Whether an integer an application passed as cudaMemcpyKind is one (HostToHost .. Default).
/// With unified addressing the direction itself is inferred from the pointers; the kind only has
/// to be valid (an invalid one is cudaErrorInvalidMemcpyDirection).
inline bool validCopyKind(int kind) {
  return kind >= cudaMemcpyHostToHost && kind <= cudaMemcpyDefault;
}

} // namespace ocelot::runtime
