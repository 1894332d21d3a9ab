// nvcc-built programs (tests/runtime/programs) run unmodified with Ocelot's libcudart.so.13 in
// front of NVIDIA's, through LD_LIBRARY_PATH, LD_PRELOAD and direct linking: the same exit code and
// output as with NVIDIA's library, and (through OCELOT_DUMP_PTX) every kernel's PTX extracted from
// zstd, LZ4 and uncompressed fatbinaries and from -rdc programs. On a machine without a GPU both
// runtimes report the same errors; on one with a GPU they compute the same results.

#include "TestFiles.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <unistd.h>

namespace ocelot::runtime::testing {
namespace {

namespace fs = std::filesystem;

std::string nvidiaDir() {
  std::string library = OCELOT_NVIDIA_CUDART;
  return library.empty() ? "" : fs::path(library).parent_path().string();
}

/// Runs a program with the given environment (stderr is dropped: both runtimes may log there).
CommandResult runProgram(const std::string& program, const std::string& environment) {
  return runCommand("env -u OCELOT_DUMP_PTX -u LD_PRELOAD " + std::string(kProgramEnvironment) +
                    environment + " '" + (programsDir() / program).string() + "' 2>/dev/null");
}

CommandResult runWithNvidia(const std::string& program) {
  return runProgram(program, "LD_LIBRARY_PATH='" + nvidiaDir() + "'");
}

/// A fresh directory for one dump.
fs::path dumpDirectory(const std::string& name) {
  fs::path directory =
      fs::temp_directory_path() / ("ocelot-programs-" + std::to_string(::getpid())) / name;
  fs::remove_all(directory);
  fs::create_directories(directory);
  return directory;
}

CommandResult runWithOcelot(const std::string& program, const fs::path& dump,
                            const std::string& extra = "") {
  return runProgram(program, "LD_LIBRARY_PATH='" + std::string(OCELOT_CUDART_DIR) + ":" +
                                 nvidiaDir() + "' OCELOT_DUMP_PTX='" + dump.string() + "' " +
                                 extra);
}

/// One line of index.tsv as key -> value.
using IndexLine = std::map<std::string, std::string>;

std::vector<IndexLine> readIndex(const fs::path& dump) {
  std::vector<IndexLine> lines;
  std::istringstream text(readText(dump / "index.tsv"));
  for (std::string line; std::getline(text, line);) {
    IndexLine fields;
    std::istringstream parts(line);
    for (std::string part; std::getline(parts, part, '\t');) {
      auto equals = part.find('=');
      if (equals != std::string::npos)
        fields[part.substr(0, equals)] = part.substr(equals + 1);
    }
    lines.push_back(std::move(fields));
  }
  return lines;
}

std::set<std::string> split(const std::string& list) {
  std::set<std::string> names;
  std::istringstream parts(list);
  for (std::string name; std::getline(parts, name, ',');)
    if (name != "-")
      names.insert(name);
  return names;
}

class Programs : public ::testing::TestWithParam<const char*> {
protected:
  void SetUp() override {
    if (!havePrograms())
      GTEST_SKIP() << "nvcc was not found at configure time";
  }
};

TEST_P(Programs, BehaveAsWithNvidiasRuntime) {
  if (nvidiaDir().empty())
    GTEST_SKIP() << "NVIDIA's libcudart.so.13 was not found at configure time";
  std::string program = GetParam();
  fs::path dump = dumpDirectory(program);
  CommandResult nvidia = runWithNvidia(program);
  CommandResult ocelot = runWithOcelot(program, dump);
  EXPECT_EQ(ocelot.exitCode, nvidia.exitCode);
  EXPECT_EQ(ocelot.output, nvidia.output);
  EXPECT_FALSE(nvidia.output.empty());
  // The dump proves that Ocelot's library, not NVIDIA's, ran the program.
  EXPECT_TRUE(fs::exists(dump / "index.tsv")) << "Ocelot's runtime was not loaded";
}

// Named by the program (Programs.BehaveAsWithNvidiasRuntime/kernels_zstd), not by its index.
INSTANTIATE_TEST_SUITE_P(, Programs,
                         ::testing::Values("kernels_zstd", "kernels_lz4", "kernels_none",
                                           "kernels_defaults", "rdc_zstd", "rdc_lz4",
                                           "api_behaviour", "threads"),
                         [](const ::testing::TestParamInfo<const char*>& program) {
                           return std::string(program.param);
                         });

struct Extraction {
  const char* program;
  const char* compression;
  std::set<std::string> architectures;
};

class Extractions : public ::testing::TestWithParam<Extraction> {
protected:
  void SetUp() override {
    if (!havePrograms())
      GTEST_SKIP() << "nvcc was not found at configure time";
  }
};

TEST_P(Extractions, EveryKernelsPtxIsExtracted) {
  const Extraction& expected = GetParam();
  fs::path dump = dumpDirectory(std::string("extract-") + expected.program);
  CommandResult run = runWithOcelot(expected.program, dump);
  EXPECT_EQ(run.exitCode, 0);
  std::vector<IndexLine> index = readIndex(dump);
  ASSERT_FALSE(index.empty());
  std::set<std::string> architectures;
  for (const IndexLine& line : index) {
    EXPECT_EQ(line.at("module"), "1"); // one registration per program
    EXPECT_EQ(line.count("error"), 0u) << line.at("error");
    if (line.at("kind") != "ptx")
      continue;
    architectures.insert(line.at("arch"));
    EXPECT_EQ(line.at("compression"), expected.compression);
    EXPECT_EQ(line.at("pipeline"), "ok");
    // Every registered kernel is in the PTX of every architecture.
    EXPECT_EQ(split(line.at("ptx-kernels")), split(line.at("registered-kernels")));
    std::string text = readText(dump / line.at("file"));
    EXPECT_EQ(std::to_string(text.size()), line.at("bytes"));
    EXPECT_NE(text.find(".entry"), std::string::npos);
  }
  EXPECT_EQ(architectures, expected.architectures);
}

INSTANTIATE_TEST_SUITE_P(
    , Extractions,
    ::testing::Values(
        Extraction{"kernels_zstd", "zstd", {"compute_75", "compute_80", "compute_90"}},
        Extraction{"kernels_lz4", "lz4", {"compute_75", "compute_80", "compute_90"}},
        Extraction{"kernels_none", "none", {"compute_75", "compute_80", "compute_90"}},
        Extraction{"kernels_defaults", "zstd", {"compute_75"}}),
    [](const ::testing::TestParamInfo<Extraction>& extraction) {
      return std::string(extraction.param.program);
    });

TEST(DeviceLinkedPrograms, RegisterEveryUnit) {
  if (!havePrograms())
    GTEST_SKIP() << "nvcc was not found at configure time";
  for (auto [program, compression] : {std::pair{"rdc_zstd", "zstd"}, std::pair{"rdc_lz4", "lz4"}}) {
    fs::path dump = dumpDirectory(std::string("extract-") + program);
    CommandResult run = runWithOcelot(program, dump);
    EXPECT_EQ(run.exitCode, 0) << program;
    std::set<std::string> units, kernels;
    for (const IndexLine& line : readIndex(dump)) {
      EXPECT_EQ(line.at("wrapper"), "2") << program;
      EXPECT_EQ(split(line.at("registered-kernels")),
                (std::set<std::string>{"_Z10mainKernelPi", "_Z12helperKernelPi"}));
      if (line.at("kind") != "ptx")
        continue;
      EXPECT_NE(line.at("unit"), "main"); // the device-linked container holds cubins only
      units.insert(line.at("unit"));
      EXPECT_EQ(line.at("compression"), compression);
      EXPECT_EQ(line.at("pipeline"), "ok");
      for (const std::string& kernel : split(line.at("ptx-kernels")))
        kernels.insert(kernel);
    }
    EXPECT_EQ(units, (std::set<std::string>{"prelinked-0", "prelinked-1"})) << program;
    EXPECT_EQ(kernels, (std::set<std::string>{"_Z10mainKernelPi", "_Z12helperKernelPi"}));
  }
}

TEST(LoadingModes, PreloadAndDirectLinking) {
  if (!havePrograms() || nvidiaDir().empty())
    GTEST_SKIP() << "needs nvcc and NVIDIA's libcudart.so.13";
  CommandResult nvidia = runWithNvidia("kernels_defaults");

  fs::path preloadDump = dumpDirectory("preload");
  CommandResult preloaded =
      runProgram("kernels_defaults", "LD_LIBRARY_PATH='" + nvidiaDir() + "' LD_PRELOAD='" +
                                         std::string(OCELOT_CUDART_FILE) + "' OCELOT_DUMP_PTX='" +
                                         preloadDump.string() + "'");
  EXPECT_EQ(preloaded.exitCode, nvidia.exitCode);
  EXPECT_EQ(preloaded.output, nvidia.output);
  EXPECT_TRUE(fs::exists(preloadDump / "index.tsv"));

  // kernels_linked names Ocelot's library itself (through its run path).
  fs::path linkedDump = dumpDirectory("linked");
  CommandResult linked =
      runProgram("kernels_linked", "OCELOT_DUMP_PTX='" + linkedDump.string() + "'");
  EXPECT_EQ(linked.exitCode, nvidia.exitCode);
  EXPECT_EQ(linked.output, nvidia.output);
  EXPECT_TRUE(fs::exists(linkedDump / "index.tsv"));
}

/// The file offset of a section, from readelf.
long sectionOffset(const fs::path& file, const std::string& section) {
  std::istringstream lines(runCommand("readelf -S -W '" + file.string() + "'").output);
  for (std::string line; std::getline(lines, line);) {
    auto at = line.find(" " + section + " ");
    if (at == std::string::npos)
      continue;
    std::istringstream fields(line.substr(at + section.size() + 2));
    std::string type, address, offset;
    fields >> type >> address >> offset;
    return std::stol(offset, nullptr, 16);
  }
  return -1;
}

TEST(CorruptPrograms, ReportTheProblemAndKeepRunning) {
  if (!havePrograms())
    GTEST_SKIP() << "nvcc was not found at configure time";
  fs::path original = programsDir() / "kernels_zstd";
  long offset = sectionOffset(original, ".nv_fatbin");
  ASSERT_GT(offset, 0);
  // The unit's container is the last one of the section; corrupt its magic, then its size.
  std::vector<std::byte> bytes = readBytes(original);
  std::vector<size_t> magics;
  for (size_t i = static_cast<size_t>(offset); i + 4 <= bytes.size(); i += 8)
    if (bytes[i] == std::byte{0x50} && bytes[i + 1] == std::byte{0xED} &&
        bytes[i + 2] == std::byte{0x55} && bytes[i + 3] == std::byte{0xBA})
      magics.push_back(i);
  ASSERT_GE(magics.size(), 2u);
  size_t unit = magics.back();

  struct Corruption {
    std::string name;
    size_t at;
    std::vector<std::byte> value;
    std::string message;
  };
  std::vector<Corruption> corruptions = {
      {"magic", unit, {std::byte{0xEF}, std::byte{0xBE}}, "bad container magic"},
      {"size", unit + 13, {std::byte{0x7F}}, "container size"},
      {"entry", unit + 16 + 4, {std::byte{0x01}, std::byte{0}}, "entry header size"},
  };
  fs::path directory = dumpDirectory("corrupt");
  for (const Corruption& corruption : corruptions) {
    std::vector<std::byte> copy = bytes;
    for (size_t i = 0; i < corruption.value.size(); ++i)
      copy[corruption.at + i] = corruption.value[i];
    fs::path program = directory / ("kernels_zstd_" + corruption.name);
    {
      std::ofstream out(program, std::ios::binary);
      out.write(reinterpret_cast<const char*>(copy.data()),
                static_cast<std::streamsize>(copy.size()));
    }
    fs::permissions(program, fs::perms::owner_all);
    CommandResult run =
        runCommand("env -u LD_PRELOAD " + std::string(kProgramEnvironment) +
                   "OCELOT_LOG=warn LD_LIBRARY_PATH='" + std::string(OCELOT_CUDART_DIR) + "' '" +
                   program.string() + "' 2>&1");
    EXPECT_EQ(run.exitCode, 0) << corruption.name << ": " << run.output;
    EXPECT_NE(run.output.find(corruption.message), std::string::npos)
        << corruption.name << ": " << run.output;
    EXPECT_NE(run.output.find("cudaMalloc"), std::string::npos); // the program ran to the end
  }
}

} // namespace
} // namespace ocelot::runtime::testing
