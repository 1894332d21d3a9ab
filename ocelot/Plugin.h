/* Ocelot's plugin interface: instrumentors in shared libraries.
 *
 * A plugin is a shared library that exports two C functions:
 *
 *   uint32_t ocelot_plugin_abi_version(void);                      // OCELOT_PLUGIN_ABI_VERSION
 *   int ocelot_plugin_entry_v1(const ocelot_plugin_host_v1* host);   // 0 on success
 *
 * Ocelot loads it (OCELOT_INSTRUMENTORS=/path/libmine.so, or ocelot::loadPlugin), refuses it when
 * its ABI version differs from Ocelot's, and calls the entry point, which registers one or more
 * instrumentors by name through `host->register_instrumentor`. A factory creates an instrumentor
 * (an ocelot::PTXInstrumentor, see ocelot/Instrumentor.h) from its options. The built-in
 * instrumentors are registered through the same interface.
 *
 * The instrumentors themselves are C++ objects: a plugin must be built with the same compiler
 * family and C++ standard library as Ocelot (find_package(Ocelot) gives the flags and the
 * library). The version number changes whenever this interface or the C++ classes it hands over
 * change incompatibly.
 */
#ifndef OCELOT_PLUGIN_H
#define OCELOT_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

/* 2: results write JSON as nlohmann values (InstrumentorResult::json()), not through JsonWriter.
 * 3: probe tools' ProbeData owns its region bytes (RegionBytes::storage) and ProbeInstruction says
 *    how a guarded branch's skipped lanes derive from block counts (OCELOT_BLOCK_COUNTS); the host
 *    registers probe tools (register_probe_tool), which carry the rest of their support code.
 * 4: ProbeInstruction's skippedFrom and skippedLess are lists of blocks (a loop's closing branch
 *    derives from the blocks that enter the loop). */
#define OCELOT_PLUGIN_ABI_VERSION 4u

#ifdef __cplusplus
extern "C" {
#endif

/* Creates an instrumentor configured by `options` ("key=value:key=value", possibly empty).
 * Returns an ocelot::PTXInstrumentor* allocated with `new` (Ocelot owns and deletes it), or NULL
 * after writing a NUL-terminated reason of at most `error_size` bytes to `error`. */
typedef void* (*ocelot_instrumentor_factory_v1)(const char* options, char* error, size_t error_size,
                                                void* user_data);

typedef struct ocelot_plugin_host_v1 {
  uint32_t abi_version; /* the OCELOT_PLUGIN_ABI_VERSION of the loading Ocelot */
  void* registry;       /* pass back to register_instrumentor */
  /* Registers `factory` under `name` (letters, digits, '-', '_'); 0 on success, nonzero when the
   * name is taken or malformed. The strings are copied. */
  int (*register_instrumentor)(void* registry, const char* name, const char* description,
                               ocelot_instrumentor_factory_v1 factory, void* user_data);
  /* Registers a probe tool: `definition` is an ocelot::ProbeToolDefinition* (ocelot/ProbeTool.h),
   * which the host moves from; 0 on success. Through this entry a probe tool needs no symbol of
   * Ocelot's: it loads where Ocelot's runtime is not in the process's global scope (loaded by path
   * under a framework's own libcudart.so.13) and into the `ocelot` tool. */
  int (*register_probe_tool)(void* registry, void* definition);
} ocelot_plugin_host_v1;

typedef uint32_t (*ocelot_plugin_abi_version_fn)(void);
typedef int (*ocelot_plugin_entry_v1_fn)(const ocelot_plugin_host_v1* host);

#ifdef __cplusplus
} /* extern "C" */

/* Defines ocelot_plugin_abi_version() with the version of the header the plugin is built with. */
#define OCELOT_PLUGIN_DEFINE_ABI_VERSION()                                                         \
  extern "C" __attribute__((visibility("default"))) uint32_t ocelot_plugin_abi_version(void) {     \
    return OCELOT_PLUGIN_ABI_VERSION;                                                              \
  }
#endif /* __cplusplus */

#endif /* OCELOT_PLUGIN_H */

/* The C++ side: the instrumentor interface and pluginFactory. Defining OCELOT_PLUGIN_C_ONLY leaves
 * it out (ocelot/ProbeTool.h: probe tools name no IR type); a later plain include still adds it. */
#if defined(__cplusplus) && !defined(OCELOT_PLUGIN_C_ONLY) && !defined(OCELOT_PLUGIN_CXX_H)
#define OCELOT_PLUGIN_CXX_H
#include "ocelot/Instrumentor.h"
#include "ocelot/InstrumentorOptions.h"

#include <cstring>
#include <exception>

namespace ocelot {

/// A factory for the instrumentor type `T`, constructed as `T(const InstrumentorOptions&)`; an
/// exception from the constructor becomes the factory's error message.
template <class T> ocelot_instrumentor_factory_v1 pluginFactory() {
  return [](const char* options, char* error, size_t errorSize, void*) -> void* {
    try {
      return static_cast<PTXInstrumentor*>(
          new T(InstrumentorOptions::parse(options != nullptr ? options : "")));
    } catch (const std::exception& e) {
      if (error != nullptr && errorSize > 0) {
        std::strncpy(error, e.what(), errorSize - 1);
        error[errorSize - 1] = '\0';
      }
      return nullptr;
    }
  };
}

} // namespace ocelot
#endif /* the C++ side */
