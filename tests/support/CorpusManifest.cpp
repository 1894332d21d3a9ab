#include "tests/support/CorpusManifest.h"

#include <cctype>
#include <fstream>
#include <sstream>

namespace ocelot::test {

std::string_view corpusVariantName(CorpusVariant variant) {
  switch (variant) {
  case CorpusVariant::Plain:
    return "plain";
  case CorpusVariant::LineInfo:
    return "lineinfo";
  case CorpusVariant::Debug:
    return "debug";
  }
  return "plain";
}

std::string CorpusEntry::text() const {
  std::ifstream in(ptx, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

bool CorpusEntry::linkedUnit(const std::string& text) const {
  const std::string module = name();
  return text.find(".extern .func") != std::string::npos || module.starts_with("rdc_") ||
         module.starts_with("dynamic_parallelism");
}

std::string CorpusEntry::testName(const CorpusEntry& entry) {
  std::string name = entry.name();
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)))
      c = '_';
  return name;
}

std::string CorpusEntry::name() const {
  return ptx.stem().string();
}

std::filesystem::path corpusManifestPath() {
  return OCELOT_CORPUS_MANIFEST_PATH;
}

std::vector<std::string> ptxasOptions(const CorpusEntry& entry) {
  std::vector<std::string> options{"-arch=" + entry.arch};
  // e_type, a little-endian 16-bit field at offset 16 of the ELF header: 1 is ET_REL.
  std::ifstream cubin(entry.originalCubin, std::ios::binary);
  unsigned char header[18] = {};
  if (cubin.read(reinterpret_cast<char*>(header), sizeof header) && header[16] == 1 &&
      header[17] == 0)
    options.push_back("-c");
  return options;
}

namespace {

std::vector<std::string_view> splitTabs(std::string_view line) {
  std::vector<std::string_view> fields;
  size_t start = 0;
  while (true) {
    size_t tab = line.find('\t', start);
    fields.push_back(line.substr(start, tab == std::string_view::npos ? tab : tab - start));
    if (tab == std::string_view::npos)
      return fields;
    start = tab + 1;
  }
}

} // namespace

CorpusManifest readCorpusManifest(const std::filesystem::path& path) {
  CorpusManifest manifest;
  std::ifstream in(path);
  if (!in) {
    manifest.error = path.string() + ": cannot open the corpus manifest";
    return manifest;
  }
  std::string line;
  for (size_t number = 1; std::getline(in, line); ++number) {
    if (!line.empty() && line.back() == '\r')
      line.pop_back();
    if (line.empty())
      continue;
    auto fail = [&](const std::string& message) {
      manifest.error = path.string() + ":" + std::to_string(number) + ": " + message;
    };
    std::vector<std::string_view> fields = splitTabs(line);
    if (fields.size() != 4) {
      fail("expected 4 tab-separated fields, found " + std::to_string(fields.size()));
      return manifest;
    }
    CorpusEntry entry;
    entry.ptx = std::filesystem::path(fields[0]);
    entry.arch = std::string(fields[1]);
    entry.originalCubin = std::filesystem::path(fields[3]);
    if (fields[2] == "plain") {
      entry.variant = CorpusVariant::Plain;
    } else if (fields[2] == "lineinfo") {
      entry.variant = CorpusVariant::LineInfo;
    } else if (fields[2] == "debug") {
      entry.variant = CorpusVariant::Debug;
    } else {
      fail("unknown variant '" + std::string(fields[2]) + "'");
      return manifest;
    }
    if (!entry.ptx.is_absolute() || !entry.originalCubin.is_absolute()) {
      fail("paths must be absolute");
      return manifest;
    }
    if (entry.arch.rfind("sm_", 0) != 0) {
      fail("expected an architecture such as sm_90, found '" + entry.arch + "'");
      return manifest;
    }
    manifest.entries.push_back(std::move(entry));
  }
  return manifest;
}

std::vector<CorpusEntry> corpusEntries() {
  CorpusManifest manifest = readCorpusManifest(corpusManifestPath());
  if (!manifest.ok())
    return {};
  return std::move(manifest.entries);
}

} // namespace ocelot::test
