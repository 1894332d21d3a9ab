#pragma once

#include "ir/Types.h"
#include "runtime/cpu/DecodedKernel.h"

#include <cstdint>

namespace ocelot::runtime::cpu {

/// Picks an instantiation by PTX integer type: `select.template operator()<T>()` for the C++ type
/// of `type` (bit types count as unsigned). Returns nullptr for non-integer types. 8-bit types are
/// included only with `withBytes` (PTX arithmetic has no 8-bit forms; ld/st/cvt do).
template <class Select>
ExecuteFn byIntegerType(ir::ScalarType type, Select&& select, bool withBytes = false) {
  using T = ir::ScalarType;
  switch (type) {
  case T::U8:
  case T::B8:
    return withBytes ? select.template operator()<uint8_t>() : nullptr;
  case T::S8:
    return withBytes ? select.template operator()<int8_t>() : nullptr;
  case T::U16:
  case T::B16:
    return select.template operator()<uint16_t>();
  case T::S16:
    return select.template operator()<int16_t>();
  case T::U32:
  case T::B32:
    return select.template operator()<uint32_t>();
  case T::S32:
    return select.template operator()<int32_t>();
  case T::U64:
  case T::B64:
    return select.template operator()<uint64_t>();
  case T::S64:
    return select.template operator()<int64_t>();
  default:
    return nullptr;
  }
}

/// The same for 32- and 64-bit integer types only.
template <class Select> ExecuteFn byWordType(ir::ScalarType type, Select&& select) {
  using T = ir::ScalarType;
  switch (type) {
  case T::U32:
  case T::B32:
    return select.template operator()<uint32_t>();
  case T::S32:
    return select.template operator()<int32_t>();
  case T::U64:
  case T::B64:
    return select.template operator()<uint64_t>();
  case T::S64:
    return select.template operator()<int64_t>();
  default:
    return nullptr;
  }
}

// 128-bit integers (GCC and Clang extension) for the high halves of 64-bit products.
__extension__ typedef __int128 Int128;
__extension__ typedef unsigned __int128 UInt128;

/// The integer type twice as wide as T, with T's signedness.
template <class T> struct Wider;
template <> struct Wider<uint8_t> { using type = uint16_t; };
template <> struct Wider<int8_t> { using type = int16_t; };
template <> struct Wider<uint16_t> { using type = uint32_t; };
template <> struct Wider<int16_t> { using type = int32_t; };
template <> struct Wider<uint32_t> { using type = uint64_t; };
template <> struct Wider<int32_t> { using type = int64_t; };
template <> struct Wider<uint64_t> { using type = UInt128; };
template <> struct Wider<int64_t> { using type = Int128; };

} // namespace ocelot::runtime::cpu
