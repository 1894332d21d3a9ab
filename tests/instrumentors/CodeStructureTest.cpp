// The id of a module's code structure is a hash of its JSON text (without the id), computed
// without building that text: it must equal the hash of the text json() gives, whatever the names
// and paths hold.

#include "ocelot/CodeStructure.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <limits>
#include <nlohmann/json.hpp>

namespace ocelot::test {
namespace {

/// The id as the text defines it: FNV-1a of dumpJson(json()) with the id member removed.
std::string idOfText(const CodeStructure& structure) {
  Json document = structure.json();
  document.erase("id");
  uint64_t hash = 1469598103934665603ull;
  for (unsigned char c : dumpJson(document)) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
  return text;
}

CodeStructure::Block block(std::vector<uint32_t> successors, bool exits, uint32_t depth,
                           bool header, std::vector<CodeStructure::Line> lines) {
  CodeStructure::Block b;
  b.successors = std::move(successors);
  b.exits = exits;
  b.loopDepth = depth;
  b.loopHeader = header;
  b.lines = std::move(lines);
  return b;
}

TEST(CodeStructure, IdIsTheHashOfItsJsonText) {
  constexpr uint32_t kMax = std::numeric_limits<uint32_t>::max();
  std::vector<CodeStructure::Function> functions(4);
  functions[0].name = "_Z6kernelPf";
  functions[0].entry = true;
  functions[0].blocks.push_back(block({1, 2}, false, 0, false, {{0, 12, 3}, {1, 7, 1}}));
  functions[0].blocks.push_back(block({1}, false, 2, true, {}));
  functions[0].blocks.push_back(block({}, true, 1, false, {{1, kMax, kMax}}));
  // Names and paths with what JSON escapes, non-ASCII UTF-8 and bytes that are not UTF-8.
  functions[1].name = "quote\"back\\slash\ttab\x01\x1f";
  functions[2].name = "caf\xc3\xa9 \xe2\x82\xac";
  functions[2].blocks.push_back(block({0}, true, 0, false, {{2, 1, 1}}));
  functions[3].name = std::string("bad\xff\xc3", 5) + std::string(1, '\0') + "end";
  functions[3].entry = true;
  std::vector<std::string> files = {"/src/a.cu", "C:\\\\src\\\\b \"x\".cu", "\x80\x81 weird"};

  CodeStructure structure(files, functions);
  EXPECT_EQ(structure.id(), idOfText(structure));
  EXPECT_EQ(structure.id().size(), 16u);

  // Each part counts.
  CodeStructure empty({}, {});
  EXPECT_EQ(empty.id(), idOfText(empty));
  auto changed = functions;
  changed[0].blocks[1].loopDepth = 1;
  EXPECT_NE(CodeStructure(files, changed).id(), structure.id());
  changed = functions;
  changed[0].blocks[2].lines[0].instructions = 2;
  EXPECT_NE(CodeStructure(files, changed).id(), structure.id());
  files.pop_back();
  EXPECT_NE(CodeStructure(files, functions).id(), structure.id());
  EXPECT_EQ(CodeStructure(files, functions).id(), idOfText(CodeStructure(files, functions)));
}

} // namespace
} // namespace ocelot::test
