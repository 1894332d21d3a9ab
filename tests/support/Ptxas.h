#pragma once
// ptxas on a PTX text, for the tests that check that what Ocelot emits assembles (passes,
// instrumentors, probes).

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace ocelot::test {

/// The result of running ptxas on a PTX text.
struct PtxasResult {
  bool ran = false; ///< false when ptxas could not be started
  int status = -1;
  std::string output;
  bool ok() const { return ran && status == 0; }
};

/// The CUDA toolkit's ptxas, else the one on PATH.
inline std::string ptxasPath() {
  for (const char* candidate : {"/usr/local/cuda/bin/ptxas"})
    if (std::filesystem::exists(candidate))
      return candidate;
  return "ptxas";
}

/// How much of its optimizer ptxas runs. What the tests check (syntax, types, declared registers
/// and symbols, the instructions' target requirements) is ptxas' front end, the same at every
/// level; the optimizer's time grows with the module, and instrumented corpus modules of 2-4 MB
/// cost ptxas over 30 CPU-s each at the default level.
enum class PtxasEffort {
  Full, ///< the default optimization (-O3): what nvcc and the driver do
  Fast, ///< `--Ofast-compile=max` (CUDA 12.8 and later): the optimizer's cheapest pipeline
};

/// Assembles `ptx` for `arch` with `ptxas` (relocatable, `-c`, so that modules calling external
/// functions assemble on their own) and returns ptxas' verdict and messages.
inline PtxasResult runPtxas(const std::string& ptx, const std::string& arch,
                            const std::string& ptxas = ptxasPath(),
                            PtxasEffort effort = PtxasEffort::Full) {
  PtxasResult result;
  char path[] = "/tmp/ocelot-ptxas-test-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0)
    return result;
  close(fd);
  std::string ptxPath = std::string(path) + ".ptx";
  std::filesystem::rename(path, ptxPath);
  {
    std::ofstream out(ptxPath, std::ios::binary);
    out << ptx;
  }
  const char* level = effort == PtxasEffort::Fast ? " --Ofast-compile=max" : "";
  std::string command =
      ptxas + " -c" + level + " -arch=" + arch + " " + ptxPath + " -o /dev/null 2>&1";
  if (FILE* pipe = popen(command.c_str(), "r")) {
    std::array<char, 4096> buffer;
    size_t n;
    while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
      result.output.append(buffer.data(), n);
    int status = pclose(pipe);
    result.ran = status != -1;
    result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  std::filesystem::remove(ptxPath);
  return result;
}

/// runPtxas with the toolkit's ptxas at `effort`.
inline PtxasResult runPtxas(const std::string& ptx, const std::string& arch, PtxasEffort effort) {
  return runPtxas(ptx, arch, ptxasPath(), effort);
}

} // namespace ocelot::test
