#pragma once

#include <string>
#include <string_view>

namespace ocelot {

/// The C++ name of a mangled kernel name (`_Z3addPii` -> `add(int*, int*)`); names that are not
/// mangled C++ (extern "C" kernels) come back unchanged.
std::string demangle(std::string_view mangled);

} // namespace ocelot
