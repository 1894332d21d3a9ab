#include "ocelot/CodeStructure.h"

#include <cstdio>
#include <nlohmann/json.hpp>

namespace ocelot {

CodeStructure::CodeStructure(std::vector<std::string> files, std::vector<Function> functions)
    : files_(std::move(files)), functions_(std::move(functions)) {
  // FNV-1a over the JSON text without the id: stable across processes and compilers.
  uint64_t hash = 1469598103934665603ull;
  for (unsigned char c : dumpJson(json())) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
  id_ = text;
}

const CodeStructure::Function* CodeStructure::function(const std::string& name) const {
  for (const Function& f : functions_)
    if (f.name == name)
      return &f;
  return nullptr;
}

Json CodeStructure::json() const {
  Json out = Json::object();
  if (!id_.empty())
    out["id"] = id_;
  out["files"] = files_;
  Json functions = Json::array();
  for (const Function& f : functions_) {
    Json blocks = Json::array();
    for (const Block& b : f.blocks) {
      Json block = Json::object();
      block["successors"] = b.successors;
      if (b.exits)
        block["exits"] = true;
      if (b.loopDepth != 0)
        block["loop_depth"] = b.loopDepth;
      if (b.loopHeader)
        block["loop_header"] = true;
      // [file, line, instructions] triples: compact for large kernels.
      Json lines = Json::array();
      for (const Line& l : b.lines)
        lines.push_back(Json::array({l.file, l.line, l.instructions}));
      block["lines"] = std::move(lines);
      blocks.push_back(std::move(block));
    }
    functions.push_back(Json{{"name", f.name}, {"entry", f.entry}, {"blocks", std::move(blocks)}});
  }
  out["functions"] = std::move(functions);
  return out;
}

} // namespace ocelot
