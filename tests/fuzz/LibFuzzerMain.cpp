// The libFuzzer entry point (built only with -DOCELOT_FUZZ=ON and clang).

#include "PtxFuzzTarget.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return ocelot::fuzz::fuzzPtxParser(data, size);
}
