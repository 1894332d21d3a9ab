#pragma once

// Helpers shared by the front-end tests.

#include "ir/Casting.h"
#include "ir/Module.h"
#include "ir/Parser.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace ocelot::test {

inline std::string readTextFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

inline std::string irDataPath(const std::string& name) {
  return std::string(OCELOT_SOURCE_DIR) + "/tests/ir/data/" + name;
}

/// Parses `text`, failing the test with the diagnostics when it does not parse.
inline std::unique_ptr<ir::Module> parseOrFail(std::string_view text,
                                               std::string_view name = "<test>",
                                               const ir::ParseOptions& options = {}) {
  ir::ParseResult result = ir::parsePtx(text, name, options);
  if (!result.ok()) {
    ADD_FAILURE() << "parse failed: " << result.firstError();
    return nullptr;
  }
  return std::move(result.module);
}

/// Wraps statements into a kernel with the usual register declarations.
inline std::string kernelWithBody(std::string_view body) {
  return std::string(".version 9.0\n.target sm_90\n.address_size 64\n"
                     ".visible .entry k(.param .u64 k_param_0)\n{\n"
                     "\t.reg .pred %p<8>;\n\t.reg .b32 %r<32>;\n\t.reg .b64 %rd<32>;\n"
                     "\t.reg .f32 %f<16>;\n") +
         std::string(body) + "\n}\n";
}

/// Splits "a#b#c" into {"a", "b", "c"}: long lists of test pieces stay readable.
inline std::vector<std::string> pieces(std::string_view list) {
  std::vector<std::string> result;
  for (size_t start = 0;;) {
    size_t end = list.find('#', start);
    result.emplace_back(list.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos)
      return result;
    start = end + 1;
  }
}

/// The first function named `name`.
inline const ir::Function* findFunction(const ir::Module& module, std::string_view name) {
  return module.findFunction(name);
}

/// All instructions of a function in order.
inline std::vector<const ir::Instruction*> instructionsOf(const ir::Function& f) {
  std::vector<const ir::Instruction*> result;
  for (const auto& block : f.blocks())
    block->forEachInstruction([&](const ir::Instruction& i) { result.push_back(&i); });
  return result;
}

} // namespace ocelot::test
