// What an instrumented copy of a module costs when it starts from a parse of the module's text
// (the runtime until issue 12) and when it starts from a clone of the IR the catalog already
// parsed: per module, the median of --runs runs of each step, with bbcount and ctaclock active
// (the instrumentation itself is the same in both). Modules are prepared as the module pipeline
// prepares them (parsed, given their function-address table, emitted with the text's lines).
//
//   ocelot_instrumented_copy_bench [--runs N] [FILE.ptx ...]
//
// Without files it takes every module of the corpus manifest. Prints a Markdown table, largest
// modules first, and the totals.

#include "instrumentors/FunctionAddressTable.h"
#include "instrumentors/InstrumentorRegistry.h"
#include "instrumentors/ModuleInstrumenter.h"
#include "ir/Emitter.h"
#include "ir/ModuleClone.h"
#include "ir/Parser.h"
#include "tests/support/CorpusManifest.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

struct Row {
  std::string name;
  size_t bytes = 0;
  double parseMs = 0, cloneMs = 0, fromTextMs = 0, fromCloneMs = 0;
};

} // namespace

int main(int argc, char** argv) {
  using namespace ocelot;
  int runs = 5;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--runs" && i + 1 < argc)
      runs = std::max(1, std::atoi(argv[++i]));
    else
      files.push_back(arg);
  }
  if (files.empty())
    for (const auto& entry : test::corpusEntries())
      files.push_back(entry.ptx.string());
  if (files.empty()) {
    std::fprintf(stderr, "no PTX files given and no corpus manifest\n");
    return 1;
  }

  instrumentors::InstrumentorRegistry registry;
  std::vector<std::shared_ptr<const PTXInstrumentor>> keep;
  std::vector<instrumentors::SlotRequest> slots;
  for (const auto& spec : instrumentors::parseInstrumentorList("bbcount,ctaclock")) {
    keep.push_back(registry.create(spec.name, spec.options));
    slots.push_back({keep.back().get(), keep.back()->variant(LaunchInfo{}, {}).variant});
  }

  std::vector<Row> rows;
  for (const std::string& file : files) {
    const std::string original = readFile(file);
    ir::ParseResult parsed = ir::parsePtx(original, file);
    if (!parsed.ok()) {
      std::fprintf(stderr, "%s: %s\n", file.c_str(), parsed.firstError().c_str());
      return 1;
    }
    instrumentors::addFunctionAddressTable(*parsed.module, 0);
    const std::string text = ir::emitPtxNumberingLines(*parsed.module);
    const ir::Module& module = *parsed.module;
    instrumentors::InstrumentOptions options;
    options.label = file;
    options.linked = original.find(".extern .func") != std::string::npos;
    options.verify = true;

    Row row;
    row.name = file.substr(file.find_last_of('/') + 1);
    row.bytes = text.size();
    std::vector<double> parse, clone, fromText, fromClone;
    for (int r = 0; r < runs; ++r) {
      auto start = Clock::now();
      ir::ParseResult again = ir::parsePtx(text, file);
      parse.push_back(msSince(start));
      start = Clock::now();
      auto copy = ir::cloneModule(module);
      clone.push_back(msSince(start));
      again.module.reset();
      copy.reset();

      start = Clock::now();
      auto a = instrumentors::instrumentModule(text, slots, options);
      fromText.push_back(msSince(start));
      start = Clock::now();
      auto b = instrumentors::instrumentModule(ir::cloneModule(module), slots, options);
      fromClone.push_back(msSince(start));
      if (!a.ok || !b.ok || a.ptx != b.ptx) {
        std::fprintf(stderr, "%s: the two ways differ (%s / %s)\n", file.c_str(), a.error.c_str(),
                     b.error.c_str());
        return 1;
      }
    }
    row.parseMs = median(parse);
    row.cloneMs = median(clone);
    row.fromTextMs = median(fromText);
    row.fromCloneMs = median(fromClone);
    rows.push_back(row);
  }

  std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.bytes > b.bytes; });
  std::printf("| module | KB | parse ms | clone ms | copy from text ms | copy from clone ms |\n");
  std::printf("|---|---:|---:|---:|---:|---:|\n");
  Row total;
  for (const Row& row : rows) {
    total.bytes += row.bytes;
    total.parseMs += row.parseMs;
    total.cloneMs += row.cloneMs;
    total.fromTextMs += row.fromTextMs;
    total.fromCloneMs += row.fromCloneMs;
    std::printf("| %s | %.0f | %.2f | %.2f | %.2f | %.2f |\n", row.name.c_str(), row.bytes / 1024.0,
                row.parseMs, row.cloneMs, row.fromTextMs, row.fromCloneMs);
  }
  std::printf("| **all %zu modules** | %.0f | %.1f | %.1f | %.1f | %.1f |\n", rows.size(),
              total.bytes / 1024.0, total.parseMs, total.cloneMs, total.fromTextMs,
              total.fromCloneMs);
  return 0;
}
