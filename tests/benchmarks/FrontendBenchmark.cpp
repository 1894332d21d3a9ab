// The PTX front end's cost next to the JIT's: parse and parse+emit throughput and peak heap per
// byte of PTX, on the largest modules of the corpus (or on files given as arguments), measured in
// the same run as `ptxas` on the same files.
//
//   ocelot_frontend_bench [--runs N] [--largest K] [--no-ptxas] [FILE.ptx ...]
//   ocelot_frontend_bench --profile FILE.ptx
//
// Prints a Markdown table (what docs/performance.md records). --profile parses FILE once (the
// module destroyed again) in profileParse() and emits it once in profileEmit(), for callgrind:
// their inclusive instruction counts divided by FILE's size are the instructions per byte that
// docs/performance.md records (steadier than times on a shared machine).

#include "ir/Emitter.h"
#include "ir/Parser.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <malloc.h>
#include <new>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

// --- Heap accounting: every allocation of this process goes through these. Counting is switched
// on only while the peak of one parse is measured, so that timed runs pay one branch.

namespace {
bool countingHeap = false; // only toggled while single-threaded
size_t liveBytes = 0;
size_t peakBytes = 0;

void* countedAllocate(size_t size) {
  void* block = std::malloc(size == 0 ? 1 : size);
  if (!block)
    throw std::bad_alloc();
  if (countingHeap) {
    liveBytes += malloc_usable_size(block);
    peakBytes = std::max(peakBytes, liveBytes);
  }
  return block;
}

void countedFree(void* block) {
  if (block && countingHeap)
    liveBytes -= std::min(liveBytes, malloc_usable_size(block));
  std::free(block);
}
} // namespace

void* operator new(size_t size) {
  return countedAllocate(size);
}
void* operator new[](size_t size) {
  return countedAllocate(size);
}
void* operator new(size_t size, const std::nothrow_t&) noexcept {
  try {
    return countedAllocate(size);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](size_t size, const std::nothrow_t&) noexcept {
  try {
    return countedAllocate(size);
  } catch (...) {
    return nullptr;
  }
}
void operator delete(void* p) noexcept {
  countedFree(p);
}
void operator delete[](void* p) noexcept {
  countedFree(p);
}
void operator delete(void* p, size_t) noexcept {
  countedFree(p);
}
void operator delete[](void* p, size_t) noexcept {
  countedFree(p);
}
// Aligned allocations (the IR arena's blocks) are counted too.
void* operator new(size_t size, std::align_val_t alignment) {
  void* block = std::aligned_alloc(static_cast<size_t>(alignment),
                                   (size + static_cast<size_t>(alignment) - 1) &
                                       ~(static_cast<size_t>(alignment) - 1));
  if (!block)
    throw std::bad_alloc();
  if (countingHeap) {
    liveBytes += malloc_usable_size(block);
    peakBytes = std::max(peakBytes, liveBytes);
  }
  return block;
}
void operator delete(void* p, std::align_val_t) noexcept {
  countedFree(p);
}
void operator delete(void* p, size_t, std::align_val_t) noexcept {
  countedFree(p);
}

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

struct Input {
  fs::path path;
  std::string arch; // for ptxas, e.g. sm_90a
  std::string variant;
};

struct Row {
  Input input;
  size_t bytes = 0;
  size_t instructions = 0;
  double parseSeconds = 0, emitSeconds = 0, ptxasSeconds = 0;
  size_t peakHeap = 0;
};

std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The `.target` architecture of a PTX text (sm_90a), or sm_90.
std::string targetOf(const std::string& text) {
  size_t at = text.find(".target");
  if (at == std::string::npos)
    return "sm_90";
  size_t begin = text.find_first_not_of(" \t", at + 7);
  size_t end = text.find_first_of(", \t\r\n", begin);
  return text.substr(begin, end - begin);
}

std::vector<Input> largestCorpusModules(size_t count) {
  std::vector<Input> inputs;
  std::ifstream manifest(OCELOT_CORPUS_MANIFEST);
  std::string line;
  while (std::getline(manifest, line)) {
    std::istringstream fields(line);
    Input input;
    std::string path;
    std::getline(fields, path, '\t');
    std::getline(fields, input.arch, '\t');
    std::getline(fields, input.variant, '\t');
    input.path = path;
    if (fs::exists(input.path))
      inputs.push_back(input);
  }
  std::sort(inputs.begin(), inputs.end(), [](const Input& a, const Input& b) {
    return fs::file_size(a.path) > fs::file_size(b.path);
  });
  if (inputs.size() > count)
    inputs.resize(count);
  return inputs;
}

double secondsOf(const std::function<void()>& work, int runs) {
  double best = 1e30;
  for (int i = 0; i < runs; ++i) {
    auto start = Clock::now();
    work();
    best = std::min(best, std::chrono::duration<double>(Clock::now() - start).count());
  }
  return best;
}

double ptxasSeconds(const Input& input) {
  fs::path cubin =
      fs::temp_directory_path() / ("ocelot-bench-" + std::to_string(::getpid()) + ".cubin");
  std::string command = "ptxas -arch=" + input.arch + " '" + input.path.string() + "' -o '" +
                        cubin.string() + "' > /dev/null 2>&1";
  auto start = Clock::now();
  int status = std::system(command.c_str());
  double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  fs::remove(cubin);
  return status == 0 ? seconds : -1.0;
}

// Kept out of line so that callgrind reports them (see --profile).
[[gnu::noinline]] bool profileParse(const std::string& text) {
  return ocelot::ir::parsePtx(text, "profile.ptx").ok();
}

[[gnu::noinline]] size_t profileEmit(const ocelot::ir::Module& module) {
  std::string out;
  ocelot::ir::emitPtx(module, out);
  return out.size();
}

int profile(const fs::path& path) {
  std::string text = readFile(path);
  if (!profileParse(text)) {
    std::cerr << ocelot::ir::parsePtx(text, path.string()).firstError() << "\n";
    return 1;
  }
  auto module = ocelot::ir::parsePtx(text, "profile.ptx").module;
  size_t emitted = profileEmit(*module);
  std::printf("%s: %zu bytes parsed, %zu emitted\n", path.string().c_str(), text.size(), emitted);
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  int runs = 5;
  size_t largest = 8;
  bool withPtxas = true;
  std::vector<Input> inputs;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--runs" && i + 1 < argc)
      runs = std::max(1, std::atoi(argv[++i]));
    else if (arg == "--largest" && i + 1 < argc)
      largest = static_cast<size_t>(std::max(1, std::atoi(argv[++i])));
    else if (arg == "--no-ptxas")
      withPtxas = false;
    else if (arg == "--profile" && i + 1 < argc)
      return profile(argv[++i]);
    else if (arg == "--help" || arg == "-h") {
      std::cout
          << "usage: ocelot_frontend_bench [--runs N] [--largest K] [--no-ptxas] [FILE.ptx ...]\n"
             "       ocelot_frontend_bench --profile FILE.ptx\n";
      return 0;
    } else
      inputs.push_back(Input{arg, "", "file"});
  }
  if (inputs.empty())
    inputs = largestCorpusModules(largest);
  if (inputs.empty()) {
    std::cerr << "no inputs: build the corpus (" << OCELOT_CORPUS_MANIFEST
              << ") or name PTX files\n";
    return 2;
  }

  std::vector<Row> rows;
  for (Input& input : inputs) {
    Row row;
    std::string text = readFile(input.path);
    if (input.arch.empty())
      input.arch = targetOf(text);
    row.input = input;
    row.bytes = text.size();

    // Peak heap of one parse, the copy of the input included.
    liveBytes = peakBytes = 0;
    countingHeap = true;
    {
      ocelot::ir::ParseResult result = ocelot::ir::parsePtx(text, input.path.string());
      countingHeap = false;
      if (!result.ok()) {
        std::cerr << result.firstError() << "\n";
        return 1;
      }
      row.peakHeap = peakBytes;
      for (const auto* f : result.module->functions())
        row.instructions += f->instructionCount();
    }
    row.parseSeconds = secondsOf([&] { ocelot::ir::parsePtx(text, "bench.ptx"); }, runs);
    auto module = ocelot::ir::parsePtx(text, "bench.ptx").module;
    std::string out;
    row.emitSeconds = secondsOf(
        [&] {
          out.clear();
          ocelot::ir::emitPtx(*module, out);
        },
        runs);
    if (withPtxas)
      row.ptxasSeconds = ptxasSeconds(input);
    rows.push_back(row);
  }

  std::printf(
      "| module | variant | KB | instructions | parse MB/s | parse+emit MB/s | heap bytes/byte |"
      " ptxas s | parse+emit / ptxas |\n");
  std::printf("|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
  double totalBytes = 0, totalParse = 0, totalBoth = 0, totalPtxas = 0;
  for (const Row& row : rows) {
    double mb = double(row.bytes) / 1e6;
    double both = row.parseSeconds + row.emitSeconds;
    totalBytes += mb;
    totalParse += row.parseSeconds;
    totalBoth += both;
    char ratio[32] = "n/a", ptxas[32] = "n/a";
    if (row.ptxasSeconds > 0) {
      totalPtxas += row.ptxasSeconds;
      std::snprintf(ptxas, sizeof ptxas, "%.2f", row.ptxasSeconds);
      std::snprintf(ratio, sizeof ratio, "%.2f%%", 100.0 * both / row.ptxasSeconds);
    }
    std::printf("| %s | %s | %.0f | %zu | %.0f | %.0f | %.1f | %s | %s |\n",
                row.input.path.filename().string().c_str(), row.input.variant.c_str(),
                double(row.bytes) / 1e3, row.instructions, mb / row.parseSeconds, mb / both,
                double(row.peakHeap) / double(row.bytes), ptxas, ratio);
  }
  std::printf("\nall modules: %.1f MB, parse %.0f MB/s, parse+emit %.0f MB/s", totalBytes,
              totalBytes / totalParse, totalBytes / totalBoth);
  if (totalPtxas > 0)
    std::printf(", ptxas %.1f s = %.0fx the front end's time", totalPtxas, totalPtxas / totalBoth);
  std::printf("\n");
  return 0;
}
