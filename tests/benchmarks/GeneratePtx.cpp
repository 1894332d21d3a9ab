// Writes the generated PTX of tests/support/GeneratedPtx.h to a file, for the memory and scaling
// benchmarks (scripts next to them run `ocelot ptx ...` on it) and for trying things by hand.
//
//   ocelot_generate_ptx nvcc-like BYTES OUT.ptx
//   ocelot_generate_ptx nested-loops DEPTH OUT.ptx
//   ocelot_generate_ptx call-chain COUNT OUT.ptx

#include "tests/support/GeneratedPtx.h"

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: ocelot_generate_ptx nvcc-like BYTES|nested-loops DEPTH|call-chain COUNT "
                 "OUT.ptx\n";
    return 2;
  }
  const std::string shape = argv[1];
  char* end = nullptr;
  const unsigned long long size = std::strtoull(argv[2], &end, 10);
  if (end == argv[2] || *end != '\0') {
    std::cerr << "ocelot_generate_ptx: '" << argv[2] << "' is not a number\n";
    return 2;
  }
  std::string text;
  if (shape == "nvcc-like")
    text = ocelot::testing::nvccLikeModule(size);
  else if (shape == "nested-loops")
    text = ocelot::testing::nestedLoops(size);
  else if (shape == "call-chain")
    text = ocelot::testing::callChain(size);
  else {
    std::cerr << "ocelot_generate_ptx: unknown shape '" << shape << "'\n";
    return 2;
  }
  std::ofstream out(argv[3], std::ios::binary);
  out << text;
  if (!out) {
    std::cerr << "ocelot_generate_ptx: cannot write " << argv[3] << "\n";
    return 1;
  }
  return 0;
}
