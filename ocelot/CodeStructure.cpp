#include "ocelot/CodeStructure.h"

#include <charconv>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string_view>

namespace ocelot {

namespace {

/// FNV-1a over bytes given piece by piece.
class Fnv1a {
public:
  void add(std::string_view bytes) {
    for (unsigned char c : bytes) {
      hash_ ^= c;
      hash_ *= 1099511628211ull;
    }
  }
  void add(uint64_t number) {
    add(std::string_view(digits_, std::to_chars(digits_, digits_ + sizeof digits_, number).ptr));
  }
  uint64_t value() const { return hash_; }

private:
  uint64_t hash_ = 1469598103934665603ull;
  char digits_[24];
};

/// Hashes the text dumpJson(json()) gives for `files` and `functions` (no id) without building it:
/// on a large module the JSON document and its text were the largest thing alive while it was
/// being analyzed (about a byte of each per byte of PTX). The text is json()'s member by member;
/// strings go through dumpJson for its escaping and UTF-8 handling
/// (tests/instrumentors/CodeStructureTest.cpp checks the two against each other).
uint64_t hashText(const std::vector<std::string>& files,
                  const std::vector<CodeStructure::Function>& functions) {
  Fnv1a hash;
  auto string = [&](const std::string& text) { hash.add(dumpJson(Json(text))); };
  auto numbers = [&](const std::vector<uint32_t>& values) {
    hash.add("[");
    for (size_t i = 0; i < values.size(); ++i) {
      if (i != 0)
        hash.add(",");
      hash.add(uint64_t{values[i]});
    }
    hash.add("]");
  };
  hash.add("{\"files\":[");
  for (size_t i = 0; i < files.size(); ++i) {
    if (i != 0)
      hash.add(",");
    string(files[i]);
  }
  hash.add("],\"functions\":[");
  for (size_t f = 0; f < functions.size(); ++f) {
    const CodeStructure::Function& function = functions[f];
    hash.add(f != 0 ? ",{\"name\":" : "{\"name\":");
    string(function.name);
    hash.add(function.entry ? ",\"entry\":true,\"blocks\":[" : ",\"entry\":false,\"blocks\":[");
    for (size_t b = 0; b < function.blocks.size(); ++b) {
      const CodeStructure::Block& block = function.blocks[b];
      hash.add(b != 0 ? ",{\"successors\":" : "{\"successors\":");
      numbers(block.successors);
      if (block.exits)
        hash.add(",\"exits\":true");
      if (block.loopDepth != 0) {
        hash.add(",\"loop_depth\":");
        hash.add(uint64_t{block.loopDepth});
      }
      if (block.loopHeader)
        hash.add(",\"loop_header\":true");
      hash.add(",\"lines\":[");
      for (size_t l = 0; l < block.lines.size(); ++l) {
        const CodeStructure::Line& line = block.lines[l];
        hash.add(l != 0 ? ",[" : "[");
        hash.add(uint64_t{line.file});
        hash.add(",");
        hash.add(uint64_t{line.line});
        hash.add(",");
        hash.add(uint64_t{line.instructions});
        hash.add("]");
      }
      hash.add("]}");
    }
    hash.add("]}");
  }
  hash.add("]}");
  return hash.value();
}

} // namespace

CodeStructure::CodeStructure(std::vector<std::string> files, std::vector<Function> functions)
    : files_(std::move(files)), functions_(std::move(functions)) {
  // FNV-1a over the JSON text without the id: stable across processes and compilers.
  char text[17];
  std::snprintf(text, sizeof text, "%016llx",
                static_cast<unsigned long long>(hashText(files_, functions_)));
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
