// The fatbinary reader on what nvcc 13 really writes: objects and programs built from
// programs/kernels.cu at build time with every compress mode, several architectures, -rdc, -G,
// arch- and family-specific targets and LTO.

#include "TestFiles.h"
#include "ir/Parser.h"
#include "runtime/fatbin/Decompress.h"
#include "runtime/fatbin/Fatbinary.h"
#include "runtime/fatbin/Selection.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

namespace ocelot::runtime {
namespace {

using fatbin::Compression;
using fatbin::EntryKind;
using testing::havePrograms;
using testing::programsDir;
using testing::readBytes;

const std::set<std::string> kKernels = {"_Z6addOnePii", "_Z5scaleIfEvPT_S0_i",
                                        "_Z12useVariablesPi"};

/// A fatbinary section read from a file next to the parsed result (which points into the bytes).
struct Section {
  std::vector<std::byte> bytes;
  fatbin::Fatbinary fatbinary;
  std::vector<const fatbin::Entry*> entries;
};

Section load(const std::string& file) {
  Section section;
  section.bytes = readBytes(programsDir() / file);
  auto parsed = fatbin::parseFatbinary(section.bytes);
  EXPECT_TRUE(parsed) << file << ": " << (parsed ? "" : parsed.error().message());
  if (parsed) {
    section.fatbinary = std::move(*parsed);
    section.entries = section.fatbinary.entries();
  }
  return section;
}

std::set<std::string> entryKernels(const std::string& ptx, const std::string& name) {
  ir::ParseResult parsed = ir::parsePtx(ptx, name);
  EXPECT_TRUE(parsed.ok()) << name << ": " << parsed.firstError();
  std::set<std::string> kernels;
  if (parsed.ok())
    for (const ir::Function* function : parsed.module->functions())
      if (function->isEntry())
        kernels.emplace(function->name());
  return kernels;
}

std::string arch(const fatbin::Entry* entry) {
  return entry == nullptr ? "none" : entry->archName();
}

class RealFatbinary : public ::testing::Test {
protected:
  void SetUp() override {
    if (!havePrograms())
      GTEST_SKIP() << "nvcc was not found at configure time";
  }
};

struct CompressMode {
  const char* file;
  Compression ptxCompression;
};

class CompressModes : public RealFatbinary, public ::testing::WithParamInterface<CompressMode> {};

TEST_P(CompressModes, ExtractsAndParsesEveryPtxEntry) {
  Section section = load(GetParam().file);
  ASSERT_EQ(section.fatbinary.containers.size(), 1u);
  std::set<std::string> ptx, cubins;
  for (const fatbin::Entry* entry : section.entries) {
    if (entry->is(EntryKind::Cubin)) {
      cubins.insert(entry->archName());
      continue;
    }
    ASSERT_TRUE(entry->is(EntryKind::Ptx)) << fatbin::kindName(entry->kind);
    ptx.insert(entry->archName());
    EXPECT_EQ(entry->compression, GetParam().ptxCompression) << entry->archName();
    EXPECT_EQ(entry->majorVersion, 9u);
    auto text = fatbin::extractPtx(*entry);
    ASSERT_TRUE(text) << text.error().message();
    EXPECT_NE(text->find(".target sm_" + std::to_string(entry->arch)), std::string::npos);
    EXPECT_EQ(entryKernels(*text, entry->archName()), kKernels) << entry->archName();
  }
  EXPECT_EQ(ptx, (std::set<std::string>{"compute_75", "compute_80", "compute_90"}));
  EXPECT_EQ(cubins, (std::set<std::string>{"sm_75", "sm_90"}));
}

INSTANTIATE_TEST_SUITE_P(, CompressModes,
                         ::testing::Values(CompressMode{"kernels_zstd.fatbin", Compression::Zstd},
                                           CompressMode{"kernels_lz4.fatbin", Compression::Lz4},
                                           CompressMode{"kernels_none.fatbin", Compression::None}),
                         [](const ::testing::TestParamInfo<CompressMode>& mode) {
                           return std::string(fatbin::compressionName(mode.param.ptxCompression));
                         });

TEST_F(RealFatbinary, EveryCompressModeYieldsTheSameImages) {
  // Stored images carry alignment padding and PTX its terminating NUL: compare without them.
  auto trimmed = [](std::vector<std::byte> image) {
    while (!image.empty() && image.back() == std::byte{0})
      image.pop_back();
    return image;
  };
  std::map<std::string, std::vector<std::byte>> reference;
  for (const char* file : {"kernels_none.fatbin", "kernels_zstd.fatbin", "kernels_lz4.fatbin"}) {
    Section section = load(file);
    for (const fatbin::Entry* entry : section.entries) {
      auto image = fatbin::decompressPayload(*entry);
      ASSERT_TRUE(image) << file << ": " << image.error().message();
      auto [known, inserted] = reference.emplace(entry->archName(), trimmed(*image));
      if (!inserted) {
        EXPECT_EQ(known->second, trimmed(*image)) << file << " " << entry->archName();
      }
    }
  }
  EXPECT_EQ(reference.size(), 5u);
}

TEST_F(RealFatbinary, CubinsAreElfImages) {
  for (const char* file :
       {"kernels_zstd.fatbin", "kernels_rdc.fatbin", "kernels_specific.fatbin"}) {
    Section section = load(file);
    for (const fatbin::Entry* entry : section.entries) {
      if (!entry->is(EntryKind::Cubin))
        continue;
      auto image = fatbin::decompressPayload(*entry);
      ASSERT_TRUE(image) << image.error().message();
      ASSERT_GE(image->size(), 4u);
      EXPECT_EQ(std::string(reinterpret_cast<const char*>(image->data()), 4), "\x7f"
                                                                              "ELF");
    }
  }
}

TEST_F(RealFatbinary, ProgramSectionHoldsSeveralContainers) {
  // A program's .nv_fatbin holds nvcc's device-link stub container and then the unit's own.
  Section section = load("kernels_zstd_program.fatbin");
  ASSERT_GE(section.fatbinary.containers.size(), 2u);
  const fatbin::Container& unit = section.fatbinary.containers.back();
  EXPECT_EQ(unit.offset + unit.totalSize, section.bytes.size());
  size_t ptx = 0;
  for (const fatbin::Entry& entry : unit.entries)
    ptx += entry.is(EntryKind::Ptx);
  EXPECT_EQ(ptx, 3u);
}

TEST_F(RealFatbinary, RelocatableUnitsCarryTheirJitOptions) {
  Section section = load("kernels_rdc.fatbin");
  size_t ptx = 0;
  for (const fatbin::Entry* entry : section.entries) {
    if (entry->is(EntryKind::Ptx)) {
      ++ptx;
      EXPECT_EQ(entry->optionsText(), "--compile-only");
      EXPECT_EQ(entry->compression, Compression::Lz4);
      auto text = fatbin::extractPtx(*entry);
      ASSERT_TRUE(text) << text.error().message();
      EXPECT_EQ(entryKernels(*text, entry->archName()), kKernels);
    } else {
      EXPECT_TRUE(entry->is(EntryKind::Cubin));
      EXPECT_NE(entry->compression, Compression::None);
    }
  }
  EXPECT_EQ(ptx, 3u);
}

TEST_F(RealFatbinary, DeviceLinkedProgramListsOneContainerPerUnit) {
  Section section = load("rdc_zstd_program.relfatbin");
  ASSERT_EQ(section.fatbinary.containers.size(), 2u);
  std::set<std::string> kernels;
  for (const fatbin::Container& container : section.fatbinary.containers) {
    std::vector<const fatbin::Entry*> entries;
    for (const fatbin::Entry& entry : container.entries)
      entries.push_back(&entry);
    const fatbin::Entry* ptx = fatbin::selectPtx(entries, {9, 0});
    ASSERT_NE(ptx, nullptr);
    EXPECT_EQ(ptx->archName(), "compute_80");
    auto text = fatbin::extractPtx(*ptx);
    ASSERT_TRUE(text) << text.error().message();
    for (const std::string& kernel : entryKernels(*text, "unit"))
      kernels.insert(kernel);
  }
  EXPECT_EQ(kernels, (std::set<std::string>{"_Z10mainKernelPi", "_Z12helperKernelPi"}));
}

TEST_F(RealFatbinary, DebugEntriesNameTheirSourceAndOptions) {
  Section section = load("kernels_debug.fatbin");
  ASSERT_FALSE(section.entries.empty());
  for (const fatbin::Entry* entry : section.entries) {
    EXPECT_TRUE(entry->debug());
    // The source file as nvcc was given it.
    EXPECT_TRUE(entry->identifier.ends_with("/kernels.cu")) << entry->identifier;
    if (entry->is(EntryKind::Ptx)) {
      EXPECT_NE(entry->optionsText().find("-maxrregcount=32"), std::string_view::npos);
      EXPECT_NE(entry->optionsText().find("-g"), std::string_view::npos);
      auto text = fatbin::extractPtx(*entry);
      ASSERT_TRUE(text) << text.error().message();
      EXPECT_EQ(entryKernels(*text, "debug"), kKernels);
    }
  }
}

TEST_F(RealFatbinary, ArchAndFamilySpecificTargets) {
  Section section = load("kernels_specific.fatbin");
  std::set<std::string> names;
  for (const fatbin::Entry* entry : section.entries)
    names.insert(entry->archName());
  EXPECT_EQ(names, (std::set<std::string>{"sm_90a", "compute_90a", "sm_100f", "compute_100f"}));
  EXPECT_EQ(arch(fatbin::selectPtx(section.entries, {9, 0})), "compute_90a");
  EXPECT_EQ(arch(fatbin::selectPtx(section.entries, {10, 0})), "compute_100f");
  EXPECT_EQ(arch(fatbin::selectPtx(section.entries, {10, 3})), "compute_100f");
  EXPECT_EQ(arch(fatbin::selectPtx(section.entries, {12, 0})), "none");
  EXPECT_EQ(arch(fatbin::selectPtx(section.entries, {8, 9})), "none");
  EXPECT_EQ(arch(fatbin::selectCubin(section.entries, {9, 0})), "sm_90a");
  EXPECT_EQ(arch(fatbin::selectCubin(section.entries, {10, 3})), "sm_100f");
  for (const fatbin::Entry* entry : section.entries) {
    if (!entry->is(EntryKind::Ptx))
      continue;
    auto text = fatbin::extractPtx(*entry);
    ASSERT_TRUE(text) << text.error().message();
    EXPECT_NE(text->find(".target sm_" + entry->archName().substr(8)), std::string::npos);
  }
}

TEST_F(RealFatbinary, LtoIrEntriesAreKeptOpaque) {
  Section section = load("kernels_lto.fatbin");
  ASSERT_EQ(section.entries.size(), 1u);
  const fatbin::Entry& entry = *section.entries.front();
  EXPECT_TRUE(entry.is(EntryKind::LtoIr));
  EXPECT_EQ(fatbin::kindName(entry.kind), "lto-ir");
  EXPECT_EQ(entry.arch, 90u);
  EXPECT_FALSE(entry.payload.empty());
  EXPECT_EQ(fatbin::selectPtx(section.entries, {9, 0}), nullptr);
  EXPECT_EQ(fatbin::selectCubin(section.entries, {9, 0}), nullptr);
}

TEST_F(RealFatbinary, SelectsTheHighestUsablePtxAndTheMatchingCubin) {
  Section section = load("kernels_zstd.fatbin");
  EXPECT_EQ(arch(fatbin::selectPtx(section.entries, {7, 0})), "none");
  EXPECT_EQ(arch(fatbin::selectPtx(section.entries, {7, 5})), "compute_75");
  EXPECT_EQ(arch(fatbin::selectPtx(section.entries, {8, 0})), "compute_80");
  EXPECT_EQ(arch(fatbin::selectPtx(section.entries, {8, 6})), "compute_80");
  EXPECT_EQ(arch(fatbin::selectPtx(section.entries, {9, 0})), "compute_90");
  EXPECT_EQ(arch(fatbin::selectPtx(section.entries, {12, 0})), "compute_90");
  EXPECT_EQ(arch(fatbin::selectCubin(section.entries, {7, 5})), "sm_75");
  EXPECT_EQ(arch(fatbin::selectCubin(section.entries, {8, 6})), "none");
  EXPECT_EQ(arch(fatbin::selectCubin(section.entries, {9, 0})), "sm_90");
  EXPECT_EQ(arch(fatbin::selectCubin(section.entries, {10, 0})), "none");
}

} // namespace
} // namespace ocelot::runtime
