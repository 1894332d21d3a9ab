#include "instrumentors/ProbeFileTool.h"

#include "instrumentors/NvrtcCompiler.h"
#include "instrumentors/ProbeInstrumentor.h"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace ocelot::instrumentors {

namespace {

std::vector<std::string> files(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream in(list);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty())
      out.push_back(item);
  return out;
}

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw std::invalid_argument("probe: cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void* create(const char* options, char* error, size_t errorSize, void*) {
  try {
    InstrumentorOptions parsed = InstrumentorOptions::parse(options != nullptr ? options : "");
    // Other keys (overrides such as PROBE.sample-warps) are checked by the instrumentor.
    ProbeToolDefinition definition;
    definition.name = "probe";
    definition.description = "probes from files";
    definition.options = {"ptx", "source", "arch"};
    for (const auto& path : files(parsed.text("ptx")))
      definition.ptx.push_back(readFile(path));
    auto arch = static_cast<unsigned>(parsed.unsignedNumber("arch", 75));
    for (const auto& path : files(parsed.text("source")))
      definition.ptx.push_back(compileProbeSource(readFile(path), path, arch));
    if (definition.ptx.empty())
      throw std::invalid_argument("probe: name the probes with ptx=FILE.ptx or source=FILE.cu");
    auto shared = std::make_shared<ProbeInstrumentor::Shared>();
    shared->definition = std::move(definition);
    return static_cast<PTXInstrumentor*>(new ProbeInstrumentor(shared, parsed));
  } catch (const std::exception& e) {
    if (error != nullptr && errorSize > 0)
      std::snprintf(error, errorSize, "%s", e.what());
    return nullptr;
  }
}

} // namespace

int registerProbeFileTool(const ocelot_plugin_host_v1* host) {
  return host->register_instrumentor(
      host->registry, "probe",
      "probes from files: ptx=FILE.ptx (nvcc -rdc=true -ptx) or source=FILE.cu (NVRTC)", &create,
      nullptr);
}

} // namespace ocelot::instrumentors
