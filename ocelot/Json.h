#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

namespace ocelot {

/// Ocelot's JSON values (profiles, results, reports): nlohmann's JSON with object members kept in
/// the order they were added, so that a profile reads in the order docs/profile.schema.json and
/// docs/instrumentation.md list its fields. Include <nlohmann/json.hpp> to build or read one.
using Json = nlohmann::ordered_json;

/// `value` as compact JSON text on one line (a profile file holds one profile per line). Never
/// throws: bytes that are not UTF-8 (a `.loc` path, a kernel name) are written as U+FFFD, and
/// numbers that are not finite as null, since JSON has neither.
std::string dumpJson(const Json& value);

} // namespace ocelot
