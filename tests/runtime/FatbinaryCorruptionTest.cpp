// Corrupt, truncated and hostile fatbinaries: every one must give a clean error naming what is
// wrong and where, never a read outside the buffer (the sanitizer build checks that part), a
// crash, or an unbounded allocation.

#include "FatbinaryBuilder.h"
#include "FatbinaryFuzz.h"
#include "TestFiles.h"
#include "runtime/fatbin/Decompress.h"
#include "runtime/fatbin/Format.h"
#include "runtime/fatbin/Wrapper.h"

#include <gtest/gtest.h>

#include <random>
#include <sstream>

namespace ocelot::runtime::testing {
namespace {

using fatbin::Compression;
namespace entry = fatbin::format::entry;

const std::string kPtx = R"(//
// A small module for the corruption tests.
//
.version 9.0
.target sm_90
.address_size 64

.visible .entry kernel(.param .u64 out)
{
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  ret;
}
)";

/// Three entries: zstd PTX with identifier and options, LZ4 PTX, and an uncompressed "cubin".
Bytes sample() {
  EntrySpec zstd = ptxEntry(kPtx, 90, Compression::Zstd);
  zstd.identifier = "sample.cu";
  zstd.options = "--compile-only";
  EntrySpec lz4 = ptxEntry(kPtx, 80, Compression::Lz4);
  EntrySpec cubin = makeEntry(2, 90,
                              toBytes(std::string("\x7f"
                                                  "ELF-and-some-bytes")),
                              Compression::None);
  return buildContainer({zstd, lz4, cubin});
}

/// Every parsed span must lie inside the buffer, whatever the input.
void expectInside(const Bytes& bytes, const fatbin::Fatbinary& fatbinary) {
  const std::byte* begin = bytes.data();
  const std::byte* end = bytes.data() + bytes.size();
  for (const fatbin::Entry* e : fatbinary.entries()) {
    EXPECT_TRUE(e->payload.empty() ||
                (e->payload.data() >= begin && e->payload.data() + e->payload.size() <= end));
    EXPECT_TRUE(e->options.empty() ||
                (e->options.data() >= begin && e->options.data() + e->options.size() <= end));
  }
}

/// Parses and, when that works, decompresses every entry with small limits. Returns the parse
/// error message ("" when it parsed).
std::string exercise(const Bytes& bytes) {
  auto parsed = fatbin::parseFatbinary(bytes);
  if (!parsed) {
    EXPECT_LE(parsed.error().offset, bytes.size());
    EXPECT_FALSE(parsed.error().what.empty());
    return parsed.error().message();
  }
  expectInside(bytes, *parsed);
  fatbin::DecompressionLimits limits{uint64_t{1} << 20};
  for (const fatbin::Entry* e : parsed->entries())
    (void)fatbin::decompressPayload(*e, limits);
  return "";
}

std::string parseError(const Bytes& bytes) {
  auto parsed = fatbin::parseFatbinary(bytes);
  return parsed ? "" : parsed.error().message();
}

TEST(FatbinaryCorruption, TheSampleIsValid) {
  Bytes bytes = sample();
  auto parsed = fatbin::parseFatbinary(bytes);
  ASSERT_TRUE(parsed) << parsed.error().message();
  auto entries = parsed->entries();
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[0]->identifier, "sample.cu");
  EXPECT_EQ(entries[0]->optionsText(), "--compile-only");
  EXPECT_EQ(entries[0]->compression, Compression::Zstd);
  EXPECT_EQ(entries[1]->compression, Compression::Lz4);
  for (int i = 0; i < 2; ++i) {
    auto text = fatbin::extractPtx(*entries[i]);
    ASSERT_TRUE(text) << text.error().message();
    EXPECT_EQ(*text, kPtx);
  }
}

TEST(FatbinaryCorruption, EveryTruncationIsAnError) {
  Bytes bytes = sample();
  for (size_t length = 0; length < bytes.size(); ++length) {
    Bytes truncated(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(length));
    // Cutting inside the trailing zero padding of the last payload leaves the container size
    // pointing past the end, so every proper prefix is an error.
    EXPECT_NE(exercise(truncated), "") << "truncated to " << length << " bytes";
  }
}

TEST(FatbinaryCorruption, TruncatedRealFatbinariesAreErrors) {
  if (!havePrograms())
    GTEST_SKIP() << "nvcc was not found at configure time";
  for (const char* file : {"kernels_zstd.fatbin", "kernels_rdc.fatbin", "kernels_debug.fatbin"}) {
    Bytes bytes = readBytes(programsDir() / file);
    auto parsed = fatbin::parseFatbinary(bytes);
    ASSERT_TRUE(parsed) << file;
    // Sections may end in alignment padding; cutting only that leaves a valid fatbinary.
    const fatbin::Container& last = parsed->containers.back();
    size_t end = static_cast<size_t>(last.offset + last.totalSize);
    for (size_t length = 0; length < end; ++length) {
      Bytes truncated(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(length));
      ASSERT_NE(exercise(truncated), "") << file << " truncated to " << length;
    }
  }
}

TEST(FatbinaryCorruption, BitFlipsInHeadersNeverEscapeTheBuffer) {
  Bytes bytes = sample();
  auto parsed = fatbin::parseFatbinary(bytes);
  ASSERT_TRUE(parsed);
  // The container header and every entry header, bit by bit.
  std::vector<std::pair<size_t, size_t>> headers = {{0, 16}};
  for (const fatbin::Entry* e : parsed->entries())
    headers.emplace_back(e->offset, e->headerSize);
  size_t flips = 0;
  for (auto [offset, size] : headers)
    for (size_t byte = offset; byte < offset + size; ++byte)
      for (int bit = 0; bit < 8; ++bit) {
        Bytes flipped = bytes;
        flipped[byte] ^= static_cast<std::byte>(1 << bit);
        exercise(flipped);
        ++flips;
      }
  EXPECT_GT(flips, 1000u);
}

TEST(FatbinaryCorruption, CorruptCompressedPayloadsAreErrors) {
  Bytes bytes = sample();
  auto parsed = fatbin::parseFatbinary(bytes);
  ASSERT_TRUE(parsed);
  for (int index : {0, 1}) {
    const fatbin::Entry& e = *parsed->entries()[static_cast<size_t>(index)];
    size_t payload = static_cast<size_t>(e.offset) + e.headerSize;
    for (size_t i = 0; i < e.payload.size(); ++i) {
      Bytes corrupt = bytes;
      corrupt[payload + i] ^= std::byte{0x5A};
      auto reparsed = fatbin::parseFatbinary(corrupt);
      ASSERT_TRUE(reparsed); // headers are intact
      const fatbin::Entry& changed = *reparsed->entries()[static_cast<size_t>(index)];
      // A changed literal can still decompress, but never to another size than declared.
      auto image = fatbin::decompressPayload(changed);
      if (image) {
        EXPECT_EQ(image->size(), changed.uncompressedSize);
      }
    }
  }
}

TEST(FatbinaryCorruption, LyingContainerSizes) {
  Bytes good = sample();
  auto withSize = [&](uint64_t size) {
    Bytes bytes = good;
    put64(bytes, 8, size);
    return parseError(bytes);
  };
  EXPECT_NE(withSize(good.size() - 16 + 1).find("container size"), std::string::npos);
  EXPECT_NE(withSize(~uint64_t{0}).find("runs past the end"), std::string::npos);
  EXPECT_NE(withSize(uint64_t{1} << 63).find("(at offset 0x8)"), std::string::npos);
  EXPECT_NE(withSize(good.size() - 16 - 8).find("entry"), std::string::npos);

  for (uint16_t headerSize : {0, 8, 15}) {
    Bytes bytes = good;
    put16(bytes, 6, headerSize);
    EXPECT_NE(parseError(bytes).find("container header size"), std::string::npos);
  }
  Bytes bytes = good;
  put16(bytes, 6, 0xFFFF);
  EXPECT_NE(parseError(bytes).find("container"), std::string::npos);
  bytes = good;
  put16(bytes, 4, 2);
  EXPECT_NE(parseError(bytes).find("unsupported container version 2"), std::string::npos);
  bytes = good;
  put32(bytes, 0, 0xDEADBEEF);
  EXPECT_NE(parseError(bytes).find("bad container magic 0xdeadbeef"), std::string::npos);
}

TEST(FatbinaryCorruption, LyingEntrySizes) {
  const Bytes good = sample();
  const size_t at = kFirstEntry;
  auto patched32 = [&](size_t field, uint32_t value) {
    Bytes bytes = good;
    put32(bytes, at + field, value);
    return parseError(bytes);
  };
  auto patched64 = [&](size_t field, uint64_t value) {
    Bytes bytes = good;
    put64(bytes, at + field, value);
    return parseError(bytes);
  };
  EXPECT_NE(patched32(entry::kHeaderSize, 0).find("below"), std::string::npos);
  EXPECT_NE(patched32(entry::kHeaderSize, 0x3F).find("below"), std::string::npos);
  EXPECT_NE(patched32(entry::kHeaderSize, 0xFFFFFFFF).find("runs past"), std::string::npos);
  EXPECT_NE(patched64(entry::kPayloadSize, ~uint64_t{0}).find("payload size"), std::string::npos);
  EXPECT_NE(patched64(entry::kPayloadSize, good.size()).find("payload size"), std::string::npos);
  EXPECT_NE(patched32(entry::kCompressedSize, 0).find("compressed size 0"), std::string::npos);
  EXPECT_NE(patched32(entry::kCompressedSize, 0xFFFFFF).find("does not fit"), std::string::npos);
  EXPECT_NE(patched64(entry::kUncompressedSize, 0).find("uncompressed size of 0"),
            std::string::npos);
  EXPECT_NE(patched32(entry::kIdentifierOffset, 0xFFFFFFF0).find("identifier"), std::string::npos);
  EXPECT_NE(patched32(entry::kIdentifierSize, 0x1000).find("identifier"), std::string::npos);
  EXPECT_NE(patched32(entry::kOptionsDescriptor, 0x7FFFFFFF).find("options descriptor"),
            std::string::npos);
  EXPECT_NE(patched64(entry::kFlags, 0x11 | 0x2000 | 0x8000).find("both"), std::string::npos);
  // The error names the offset of the field that lies.
  EXPECT_NE(patched64(entry::kPayloadSize, ~uint64_t{0}).find("(at offset 0x18)"),
            std::string::npos);
}

TEST(FatbinaryCorruption, OptionsOutsideTheHeader) {
  Bytes bytes = sample();
  auto parsed = fatbin::parseFatbinary(bytes);
  ASSERT_TRUE(parsed);
  const fatbin::Entry& first = *parsed->entries().front();
  uint32_t descriptor = 0;
  for (int i = 0; i < 4; ++i)
    descriptor |= static_cast<uint32_t>(bytes[kFirstEntry + entry::kOptionsDescriptor + i])
                  << (8 * i);
  put32(bytes, kFirstEntry + descriptor + 4, first.headerSize); // options size = header size
  EXPECT_NE(parseError(bytes).find("options lie outside"), std::string::npos);
}

TEST(FatbinaryCorruption, ZeroSizes) {
  EXPECT_NE(parseError({}).find("no fatbinary container"), std::string::npos);
  EXPECT_NE(parseError(Bytes(64)).find("no fatbinary container"), std::string::npos);
  Bytes empty = buildContainer({});
  auto parsed = fatbin::parseFatbinary(empty);
  ASSERT_TRUE(parsed) << parsed.error().message();
  EXPECT_TRUE(parsed->entries().empty());

  Bytes emptyPtx = buildContainer({makeEntry(1, 90, {}, Compression::None)});
  auto withEmptyEntry = fatbin::parseFatbinary(emptyPtx);
  ASSERT_TRUE(withEmptyEntry) << withEmptyEntry.error().message();
  auto text = fatbin::extractPtx(*withEmptyEntry->entries().front());
  ASSERT_TRUE(text);
  EXPECT_EQ(*text, "");
}

TEST(FatbinaryCorruption, DeclaredSizesMustMatchTheDecompressedData) {
  for (Compression compression : {Compression::Zstd, Compression::Lz4}) {
    for (int64_t delta : {-1, 1, 1000}) {
      EntrySpec spec = ptxEntry(kPtx, 90, compression);
      spec.uncompressedSize =
          static_cast<uint64_t>(static_cast<int64_t>(spec.uncompressedSize) + delta);
      Bytes bytes = buildContainer({spec});
      auto parsed = fatbin::parseFatbinary(bytes);
      ASSERT_TRUE(parsed) << parsed.error().message();
      auto text = fatbin::extractPtx(*parsed->entries().front());
      EXPECT_FALSE(text) << fatbin::compressionName(compression) << " " << delta;
    }
  }
}

TEST(FatbinaryCorruption, DecompressionBombsAreBounded) {
  const Bytes zeros(64u << 20); // 64 MiB that compress to almost nothing
  for (Compression compression : {Compression::Zstd, Compression::Lz4}) {
    EntrySpec spec = makeEntry(1, 90, zeros, compression);
    ASSERT_LT(spec.stored.size(), 1u << 20);
    Bytes bytes = buildContainer({spec});
    auto parsed = fatbin::parseFatbinary(bytes);
    ASSERT_TRUE(parsed) << parsed.error().message();
    const fatbin::Entry& e = *parsed->entries().front();

    // Honest about its size but above the limit: refused before anything is allocated.
    auto refused = fatbin::decompressPayload(e, {uint64_t{1} << 20});
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message().find("exceeds the limit"), std::string::npos);

    // Lying about its size: decompression stops at the declared size.
    Bytes lying = bytes;
    put64(lying, kFirstEntry + entry::kUncompressedSize, 4096);
    auto small = fatbin::parseFatbinary(lying);
    ASSERT_TRUE(small);
    EXPECT_FALSE(fatbin::decompressPayload(*small->entries().front()));

    // An absurd declaration is refused with the default limits.
    put64(lying, kFirstEntry + entry::kUncompressedSize, uint64_t{1} << 62);
    auto huge = fatbin::parseFatbinary(lying);
    ASSERT_TRUE(huge);
    auto hugeResult = fatbin::decompressPayload(*huge->entries().front());
    ASSERT_FALSE(hugeResult);
    EXPECT_NE(hugeResult.error().message().find("exceeds the limit"), std::string::npos);
  }
}

TEST(FatbinaryCorruption, PaddingBetweenAndAfterContainers) {
  Bytes first = sample();
  Bytes second = buildContainer({ptxEntry(kPtx, 75)});
  Bytes section = first;
  section.insert(section.end(), 24, std::byte{0});
  section.insert(section.end(), second.begin(), second.end());
  section.insert(section.end(), 5, std::byte{0});
  auto parsed = fatbin::parseFatbinary(section);
  ASSERT_TRUE(parsed) << parsed.error().message();
  ASSERT_EQ(parsed->containers.size(), 2u);
  EXPECT_EQ(parsed->containers[1].offset, first.size() + 24);
  EXPECT_EQ(parsed->entries().size(), 4u);

  // Anything but padding after a container must be the next container.
  size_t end = section.size();
  section.push_back(std::byte{0x42});
  std::string error = parseError(section);
  EXPECT_NE(error.find("container header truncated"), std::string::npos) << error;
  section.insert(section.end(), 15, std::byte{0x42});
  error = parseError(section);
  EXPECT_NE(error.find("bad container magic 0x42424242"), std::string::npos) << error;
  std::ostringstream where;
  where << "(at offset 0x" << std::hex << end << ")";
  EXPECT_NE(error.find(where.str()), std::string::npos) << error;
}

TEST(FatbinaryCorruption, GarbageIsRejected) {
  std::mt19937 random(1234);
  for (size_t size : {1u, 15u, 16u, 17u, 64u, 100u, 4096u}) {
    for (int round = 0; round < 50; ++round) {
      Bytes garbage(size);
      for (std::byte& b : garbage)
        b = static_cast<std::byte>(random());
      EXPECT_NE(exercise(garbage), "");
      // Garbage behind a valid magic and a plausible header is no better.
      if (size >= 16) {
        put32(garbage, 0, fatbin::format::kContainerMagic);
        put16(garbage, 4, 1);
        put16(garbage, 6, 16);
        put64(garbage, 8, size - 16);
        exercise(garbage);
      }
    }
  }
}

TEST(RegistrationWrapper, Decodes) {
  Bytes bytes(24);
  put32(bytes, 0, fatbin::format::kWrapperMagic);
  put32(bytes, 4, 2);
  put64(bytes, 8, 0x1000);
  put64(bytes, 16, 0x2000);
  auto wrapper = fatbin::decodeWrapper(bytes);
  ASSERT_TRUE(wrapper) << wrapper.error().message();
  EXPECT_TRUE(wrapper->linked());
  EXPECT_EQ(wrapper->data, 0x1000u);
  EXPECT_EQ(wrapper->prelinkedFatbins, 0x2000u);

  Bytes versionThree = bytes;
  put32(versionThree, 4, 3);
  EXPECT_FALSE(fatbin::decodeWrapper(versionThree));
  Bytes noData = bytes;
  put64(noData, 8, 0);
  EXPECT_FALSE(fatbin::decodeWrapper(noData));
  Bytes badMagic = bytes;
  put32(badMagic, 0, fatbin::format::kContainerMagic);
  EXPECT_FALSE(fatbin::decodeWrapper(badMagic));
  EXPECT_FALSE(fatbin::decodeWrapper(Bytes(bytes.begin(), bytes.begin() + 23)));
}

TEST(FatbinaryFuzz, SurvivesMutationsOfRealAndSyntheticFatbinaries) {
  std::vector<Bytes> seeds = {sample()};
  if (havePrograms())
    for (const char* file : {"kernels_zstd.fatbin", "kernels_lz4.fatbin", "kernels_rdc.fatbin",
                             "kernels_zstd_program.fatbin"})
      seeds.push_back(readBytes(programsDir() / file));
  std::mt19937 random(42);
  for (const Bytes& seed : seeds) {
    auto* data = reinterpret_cast<const uint8_t*>(seed.data());
    EXPECT_EQ(fuzzFatbinary(data, seed.size()), 0);
    for (int round = 0; round < 300; ++round) {
      Bytes mutated = seed;
      int changes = 1 + static_cast<int>(random() % 8);
      for (int i = 0; i < changes; ++i) {
        // Mostly headers (the first bytes of the entries), sometimes anywhere.
        size_t limit = random() % 4 == 0 ? mutated.size() : std::min<size_t>(mutated.size(), 512);
        mutated[random() % limit] = static_cast<std::byte>(random());
      }
      EXPECT_EQ(fuzzFatbinary(reinterpret_cast<const uint8_t*>(mutated.data()), mutated.size()), 0);
    }
  }
}

} // namespace
} // namespace ocelot::runtime::testing
