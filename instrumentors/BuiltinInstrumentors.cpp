#include "instrumentors/BuiltinInstrumentors.h"

#include "instrumentors/BasicBlockCounter.h"
#include "instrumentors/CtaClock.h"
#include "instrumentors/ProbeFileTool.h"

#include <cstdio>
#include <exception>
#include <string>

namespace ocelot::instrumentors {

namespace {

/// `bbcount-warp` and `bbcount-thread`: bbcount with its mode fixed, so that a mode is one word
/// in OCELOT_INSTRUMENTORS and `ocelot ptx instrument -i`.
template <const char* Mode>
void* bbcountWithMode(const char* options, char* error, size_t size, void* userData) {
  InstrumentorOptions parsed;
  try {
    parsed = InstrumentorOptions::parse(options != nullptr ? options : "");
  } catch (const std::exception& e) {
    std::snprintf(error, size, "%s", e.what());
    return nullptr;
  }
  if (parsed.has("mode")) {
    std::snprintf(error, size, "bbcount-%s: the mode is fixed; use bbcount:mode=... instead", Mode);
    return nullptr;
  }
  parsed.set("mode", std::string("per-") + Mode);
  std::string text = parsed.toString();
  return pluginFactory<BasicBlockCounter>()(text.c_str(), error, size, userData);
}

constexpr char kWarp[] = "warp";
constexpr char kThread[] = "thread";

} // namespace

int registerBuiltinInstrumentors(const ocelot_plugin_host_v1* host) {
  if (host == nullptr || host->abi_version != OCELOT_PLUGIN_ABI_VERSION)
    return 1;
  int failures = 0;
  failures += host->register_instrumentor(
      host->registry, "bbcount",
      "basic-block execution counts and dynamic instruction counts (mode=per-warp|per-thread)",
      pluginFactory<BasicBlockCounter>(), nullptr);
  failures += host->register_instrumentor(
      host->registry, "ctaclock",
      "per-CTA start/end clocks and SM id; per-SM busy time and load imbalance",
      pluginFactory<CtaClock>(), nullptr);
  failures += host->register_instrumentor(
      host->registry, "bbcount-warp",
      "bbcount counting per warp (activemask/popc, one atomic per warp; the default mode)",
      &bbcountWithMode<kWarp>, nullptr);
  failures += host->register_instrumentor(
      host->registry, "bbcount-thread",
      "bbcount with the paper's per-thread counter matrix (no atomics; memory budget applies)",
      &bbcountWithMode<kThread>, nullptr);
  failures += registerProbeFileTool(host);
  return failures == 0 ? 0 : 1;
}

} // namespace ocelot::instrumentors
