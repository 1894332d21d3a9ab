// ocelot/ocelot_c.h: the in-process API for C and ctypes, over ocelot/ocelot.h. No exception
// crosses it: failures are return values (and a message where the caller asks for one).

#include "ocelot/KernelProfile.h"
#include "ocelot/ocelot.h"
#include "ocelot/ocelot_c.h"

#include <algorithm>
#include <cstring>
#include <exception>
#include <string>

namespace {

/// Copies `text` into a caller's buffer, NUL-terminated and truncated; returns the full length.
size_t copyOut(const std::string& text, char* buffer, size_t size) {
  if (buffer != nullptr && size > 0) {
    const size_t count = std::min(text.size(), size - 1);
    std::memcpy(buffer, text.data(), count);
    buffer[count] = '\0';
  }
  return text.size();
}

} // namespace

extern "C" {

uint64_t ocelot_add_instrumentor(const char* name, const char* options, char* error,
                                 size_t errorSize) {
  copyOut("", error, errorSize);
  if (name == nullptr) {
    copyOut("no instrumentor name", error, errorSize);
    return 0;
  }
  try {
    return ocelot::addInstrumentor(
        name, ocelot::InstrumentorOptions::parse(options != nullptr ? options : ""));
  } catch (const std::exception& e) {
    copyOut(e.what(), error, errorSize);
    return 0;
  }
}

int ocelot_remove_instrumentor(uint64_t handle) {
  try {
    return ocelot::removeInstrumentor(handle) ? 1 : 0;
  } catch (const std::exception&) {
    return 0;
  }
}

void ocelot_remove_all_instrumentors(void) {
  try {
    ocelot::removeAllInstrumentors();
  } catch (const std::exception&) { // nothing to report: none stays active that could be
  }
}

size_t ocelot_active_instrumentors(char* buffer, size_t size) {
  std::string text;
  try {
    for (const std::string& description : ocelot::activeInstrumentors())
      text += description + "\n";
  } catch (const std::exception&) {
  }
  return copyOut(text, buffer, size);
}

uint64_t ocelot_subscribe(ocelot_profile_callback callback, void* userData) {
  if (callback == nullptr)
    return 0;
  try {
    return ocelot::subscribe(
        [callback, userData](const std::shared_ptr<const ocelot::KernelProfile>& profile) {
          const std::string json = profile->toJson();
          callback(json.c_str(), userData);
        });
  } catch (const std::exception&) {
    return 0;
  }
}

int ocelot_unsubscribe(uint64_t handle) {
  try {
    return ocelot::unsubscribe(handle) ? 1 : 0;
  } catch (const std::exception&) {
    return 0;
  }
}

void ocelot_flush_profiles(void) {
  try {
    ocelot::flushProfiles();
  } catch (const std::exception&) {
  }
}

} // extern "C"
