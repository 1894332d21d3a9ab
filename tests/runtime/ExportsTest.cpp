// The exported symbol set of Ocelot's libcudart.so.13 against NVIDIA's: the same functions, each
// with the version node libcudart.so.13, the same SONAME, and dependencies a target machine has.

#include "TestFiles.h"

#include <gtest/gtest.h>

#include <set>
#include <sstream>

namespace ocelot::runtime::testing {
namespace {

/// "T name@@version" (or "A name") for every defined dynamic symbol, as nm -D prints them.
std::set<std::string> definedSymbols(const std::string& library) {
  CommandResult nm = runCommand("nm -D --defined-only '" + library + "'");
  EXPECT_EQ(nm.exitCode, 0) << "nm failed on " << library;
  std::set<std::string> symbols;
  std::istringstream lines(nm.output);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string address, type, name;
    // Ocelot's own C++ API (ocelot/ocelot.h) has its own version node, OCELOT_1, which no
    // application of NVIDIA's runtime can bind to; docs/instrumentation.md.
    if (!(fields >> address >> type >> name) || name == "OCELOT_1" || name.ends_with("@@OCELOT_1"))
      continue;
    symbols.insert(type + " " + name);
  }
  return symbols;
}

std::string dynamicSection(const std::string& library) {
  return runCommand("readelf -d '" + library + "'").output;
}

TEST(Exports, SameFunctionsAndVersionsAsNvidiasLibrary) {
  std::string nvidia = OCELOT_NVIDIA_CUDART;
  if (nvidia.empty())
    GTEST_SKIP() << "NVIDIA's libcudart.so.13 was not found at configure time";
  std::set<std::string> theirs = definedSymbols(nvidia);
  std::set<std::string> ours = definedSymbols(OCELOT_CUDART_FILE);
  std::vector<std::string> missing, extra;
  for (const std::string& symbol : theirs)
    if (!ours.count(symbol))
      missing.push_back(symbol);
  for (const std::string& symbol : ours)
    if (!theirs.count(symbol))
      extra.push_back(symbol);
  EXPECT_TRUE(missing.empty()) << "missing " << missing.size() << ", first: " << missing.front();
  EXPECT_TRUE(extra.empty()) << "extra " << extra.size() << ", first: " << extra.front();
  EXPECT_EQ(ours.size(), 423u); // 422 functions and the version node
}

TEST(Exports, EveryListedFunctionCarriesTheVersionNode) {
  std::set<std::string> ours = definedSymbols(OCELOT_CUDART_FILE);
  std::istringstream list(
      readText(std::string(OCELOT_SOURCE_DIR) + "/runtime/exports/libcudart13.symbols"));
  size_t functions = 0;
  for (std::string name; std::getline(list, name);) {
    if (name.empty() || name[0] == '#')
      continue;
    ++functions;
    EXPECT_TRUE(ours.count("T " + name + "@@libcudart.so.13")) << name;
  }
  EXPECT_EQ(functions, 422u);
  EXPECT_TRUE(ours.count("A libcudart.so.13"));
  EXPECT_EQ(ours.size(), functions + 1); // nothing else leaks out
}

TEST(Exports, SonameAndDependencies) {
  std::string dynamic = dynamicSection(OCELOT_CUDART_FILE);
  EXPECT_NE(dynamic.find("Library soname: [libcudart.so.13]"), std::string::npos) << dynamic;
  // What the runtime may need on a target machine (the driver is dlopen()ed, never linked).
  const std::set<std::string> allowed = {
      "libc.so.6",      "libm.so.6",   "libstdc++.so.6",       "libgcc_s.so.1",
      "libzstd.so.1",   "liblz4.so.1", "ld-linux-x86-64.so.2", "libdl.so.2",
      "libpthread.so.0"};
  std::istringstream lines(dynamic);
  for (std::string line; std::getline(lines, line);) {
    auto at = line.find("Shared library: [");
    if (at == std::string::npos)
      continue;
    std::string library = line.substr(at + 17, line.find(']', at) - at - 17);
    bool sanitizer = library.starts_with("libasan") || library.starts_with("libubsan") ||
                     library.starts_with("libtsan"); // OCELOT_SANITIZE builds
    EXPECT_TRUE(allowed.count(library) || sanitizer) << "unexpected dependency " << library;
  }
}

} // namespace
} // namespace ocelot::runtime::testing
