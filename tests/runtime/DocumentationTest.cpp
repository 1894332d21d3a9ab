// docs/runtime.md lists the exported functions Ocelot does not implement yet. This keeps that list
// honest: it must name exactly the functions whose body in runtime/api is notImplemented(__func__).

#include "TestFiles.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>

namespace ocelot::runtime::testing {
namespace {

bool isIdentifier(const std::string& text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

/// The functions defined as `... CUDARTAPI name(...) { return notImplemented(__func__); }`.
std::set<std::string> stubsInSources() {
  std::set<std::string> stubs;
  const std::string body = "return notImplemented(__func__);";
  for (const auto& file :
       std::filesystem::directory_iterator(std::string(OCELOT_SOURCE_DIR) + "/runtime/api")) {
    if (file.path().extension() != ".cpp")
      continue;
    std::string text = readText(file.path());
    for (size_t at = text.find(body); at != std::string::npos; at = text.find(body, at + 1)) {
      size_t name = text.rfind("CUDARTAPI", at);
      if (name == std::string::npos)
        continue;
      name = text.find_first_not_of(" \n", name + 9); // clang-format may break the line there
      stubs.insert(text.substr(name, text.find('(', name) - name));
    }
  }
  return stubs;
}

std::set<std::string> stubsInDocumentation() {
  std::string text = readText(std::string(OCELOT_SOURCE_DIR) + "/docs/runtime.md");
  auto begin = text.find("<!-- not-implemented:begin -->");
  auto end = text.find("<!-- not-implemented:end -->");
  EXPECT_NE(begin, std::string::npos);
  EXPECT_NE(end, std::string::npos);
  std::set<std::string> names;
  if (begin == std::string::npos || end == std::string::npos)
    return names;
  // Every `identifier` of the section (quoted paths and other text are not identifiers).
  std::string section = text.substr(begin, end - begin);
  for (size_t open = section.find('`'); open != std::string::npos;) {
    size_t close = section.find('`', open + 1);
    if (close == std::string::npos)
      break;
    std::string quoted = section.substr(open + 1, close - open - 1);
    if (isIdentifier(quoted))
      names.insert(quoted);
    open = section.find('`', close + 1);
  }
  return names;
}

TEST(Documentation, ListsExactlyTheFunctionsNotImplementedYet) {
  std::set<std::string> sources = stubsInSources();
  std::set<std::string> documented = stubsInDocumentation();
  EXPECT_GT(sources.size(), 0u);
  for (const std::string& name : sources)
    EXPECT_TRUE(documented.count(name)) << name << " is a stub but not listed in docs/runtime.md";
  for (const std::string& name : documented)
    EXPECT_TRUE(sources.count(name)) << name << " is listed in docs/runtime.md but implemented";
}

} // namespace
} // namespace ocelot::runtime::testing
