#include "tests/support/ElfSections.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace ocelot::test {
namespace {

// Builds a small ELF64 image: header, section contents, the name table, and the section header
// table last, so that every proper prefix of the image cuts the header table.
class ElfBuilder {
public:
  struct Section {
    std::string name;
    uint32_t type;
    std::vector<uint8_t> bytes;
    uint64_t nobitsSize = 0;
  };

  void add(std::string name, uint32_t type, std::vector<uint8_t> bytes, uint64_t nobitsSize = 0) {
    sections_.push_back(Section{std::move(name), type, std::move(bytes), nobitsSize});
  }

  std::vector<uint8_t> build(uint16_t type = 2) const {
    std::vector<uint8_t> image(64, 0);
    std::vector<uint8_t> names(1, 0); // offset 0: the empty name of section 0
    struct Header {
      uint32_t name, type;
      uint64_t offset, size;
    };
    std::vector<Header> headers;
    headers.push_back(Header{0, 0, 0, 0});
    for (const auto& s : sections_) {
      uint32_t nameOffset = static_cast<uint32_t>(names.size());
      names.insert(names.end(), s.name.begin(), s.name.end());
      names.push_back(0);
      uint64_t offset = image.size();
      image.insert(image.end(), s.bytes.begin(), s.bytes.end());
      headers.push_back(
          Header{nameOffset, s.type, offset, s.type == 8 ? s.nobitsSize : s.bytes.size()});
    }
    uint32_t shstrtabName = static_cast<uint32_t>(names.size());
    const char* shstrtab = ".shstrtab";
    names.insert(names.end(), shstrtab, shstrtab + std::strlen(shstrtab) + 1);
    headers.push_back(Header{shstrtabName, 3, image.size(), names.size()});
    image.insert(image.end(), names.begin(), names.end());
    uint64_t shoff = image.size();
    for (const auto& h : headers) {
      std::vector<uint8_t> entry(64, 0);
      put(entry, 0x00, h.name, 4);
      put(entry, 0x04, h.type, 4);
      put(entry, 0x18, h.offset, 8);
      put(entry, 0x20, h.size, 8);
      image.insert(image.end(), entry.begin(), entry.end());
    }
    std::memcpy(image.data(),
                "\x7f"
                "ELF",
                4);
    image[4] = 2; // ELFCLASS64
    image[5] = 1; // little-endian
    image[6] = 1;
    put(image, 0x10, type, 2);
    put(image, 0x28, shoff, 8);
    put(image, 0x34, 64, 2);
    put(image, 0x3A, 64, 2);
    put(image, 0x3C, headers.size(), 2);
    put(image, 0x3E, headers.size() - 1, 2);
    return image;
  }

  static void put(std::vector<uint8_t>& image, size_t at, uint64_t value, size_t bytes) {
    for (size_t i = 0; i < bytes; ++i)
      image[at + i] = static_cast<uint8_t>(value >> (8 * i));
  }

private:
  std::vector<Section> sections_;
};

ElfBuilder sample() {
  ElfBuilder b;
  b.add(".text.kernel", 1, {0x01, 0x02, 0x03, 0x04});
  b.add(".nv.shared.kernel", 8, {}, 4096);
  b.add(".nv_debug_ptx_txt", 1, {'a', 'd', 'd', ';'});
  b.add(".nv.info", 0x70000000, {9, 8, 7});
  return b;
}

TEST(ElfSections, ReadsSectionsByName) {
  std::vector<uint8_t> image = sample().build();
  ElfReadResult result = parseElf(image);
  ASSERT_TRUE(result.ok()) << result.error;
  const ElfFile& file = *result.file;
  EXPECT_EQ(file.type, ElfFile::kExecutable);
  EXPECT_FALSE(file.isRelocatable());
  ASSERT_EQ(file.sections.size(), 6u); // "", four sections, .shstrtab
  EXPECT_EQ(file.sections.at(".text.kernel"), (std::vector<uint8_t>{1, 2, 3, 4}));
  EXPECT_EQ(file.sections.at(".nv.info"), (std::vector<uint8_t>{9, 8, 7}));
  // SHT_NOBITS occupies no file bytes even though its size is 4096.
  EXPECT_TRUE(file.sections.at(".nv.shared.kernel").empty());
}

TEST(ElfSections, RecognisesRelocatableObjects) {
  ElfReadResult result = parseElf(sample().build(ElfFile::kRelocatable));
  ASSERT_TRUE(result.ok()) << result.error;
  EXPECT_TRUE(result.file->isRelocatable());
}

TEST(ElfSections, DuplicateNamesAreKeptApart) {
  ElfBuilder b;
  b.add(".rel.text", 9, {1});
  b.add(".rel.text", 9, {2});
  ElfReadResult result = parseElf(b.build());
  ASSERT_TRUE(result.ok()) << result.error;
  EXPECT_EQ(result.file->sections.at(".rel.text"), std::vector<uint8_t>{1});
  EXPECT_EQ(result.file->sections.at(".rel.text#2"), std::vector<uint8_t>{2});
}

TEST(ElfSections, EveryTruncationIsAnErrorNotACrash) {
  std::vector<uint8_t> image = sample().build();
  for (size_t length = 0; length < image.size(); ++length) {
    ElfReadResult result = parseElf(std::span<const uint8_t>(image.data(), length));
    EXPECT_FALSE(result.ok()) << "prefix of " << length << " bytes parsed";
    EXPECT_FALSE(result.error.empty());
  }
}

TEST(ElfSections, RejectsInconsistentHeaders) {
  const std::vector<uint8_t> good = sample().build();
  auto corrupt = [&](size_t at, uint64_t value, size_t bytes) {
    std::vector<uint8_t> image = good;
    ElfBuilder::put(image, at, value, bytes);
    return parseElf(image);
  };
  EXPECT_EQ(corrupt(0, 0x464c457e, 4).error, "not an ELF file");
  EXPECT_EQ(corrupt(4, 1, 1).error, "not a 64-bit ELF file");
  EXPECT_EQ(corrupt(5, 2, 1).error, "not a little-endian ELF file");
  EXPECT_FALSE(corrupt(0x28, ~uint64_t{0} - 8, 8).ok()); // e_shoff near 2^64: no overflow
  EXPECT_FALSE(corrupt(0x3A, 16, 2).ok());               // e_shentsize too small
  EXPECT_FALSE(corrupt(0x3C, 0xfffe, 2).ok());           // more sections than bytes
  EXPECT_FALSE(corrupt(0x3E, 0xfff0, 2).ok());           // name table index out of range

  // A section whose contents lie past the end of the file, and one whose name is out of range.
  uint64_t shoff = 0;
  for (size_t i = 0; i < 8; ++i)
    shoff |= static_cast<uint64_t>(good[0x28 + i]) << (8 * i);
  EXPECT_FALSE(corrupt(shoff + 64 + 0x18, good.size() - 2, 8).ok());
  EXPECT_FALSE(corrupt(shoff + 64 + 0x20, ~uint64_t{0}, 8).ok());
  EXPECT_FALSE(corrupt(shoff + 64, 0x7fffffff, 4).ok());
}

TEST(ElfSections, UnterminatedNameIsAnError) {
  std::vector<uint8_t> image = sample().build();
  // The name table is the last section before the header table and ends with ".shstrtab\0":
  // overwrite that NUL so the last name runs off the end of the table.
  uint64_t shoff = 0;
  for (size_t i = 0; i < 8; ++i)
    shoff |= static_cast<uint64_t>(image[0x28 + i]) << (8 * i);
  image[shoff - 1] = 'x';
  ElfReadResult result = parseElf(image);
  EXPECT_FALSE(result.ok());
  EXPECT_NE(result.error.find("unterminated"), std::string::npos) << result.error;
}

TEST(ElfSections, ReportsMissingFiles) {
  ElfReadResult result = readElf("/nonexistent/ocelot/cubin");
  EXPECT_FALSE(result.ok());
  EXPECT_NE(result.error.find("/nonexistent/ocelot/cubin"), std::string::npos);
}

TEST(ElfSections, DifferingSectionsNamesChangedAddedAndRemoved) {
  ElfBuilder a = sample();
  ElfBuilder b;
  b.add(".text.kernel", 1, {0x01, 0x02, 0x03, 0x05}); // changed
  b.add(".nv.shared.kernel", 8, {}, 4096);            // same
  b.add(".nv_debug_ptx_txt", 1, {'a', 'd', 'd', ' ', ';'});
  b.add(".nv.extra", 1, {1}); // only in b; .nv.info only in a
  ElfReadResult ra = parseElf(a.build()), rb = parseElf(b.build());
  ASSERT_TRUE(ra.ok() && rb.ok());
  auto ignoreText = [](std::string_view name) { return name == ".nv_debug_ptx_txt"; };
  EXPECT_EQ(differingSections(*ra.file, *rb.file, ignoreText),
            (std::vector<std::string>{".nv.extra", ".nv.info", ".shstrtab", ".text.kernel"}));
  EXPECT_TRUE(differingSections(*ra.file, *ra.file, ignoreText).empty());
}

} // namespace
} // namespace ocelot::test
