// What the analyses cost next to the JIT: CFG, dominators, post-dominators, loops, liveness and an
// SSA round trip (to SSA and back) over every function of a module, in MB of PTX per second and
// nanoseconds per instruction, measured in the same run as `ptxas` on the same module.
//
//   ocelot_passes_bench [--runs N] [--no-ptxas] [--all] [FILE.ptx[:sm_XX] ...]
//
// Without files it takes the corpus manifest and picks modules spread over the size range (the
// one closest to each of 10 KB, 20 KB, 50 KB ... 2 MB) plus the five largest; --all takes every
// module. Prints a Markdown table (what docs/passes.md records).

#include "ir/Parser.h"
#include "passes/AnalysisManager.h"
#include "passes/DominatorTree.h"
#include "passes/Liveness.h"
#include "passes/LoopInfo.h"
#include "passes/SsaForm.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

struct Input {
  std::filesystem::path path;
  std::string arch;
  std::string variant;
  size_t bytes = 0;
};

std::string readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<Input> readManifest(const std::string& path) {
  std::vector<Input> inputs;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> fields;
    std::stringstream split(line);
    for (std::string field; std::getline(split, field, '\t');)
      fields.push_back(field);
    if (fields.size() < 3)
      continue;
    Input input{fields[0], fields[1], fields[2], 0};
    std::error_code error;
    input.bytes = std::filesystem::file_size(input.path, error);
    if (!error)
      inputs.push_back(input);
  }
  return inputs;
}

/// The modules closest to each size of a logarithmic ladder, plus the five largest.
std::vector<Input> spread(std::vector<Input> inputs) {
  std::sort(inputs.begin(), inputs.end(),
            [](const Input& a, const Input& b) { return a.bytes < b.bytes; });
  std::vector<Input> chosen;
  auto add = [&](const Input& input) {
    for (const auto& c : chosen)
      if (c.path == input.path)
        return;
    chosen.push_back(input);
  };
  for (double kb : {10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0, 2000.0}) {
    const Input* best = nullptr;
    for (const auto& input : inputs)
      if (!best || std::abs(std::log(double(input.bytes) / (kb * 1024))) <
                       std::abs(std::log(double(best->bytes) / (kb * 1024))))
        best = &input;
    if (best)
      add(*best);
  }
  for (size_t i = inputs.size() > 5 ? inputs.size() - 5 : 0; i < inputs.size(); ++i)
    add(inputs[i]);
  std::sort(chosen.begin(), chosen.end(),
            [](const Input& a, const Input& b) { return a.bytes < b.bytes; });
  return chosen;
}

struct Phases {
  double cfg = 0, dom = 0, postdom = 0, loops = 0, liveness = 0, ssa = 0;
  double total() const { return cfg + dom + postdom + loops + liveness + ssa; }
};

double seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

/// One pass of all analyses over every function of `module`; times per phase.
Phases analyze(ocelot::ir::Module& module, bool& ok) {
  using namespace ocelot;
  Phases phases;
  for (ir::Function* f : module.functions()) {
    if (!f->hasBody())
      continue;
    passes::AnalysisManager am;
    auto t0 = Clock::now();
    am.getResult<passes::ControlFlowGraphAnalysis>(*f);
    auto t1 = Clock::now();
    am.getResult<passes::DominatorTreeAnalysis>(*f);
    auto t2 = Clock::now();
    am.getResult<passes::PostDominatorTreeAnalysis>(*f);
    auto t3 = Clock::now();
    am.getResult<passes::LoopAnalysis>(*f);
    auto t4 = Clock::now();
    am.getResult<passes::LivenessAnalysis>(*f);
    auto t5 = Clock::now();
    passes::SsaForm form = passes::toSsa(*f, am);
    ok &= passes::fromSsa(form, am).ok;
    auto t6 = Clock::now();
    phases.cfg += seconds(t0, t1);
    phases.dom += seconds(t1, t2);
    phases.postdom += seconds(t2, t3);
    phases.loops += seconds(t3, t4);
    phases.liveness += seconds(t4, t5);
    phases.ssa += seconds(t5, t6);
  }
  return phases;
}

/// Wall time of `ptxas -c -arch=<arch> file -o /dev/null`, or a negative number on failure.
double timePtxas(const Input& input) {
  std::string command = "ptxas -c -arch=" + input.arch + " '" + input.path.string() +
                        "' -o /dev/null > /dev/null 2>&1";
  auto start = Clock::now();
  int status = std::system(command.c_str());
  double elapsed = seconds(start, Clock::now());
  return status == 0 ? elapsed : -1.0;
}

} // namespace

int main(int argc, char** argv) {
  int runs = 3;
  bool withPtxas = true, all = false;
  std::vector<Input> inputs;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--runs" && i + 1 < argc) {
      runs = std::max(1, std::atoi(argv[++i]));
    } else if (arg == "--no-ptxas") {
      withPtxas = false;
    } else if (arg == "--all") {
      all = true;
    } else if (arg == "--help" || arg == "-h") {
      std::cout << "usage: ocelot_passes_bench [--runs N] [--no-ptxas] [--all] "
                   "[FILE.ptx[:sm_XX] ...]\n";
      return 0;
    } else {
      Input input;
      auto colon = arg.rfind(":sm_");
      input.path = arg.substr(0, colon);
      input.arch = colon == std::string::npos ? "sm_90" : arg.substr(colon + 1);
      input.variant = "file";
      std::error_code error;
      input.bytes = std::filesystem::file_size(input.path, error);
      if (error) {
        std::cerr << "cannot read " << input.path << "\n";
        return 1;
      }
      inputs.push_back(input);
    }
  }
  if (inputs.empty()) {
    inputs = readManifest(OCELOT_CORPUS_MANIFEST);
    if (inputs.empty()) {
      std::cerr << "no corpus at " << OCELOT_CORPUS_MANIFEST << " and no files given\n";
      return 1;
    }
    if (!all)
      inputs = spread(std::move(inputs));
  }

  std::printf("| module | arch | variant | KB | instructions | cfg | dom | postdom | loops | "
              "liveness | ssa round trip | all analyses ms | MB/s | ns/instr | ptxas ms | "
              "analyses / ptxas |\n");
  std::printf("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  double totalBytes = 0, totalAnalyses = 0, totalPtxas = 0;
  size_t totalInstructions = 0;
  for (const Input& input : inputs) {
    std::string text = readFile(input.path);
    Phases best;
    double bestTotal = 1e30;
    size_t instructions = 0;
    bool ok = true;
    for (int run = 0; run < runs; ++run) {
      auto parsed = ocelot::ir::parsePtx(text, input.path.string());
      if (!parsed.ok()) {
        std::cerr << parsed.firstError() << "\n";
        ok = false;
        break;
      }
      instructions = 0;
      for (const auto* f : parsed.module->functions())
        instructions += f->instructionCount();
      Phases phases = analyze(*parsed.module, ok);
      if (phases.total() < bestTotal) {
        bestTotal = phases.total();
        best = phases;
      }
    }
    if (!ok)
      continue;
    double ptxas = withPtxas ? timePtxas(input) : -1;
    double mb = double(input.bytes) / 1e6;
    std::string name = input.path.stem().string();
    std::printf("| %s | %s | %s | %.0f | %zu | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | "
                "%.1f | %.0f | ",
                name.c_str(), input.arch.c_str(), input.variant.c_str(), double(input.bytes) / 1024,
                instructions, best.cfg * 1e3, best.dom * 1e3, best.postdom * 1e3, best.loops * 1e3,
                best.liveness * 1e3, best.ssa * 1e3, bestTotal * 1e3, mb / bestTotal,
                instructions ? bestTotal * 1e9 / double(instructions) : 0.0);
    if (ptxas > 0)
      std::printf("%.0f | %.2f%% |\n", ptxas * 1e3, 100.0 * bestTotal / ptxas);
    else
      std::printf("- | - |\n");
    std::fflush(stdout);
    totalBytes += double(input.bytes);
    totalInstructions += instructions;
    totalAnalyses += bestTotal;
    if (ptxas > 0)
      totalPtxas += ptxas;
  }
  std::printf("| **total** | | | %.0f | %zu | | | | | | | %.1f | %.1f | %.0f | %.0f | %.2f%% |\n",
              totalBytes / 1024, totalInstructions, totalAnalyses * 1e3,
              totalBytes / 1e6 / std::max(totalAnalyses, 1e-9),
              totalInstructions ? totalAnalyses * 1e9 / double(totalInstructions) : 0.0,
              totalPtxas * 1e3, totalPtxas > 0 ? 100.0 * totalAnalyses / totalPtxas : 0.0);
  return 0;
}
