// The libFuzzer entry point for the fatbinary reader (built with OCELOT_FUZZ=ON).
#include "FatbinaryFuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return ocelot::runtime::testing::fuzzFatbinary(data, size);
}
