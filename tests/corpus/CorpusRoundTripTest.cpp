// The corpus round trip: for every module nvcc produced from tests/corpus/src, the front end must
// parse it, re-parse its own output into an equal module, and hand ptxas text that assembles to
// the same cubin as the original, section for section (only the PTX text ptxas embeds for
// debuggers, .nv_debug_ptx_txt, may differ). Each module is its own CTest test.

#include "ir/Emitter.h"
#include "ir/Parser.h"
#include "tests/support/CorpusManifest.h"
#include "tests/support/ElfSections.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <spawn.h>
#include <sstream>
#include <sys/wait.h>

extern char** environ;

namespace ocelot::test {

namespace {

constexpr std::string_view kPtxTextSection = ".nv_debug_ptx_txt";

/// Runs `argv` with stdout and stderr going to `log`; returns the exit status (-1 when the
/// program could not be started or did not exit normally).
int run(const std::vector<std::string>& argv, const std::filesystem::path& log) {
  std::vector<char*> args;
  for (const auto& a : argv)
    args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = 0;
  int spawned = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0)
    return -1;
  int status = 0;
  if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
    return -1;
  return WEXITSTATUS(status);
}

std::string readText(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool writeText(const std::filesystem::path& path, std::string_view text) {
  std::ofstream out(path, std::ios::binary);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  return static_cast<bool>(out);
}

/// The sections holding the PTX text itself: `.nv_debug_ptx_txt`, on sm_100 and later also
/// `.nv.merc.nv_debug_ptx_txt`, and in relocatable objects either with a `.<hash>` suffix.
bool isPtxTextSection(std::string_view name) {
  constexpr std::string_view kMercury = ".nv.merc";
  if (name.starts_with(kMercury))
    name.remove_prefix(kMercury.size());
  return name.starts_with(kPtxTextSection);
}

/// In relocatable objects (`ptxas -c`) the embedded PTX text lives in a section named
/// `.nv_debug_ptx_txt.<hash of the PTX text>` (and `.nv.merc.nv_debug_ptx_txt.<hash>`); the name
/// also appears in .shstrtab, .strtab and the line tables' file lists. Returns the hash digits,
/// if the object has such a section.
std::optional<std::string> ptxTextHash(const ElfFile& file) {
  std::string prefix = std::string(kPtxTextSection) + ".";
  for (const auto& [name, bytes] : file.sections)
    if (name.size() > prefix.size() && name.compare(0, prefix.size(), prefix) == 0)
      return name.substr(prefix.size());
  return std::nullopt;
}

template <class Container>
void replaceAll(Container& c, std::string_view from, std::string_view to) {
  auto it = c.begin();
  while ((it = std::search(it, c.end(), from.begin(), from.end())) != c.end()) {
    size_t at = static_cast<size_t>(it - c.begin());
    std::copy(to.begin(), to.end(), it); // same length: no reallocation
    it = c.begin() + static_cast<std::ptrdiff_t>(at + to.size());
  }
}

/// Renames the embedded-PTX section of `file` from hash `from` to hash `to` (same length)
/// everywhere it is spelled, so that everything else can be compared byte for byte.
void renamePtxTextHash(ElfFile& file, const std::string& from, const std::string& to) {
  std::string oldName = std::string(kPtxTextSection) + "." + from;
  std::string newName = std::string(kPtxTextSection) + "." + to;
  std::map<std::string, std::vector<uint8_t>> renamed;
  for (auto& [name, bytes] : file.sections) {
    std::string key = name;
    replaceAll(key, oldName, newName);
    replaceAll(bytes, oldName, newName);
    renamed.emplace(std::move(key), std::move(bytes));
  }
  file.sections = std::move(renamed);
}

std::string firstDifferentLine(const std::string& a, const std::string& b) {
  std::istringstream sa(a), sb(b);
  std::string la, lb;
  for (size_t line = 1;; ++line) {
    bool ha = static_cast<bool>(std::getline(sa, la)), hb = static_cast<bool>(std::getline(sb, lb));
    if (!ha && !hb)
      return "no textual difference";
    if (!ha || !hb || la != lb)
      return "line " + std::to_string(line) + ":\n  first:  " + (ha ? la : "<end>") +
             "\n  second: " + (hb ? lb : "<end>");
  }
}

/// `atomics.sm_90.debug` -> `atomics_sm_90_debug`: a name CTest and gtest filters take as is.
std::string testName(const CorpusEntry& entry) {
  std::string name = entry.name();
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)))
      c = '_';
  return name;
}

/// One module's round trip. Registered per manifest entry in main(), so that each module is a
/// test of its own (`CorpusRoundTrip.atomics_sm_90_debug`), which CTest discovers at test time.
class CorpusRoundTrip : public ::testing::Test {
public:
  explicit CorpusRoundTrip(CorpusEntry entry) : entry_(std::move(entry)) {}
  void TestBody() override;

private:
  CorpusEntry entry_;
};

void CorpusRoundTrip::TestBody() {
  const CorpusEntry& entry = entry_;
  const std::string name = entry.name();

  // 1. The original parses.
  ir::ParseResult original = ir::parsePtxFile(entry.ptx);
  ASSERT_TRUE(original.ok()) << original.firstError();

  // 2. Emitting and re-parsing gives an equal module, and emission is a fixed point.
  std::string emitted = ir::emitPtx(*original.module);
  ir::ParseResult reparsed = ir::parsePtx(emitted, name + ".emitted.ptx");
  ASSERT_TRUE(reparsed.ok()) << "re-parsing the emitted PTX failed: " << reparsed.firstError();
  std::string reemitted = ir::emitPtx(*reparsed.module);
  EXPECT_TRUE(original.module->equals(*reparsed.module))
      << "parse(emit(parse(x))) differs from parse(x); their emissions differ at "
      << firstDifferentLine(emitted, reemitted);
  EXPECT_EQ(emitted, reemitted) << "emission is not a fixed point: "
                                << firstDifferentLine(emitted, reemitted);

  // 3. ptxas makes the same cubin of the emitted text as it made of the original.
  ElfReadResult originalCubin = readElf(entry.originalCubin);
  ASSERT_TRUE(originalCubin.ok()) << originalCubin.error;
  std::filesystem::path dir = std::filesystem::path(OCELOT_CORPUS_WORK_DIR) / name;
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  std::filesystem::create_directories(dir, ec);
  ASSERT_FALSE(ec) << dir << ": " << ec.message();
  std::filesystem::path ptx = dir / (name + ".ptx"), cubin = dir / (name + ".cubin"),
                        log = dir / "ptxas.log";
  // The original's options: -rdc modules were assembled with -c into relocatable objects.
  std::vector<std::string> command = {OCELOT_PTXAS_PATH};
  for (std::string& option : ptxasOptions(entry))
    command.push_back(std::move(option));
  EXPECT_EQ(originalCubin.file->isRelocatable(),
            std::find(command.begin(), command.end(), "-c") != command.end());
  command.insert(command.end(), {ptx.string(), "-o", cubin.string()});

  std::optional<std::string> originalHash = ptxTextHash(*originalCubin.file);
  std::optional<ElfFile> emittedCubin;
  // The embedded-text hash of the emitted PTX has as many digits as the original's 3 times in
  // 4; when it does not, trailing newlines (which change nothing but the hash) are added until
  // it does, so that the name can be swapped without moving any offsets.
  constexpr int kMaxPadding = 400;
  for (int padding = 0; padding <= kMaxPadding; ++padding, emitted += '\n') {
    ASSERT_TRUE(writeText(ptx, emitted)) << "cannot write " << ptx;
    int status = run(command, log);
    ASSERT_EQ(status, 0) << "ptxas rejected the emitted PTX (" << ptx << "):\n" << readText(log);
    ElfReadResult result = readElf(cubin);
    ASSERT_TRUE(result.ok()) << result.error;
    emittedCubin = std::move(*result.file);
    if (!originalHash)
      break;
    std::optional<std::string> hash = ptxTextHash(*emittedCubin);
    ASSERT_TRUE(hash.has_value()) << "the emitted cubin has no " << kPtxTextSection << " section";
    if (hash->size() == originalHash->size()) {
      renamePtxTextHash(*emittedCubin, *hash, *originalHash);
      break;
    }
    ASSERT_LT(padding, kMaxPadding) << "no padding gave a PTX text hash of the original's length";
  }

  std::vector<std::string> differing =
      differingSections(*originalCubin.file, *emittedCubin, isPtxTextSection);
  std::string list;
  for (const auto& section : differing)
    list += (list.empty() ? "" : ", ") + section;
  EXPECT_TRUE(differing.empty()) << "cubin sections differ: " << list
                                 << "\n  original: " << entry.originalCubin.string()
                                 << "\n  emitted:  " << cubin.string();
  if (!HasFailure())
    std::filesystem::remove_all(dir, ec); // failures keep their files for inspection
}

// The manifest itself: present, complete and consistent (without it, main() would register no
// per-module tests and nothing would fail).
TEST(CorpusManifest, ListsTheBuiltCorpus) {
  CorpusManifest manifest = readCorpusManifest(corpusManifestPath());
  ASSERT_TRUE(manifest.ok()) << manifest.error;
  EXPECT_GE(manifest.entries.size(), 100u);
  std::set<std::string> names;
  std::set<CorpusVariant> variants;
  std::set<std::string> archs;
  for (const auto& entry : manifest.entries) {
    EXPECT_TRUE(names.insert(entry.name()).second) << "duplicate module " << entry.name();
    EXPECT_TRUE(std::filesystem::exists(entry.ptx)) << entry.ptx;
    EXPECT_TRUE(std::filesystem::exists(entry.originalCubin)) << entry.originalCubin;
    variants.insert(entry.variant);
    archs.insert(entry.arch);
  }
  EXPECT_EQ(variants.size(), 3u) << "plain, lineinfo and debug modules are all expected";
  for (const char* arch : {"sm_75", "sm_90", "sm_90a", "sm_100a"})
    EXPECT_EQ(archs.count(arch), 1u) << "no module for " << arch;
}

} // namespace
} // namespace ocelot::test

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  for (auto& entry : ocelot::test::corpusEntries()) {
    std::string name = ocelot::test::testName(entry);
    ::testing::RegisterTest("CorpusRoundTrip", name.c_str(), nullptr, nullptr, __FILE__, __LINE__,
                            [entry]() -> ocelot::test::CorpusRoundTrip* {
                              return new ocelot::test::CorpusRoundTrip(entry);
                            });
  }
  return RUN_ALL_TESTS();
}
