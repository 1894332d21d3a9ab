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

/// Assembles `ptx` for `arch` with `ptxas` (relocatable, `-c`, so that modules calling external
/// functions assemble on their own) and returns ptxas' verdict and messages.
inline PtxasResult runPtxas(const std::string& ptx, const std::string& arch,
                            const std::string& ptxas = ptxasPath()) {
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
  std::string command = ptxas + " -c -arch=" + arch + " " + ptxPath + " -o /dev/null 2>&1";
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

} // namespace ocelot::test
