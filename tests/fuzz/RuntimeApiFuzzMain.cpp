// The runtime API fuzzer's driver (no libFuzzer needed: it links Ocelot's libcudart.so.13 and runs
// on the CPU device in any build, the ASan/UBSan one included).
//
//   ocelot_runtime_api_fuzzer [--seconds N] [--runs R] [--seed S] [--max-len B] [--save DIR]
//                             [INPUT...]
//
// Replays every INPUT file (a directory: each file in it) first, then runs random inputs: R of
// them (--runs; with a fixed seed, the same inputs on every machine: what CTest does), for N
// seconds (--seconds), or until the first of both is reached; neither: none. The environment
// variable OCELOT_RUNTIME_FUZZ_SECONDS, when set, replaces --runs with a time bound, for long
// runs through CTest (`OCELOT_RUNTIME_FUZZ_SECONDS=600 ctest -R fuzz.runtime_api --timeout 900`).
// Before each input runs, it is written to DIR/current-input, so that an input that crashes or
// hangs the process is left there (tests/fuzz/run-runtime-fuzzer.sh keeps it as
// tests/fuzz/regressions/runtime/<hash>). A hang is an input that takes longer than 60 s: the alarm
// aborts the process. Prints executions per second and its coverage measure (distinct (call,
// result) pairs, see RuntimeApiFuzzTarget.h).

#include "RuntimeApiFuzzTarget.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

namespace fs = std::filesystem;

std::vector<uint8_t> readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void onAlarm(int) {
  static const char message[] = "runtime API fuzzer: an input ran for 60 s (a hang)\n";
  [[maybe_unused]] ssize_t written = write(STDERR_FILENO, message, sizeof message - 1);
  std::abort();
}

} // namespace

int main(int argc, char** argv) {
  double seconds = 0;
  uint64_t runs = 0; // 0: no bound on the count
  uint64_t seed =
      static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  size_t maxLength = 256;
  std::string save;
  std::vector<fs::path> inputs;
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", argument.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (argument == "--seconds")
      seconds = std::stod(value());
    else if (argument == "--runs")
      runs = std::stoull(value());
    else if (argument == "--seed")
      seed = std::stoull(value());
    else if (argument == "--max-len")
      maxLength = std::stoul(value());
    else if (argument == "--save")
      save = value();
    else if (!fs::is_directory(argument))
      inputs.emplace_back(argument);
    else
      for (const auto& entry : fs::directory_iterator(argument))
        if (entry.is_regular_file() && entry.path().filename() != "README.md")
          inputs.push_back(entry.path());
  }
  if (const char* longRun = std::getenv("OCELOT_RUNTIME_FUZZ_SECONDS");
      longRun != nullptr && *longRun != '\0') {
    seconds = std::stod(longRun);
    runs = 0;
  }
  // The CPU device, with exact bounds on kernel accesses: a launch through a stale or short
  // pointer faults (and exercises the sticky-error paths) instead of writing into whatever lies
  // beyond, which would be the fuzzer's own fault.
  setenv("OCELOT_DEVICE", "cpu", 1);
  setenv("OCELOT_MEMCHECK", "1", 1);
  // The interpreter (the reference): the API paths are under test, and compiling every kernel the
  // fuzzer launches with the LLVM executor would only slow the runs down.
  setenv("OCELOT_CPU_EXECUTOR", "interpreter", 0);
  std::signal(SIGALRM, onAlarm);

  ocelot::fuzz::RuntimeApiCoverage coverage;
  auto runOne = [&](const std::vector<uint8_t>& bytes) {
    if (!save.empty()) {
      std::ofstream out(save + "/current-input", std::ios::binary | std::ios::trunc);
      out.write(reinterpret_cast<const char*>(bytes.data()),
                static_cast<std::streamsize>(bytes.size()));
    }
    alarm(60);
    ocelot::fuzz::fuzzRuntimeApi(bytes.data(), bytes.size(), &coverage);
    alarm(0);
  };

  std::sort(inputs.begin(), inputs.end());
  for (const fs::path& input : inputs)
    runOne(readFile(input));
  std::printf("replayed %zu inputs\n", inputs.size());

  // Printed first: a crash or hang ends the process before the summary.
  std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
  std::fflush(stdout);
  std::mt19937_64 random(seed);
  uint64_t executions = 0;
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  auto more = [&] {
    if (runs != 0 && executions >= runs)
      return false;
    return seconds > 0 ? elapsed() < seconds : runs != 0;
  };
  while (more()) {
    std::vector<uint8_t> bytes(1 + random() % maxLength);
    for (uint8_t& byte : bytes)
      byte = static_cast<uint8_t>(random());
    runOne(bytes);
    ++executions;
  }
  const double time = elapsed();
  std::printf("seed %llu: %llu random inputs in %.1f s (%.1f executions/s), %llu calls\n",
              static_cast<unsigned long long>(seed), static_cast<unsigned long long>(executions),
              time, time > 0 ? static_cast<double>(executions) / time : 0.0,
              static_cast<unsigned long long>(coverage.calls));
  std::printf("coverage: %zu distinct (call, result) pairs\n", coverage.outcomes.size());
  if (std::getenv("OCELOT_FUZZ_VERBOSE") != nullptr)
    for (const auto& [outcome, count] : coverage.outcomes)
      std::printf("  %8llu  %s\n", static_cast<unsigned long long>(count), outcome.c_str());
  if (!save.empty())
    fs::remove(save + "/current-input");
  return 0;
}
