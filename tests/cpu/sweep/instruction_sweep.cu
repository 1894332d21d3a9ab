// The instruction sweep on a GPU: runs every case of SweepCases.h (inline asm, one thread per input
// row) and writes one table per input group, sweep-<group>.bin, into the folder given as the only
// argument. The CPU device's test (tests/cpu/CpuSweepTest.cpp) runs the same PTX and compares its
// results with these tables (tests/cpu/reference/sweep-<group>.bin.zst).
//
//   nvcc -std=c++17 -O2 -arch=sm_90 -o instruction_sweep tests/cpu/sweep/instruction_sweep.cu
//   ./instruction_sweep OUT_DIR
#include "SweepCases.h"
#include "SweepInputs.h"
#include "SweepTable.h"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <string>
#include <vector>

#define OCELOT_TYPE_R16 unsigned short
#define OCELOT_TYPE_R32 unsigned
#define OCELOT_TYPE_R64 unsigned long long
#define OCELOT_TYPE_NO unsigned
#define OCELOT_CONSTRAINT_R16 "h"
#define OCELOT_CONSTRAINT_R32 "r"
#define OCELOT_CONSTRAINT_R64 "l"
#define OCELOT_CONSTRAINT_NO "r"
#define OCELOT_VALUE_R16(word) static_cast<unsigned short>(word)
#define OCELOT_VALUE_R32(word) static_cast<unsigned>(word)
#define OCELOT_VALUE_R64(word) static_cast<unsigned long long>(word)
#define OCELOT_VALUE_NO(word) 0u

// One kernel per case; unused source operands are bound to 0 and never named by the template.
#define OCELOT_SWEEP_KERNEL(group, name, D, A, B, C, E, text)                                      \
  __global__ void sweep_##name(const unsigned long long* in, OCELOT_TYPE_##D* out, unsigned n) {   \
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;                                      \
    if (i >= n)                                                                                    \
      return;                                                                                      \
    const unsigned long long* w = in + static_cast<size_t>(i) * 4;                                 \
    OCELOT_TYPE_##D d;                                                                             \
    asm volatile(text                                                                              \
                 : "=" OCELOT_CONSTRAINT_##D(d)                                                    \
                 : OCELOT_CONSTRAINT_##A(OCELOT_VALUE_##A(w[0])),                                  \
                   OCELOT_CONSTRAINT_##B(OCELOT_VALUE_##B(w[1])),                                  \
                   OCELOT_CONSTRAINT_##C(OCELOT_VALUE_##C(w[2])),                                  \
                   OCELOT_CONSTRAINT_##E(OCELOT_VALUE_##E(w[3])));                                 \
    out[i] = d;                                                                                    \
  }
OCELOT_SWEEP_CASES(OCELOT_SWEEP_KERNEL)

namespace {

void check(cudaError_t result, const char* what) {
  if (result != cudaSuccess) {
    std::fprintf(stderr, "instruction_sweep: %s: %s\n", what, cudaGetErrorString(result));
    std::exit(2);
  }
}

struct Case {
  const char* group;
  const char* name;
  size_t bytes;
  std::function<void(const unsigned long long*, void*, unsigned)> launch;
};

std::vector<Case> cases() {
  std::vector<Case> all;
#define OCELOT_SWEEP_ENTRY(group, name, D, A, B, C, E, text)                                       \
  all.push_back({#group, #name, sizeof(OCELOT_TYPE_##D),                                           \
                 [](const unsigned long long* in, void* out, unsigned n) {                         \
                   sweep_##name<<<(n + 255) / 256, 256>>>(in, static_cast<OCELOT_TYPE_##D*>(out),  \
                                                          n);                                      \
                 }});
  OCELOT_SWEEP_CASES(OCELOT_SWEEP_ENTRY)
#undef OCELOT_SWEEP_ENTRY
  return all;
}

} // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: instruction_sweep OUT_DIR\n");
    return 2;
  }
  const std::string folder = argv[1];
  std::map<std::string, ocelot::sweep::SweepTable> tables;
  std::map<std::string, std::vector<uint64_t>> rows;
  unsigned long long* input = nullptr;
  void* output = nullptr;
  std::string loaded;
  for (const Case& c : cases()) {
    auto& words = rows[c.group];
    if (words.empty())
      words = ocelot::sweep::rowsOf(c.group);
    const auto count = static_cast<unsigned>(words.size() / ocelot::sweep::kWordsPerRow);
    if (loaded != c.group) {
      cudaFree(input);
      cudaFree(output);
      check(cudaMalloc(&input, words.size() * sizeof(uint64_t)), "cudaMalloc");
      check(cudaMalloc(&output, size_t{count} * 8), "cudaMalloc");
      check(
          cudaMemcpy(input, words.data(), words.size() * sizeof(uint64_t), cudaMemcpyHostToDevice),
          "cudaMemcpy");
      loaded = c.group;
    }
    c.launch(input, output, count);
    check(cudaGetLastError(), c.name);
    ocelot::sweep::SweepResults results;
    results.rowsHash = ocelot::sweep::rowsHash(words);
    results.bytesPerResult = static_cast<uint32_t>(c.bytes);
    results.rows = count;
    results.data.resize(c.bytes * count);
    check(cudaMemcpy(results.data.data(), output, results.data.size(), cudaMemcpyDeviceToHost),
          c.name);
    tables[c.group][c.name] = std::move(results);
  }
  for (const auto& [group, table] : tables) {
    const std::vector<uint8_t> bytes = ocelot::sweep::encodeTable(table);
    const std::string path = folder + "/sweep-" + group + ".bin";
    FILE* file = std::fopen(path.c_str(), "wb");
    if (file == nullptr || std::fwrite(bytes.data(), 1, bytes.size(), file) != bytes.size()) {
      std::fprintf(stderr, "instruction_sweep: cannot write %s\n", path.c_str());
      return 2;
    }
    std::fclose(file);
    std::printf("%s: %zu cases, %zu bytes\n", path.c_str(), table.size(), bytes.size());
  }
  return 0;
}
