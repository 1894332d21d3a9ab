#pragma once

// Small helpers shared by the runtime tests: reading the files nvcc produced at build time and
// running programs.

#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <sys/wait.h>
#include <vector>

namespace ocelot::runtime::testing {

inline std::filesystem::path programsDir() {
  return OCELOT_RUNTIME_PROGRAMS;
}
inline bool havePrograms() {
  return OCELOT_RUNTIME_HAVE_PROGRAMS != 0;
}

inline std::vector<std::byte> readBytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> bytes(chars.size());
  for (size_t i = 0; i < chars.size(); ++i)
    bytes[i] = static_cast<std::byte>(chars[i]);
  return bytes;
}

inline std::string readText(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

/// What a shell command printed on stdout, and its exit status.
struct CommandResult {
  int exitCode = -1;
  std::string output;
};

/// The environment every program of the tests runs with. In sanitizer builds Ocelot's library
/// brings the sanitizer runtime into programs that were not built with it; this lets that work.
/// OCELOT_DEVICE=gpu keeps Ocelot on the driver path these tests compare with NVIDIA's runtime
/// (without it, a machine without a GPU runs the programs on Ocelot's CPU back end instead).
inline const char* kProgramEnvironment =
    "ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=0 OCELOT_DEVICE=gpu ";

inline CommandResult runCommand(const std::string& command) {
  CommandResult result;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr)
    return result;
  char buffer[4096];
  size_t read = 0;
  while ((read = std::fread(buffer, 1, sizeof buffer, pipe)) > 0)
    result.output.append(buffer, read);
  int status = ::pclose(pipe);
  result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

} // namespace ocelot::runtime::testing
