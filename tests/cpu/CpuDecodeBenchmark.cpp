// ocelot_cpu_decode_bench: how long the CPU back end takes to decode kernels (IR -> its own
// instruction stream), the step a kernel's first launch pays. Parsing is not timed: each round
// loads the modules afresh (kernels are decoded once per module) and times only the decoding of
// every kernel of every module, successful or not (a kernel with an instruction the device does
// not run stops at that instruction, as it does at a launch).
//
//   ocelot_cpu_decode_bench [--rounds N] [--errors] FILE.ptx ...
//
// Prints the best and the median round, in microseconds, and the number of kernels decoded;
// --errors also prints why each kernel that does not decode does not (to compare two builds).

#include "runtime/cpu/CpuModule.h"
#include "runtime/cpu/DeviceMemory.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace ocelot::runtime::cpu;

int main(int argc, char** argv) {
  int rounds = 20;
  bool printErrors = false;
  std::vector<std::string> texts;
  for (int i = 1; i < argc; ++i) {
    std::string argument = argv[i];
    if (argument == "--rounds" && i + 1 < argc) {
      rounds = std::max(1, std::atoi(argv[++i]));
      continue;
    }
    if (argument == "--errors") {
      printErrors = true;
      continue;
    }
    std::ifstream in(argument);
    if (!in) {
      std::fprintf(stderr, "cannot read %s\n", argument.c_str());
      return 1;
    }
    std::stringstream text;
    text << in.rdbuf();
    texts.push_back(text.str());
  }
  if (texts.empty()) {
    std::fprintf(stderr, "usage: ocelot_cpu_decode_bench [--rounds N] [--errors] FILE.ptx ...\n");
    return 2;
  }
  std::string error;
  auto memory = DeviceMemory::create(&error);
  if (!memory) {
    std::fprintf(stderr, "no device memory: %s\n", error.c_str());
    return 1;
  }
  std::vector<double> times;
  size_t kernels = 0, failures = 0;
  for (int round = 0; round < rounds; ++round) {
    std::vector<std::unique_ptr<CpuModule>> modules;
    for (const std::string& text : texts) {
      auto module = CpuModule::load({text}, "bench", *memory);
      if (module)
        modules.push_back(std::move(*module));
    }
    kernels = failures = 0;
    const auto start = std::chrono::steady_clock::now();
    for (auto& module : modules)
      for (const ModuleFunction& function : module->functions())
        if (function.function->isEntry() && function.function->hasBody()) {
          ++kernels;
          auto decoded = module->kernel(function.name);
          if (!decoded) {
            ++failures;
            if (printErrors && round == 0)
              std::printf("%s\n", decoded.error().message.c_str());
          }
        }
    const auto stop = std::chrono::steady_clock::now();
    times.push_back(std::chrono::duration<double, std::micro>(stop - start).count());
  }
  std::sort(times.begin(), times.end());
  std::printf("%zu kernels (%zu not decodable), %d rounds: best %.0f us, median %.0f us\n", kernels,
              failures, rounds, times.front(), times[times.size() / 2]);
  return 0;
}
