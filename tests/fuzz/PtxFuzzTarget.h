#pragma once

#include <cstddef>
#include <cstdint>

namespace ocelot::fuzz {

/// One fuzzing input for the PTX front end. Parsing must never crash, hang or leak; the scanner's
/// fast path and the grammar must agree; when the input parses, emitting and re-parsing it must
/// give a structurally equal module (anything else traps, so the fuzzer reports it). Shared by the libFuzzer binary and the regression test.
int fuzzPtxParser(const uint8_t* data, size_t size);

} // namespace ocelot::fuzz
