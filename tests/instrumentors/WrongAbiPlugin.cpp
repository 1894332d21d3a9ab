// A plugin built for another plugin ABI: Ocelot must refuse it without calling its entry point.
#include <cstdint>

extern "C" __attribute__((visibility("default"))) uint32_t ocelot_plugin_abi_version(void) {
  return 99;
}
extern "C" __attribute__((visibility("default"))) int ocelot_plugin_entry_v1(const void*) {
  __builtin_trap(); // never called
}
