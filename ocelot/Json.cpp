#include "ocelot/Json.h"

#include <nlohmann/json.hpp>

namespace ocelot {

std::string dumpJson(const Json& value) {
  // indent -1: compact; ensure_ascii false: UTF-8 passes through; replace: invalid UTF-8 becomes
  // U+FFFD instead of an exception that would reach the profile thread.
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

} // namespace ocelot
