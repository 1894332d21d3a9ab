/* Ocelot's in-process API for C and for languages that call C (Python's ctypes:
 * tools/python/ocelot.py): the same as ocelot/ocelot.h, with profiles as JSON text (the format of
 * `ocelot run -o`, docs/profile.schema.json). Exported from Ocelot's libcudart.so.13 under the
 * version node OCELOT_1; find the functions with dlsym to tell Ocelot's library from NVIDIA's. */
#ifndef OCELOT_OCELOT_C_H
#define OCELOT_OCELOT_C_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Activates the registered instrumentor `name` ("bbcount", "ctaclock", a plugin's) with options
 * "key=value:key=value" (or null) for launches made from now on. Returns its handle, or 0 with the
 * reason in `error` (`error_size` bytes, NUL-terminated; may be null). */
uint64_t ocelot_add_instrumentor(const char* name, const char* options, char* error,
                                 size_t error_size);
/* 1 when the instrumentor was active, else 0. */
int ocelot_remove_instrumentor(uint64_t handle);
void ocelot_remove_all_instrumentors(void);
/* "name options" of each active instrumentor, one per line, into `buffer` (NUL-terminated,
 * truncated to `size`); returns the length the whole text needs (without the NUL). */
size_t ocelot_active_instrumentors(char* buffer, size_t size);

/* Called with every profile from then on, on Ocelot's profile thread: `json` is valid during the
 * call only. */
typedef void (*ocelot_profile_callback)(const char* json, void* user_data);
/* Returns the subscription's handle (0 for a null callback). */
uint64_t ocelot_subscribe(ocelot_profile_callback callback, void* user_data);
/* After it returns the callback is not running and will not be called again. 1 when the handle
 * was a subscription, else 0. */
int ocelot_unsubscribe(uint64_t handle);
/* Blocks until the profiles of every launch made before the call have been delivered. */
void ocelot_flush_profiles(void);

#ifdef __cplusplus
}
#endif

#endif /* OCELOT_OCELOT_C_H */
