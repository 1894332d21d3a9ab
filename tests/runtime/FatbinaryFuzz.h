#pragma once

#include <cstddef>
#include <cstdint>

namespace ocelot::runtime::testing {

/// Feeds arbitrary bytes through everything the runtime does with a fatbinary: wrapper decoding,
/// container and entry parsing, selection for several devices, decompression (bounded) and PTX
/// parsing. Returns 0. Traps when a parsed payload lies outside the input, which would mean a read
/// out of bounds. libFuzzer drives it through FatbinaryFuzzMain.cpp (OCELOT_FUZZ=ON); the unit
/// tests drive it with mutations of real nvcc output.
int fuzzFatbinary(const uint8_t* data, size_t size);

} // namespace ocelot::runtime::testing
