// The result ring instrumented launches' results land in (runtime/instrumentation/ResultRing.h):
// chunks taken in ring order and given back in any order, no chunk across the end, no room while
// the oldest chunk still out bounds it, read back into the host mirror and zeroed again.

#include "runtime/instrumentation/ResultRing.h"

#include "../runtime/FakePlatform.h"

#include <gtest/gtest.h>

#include <cstring>

namespace ocelot::runtime::testing {
namespace {

using instrumentation::ResultRing;

class ResultRingTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(device.streams().create(cudaStreamNonBlocking, 0, &stream), cudaSuccess);
    ASSERT_EQ(ResultRing::create(device, *stream, 4096, &ring), cudaSuccess);
    ASSERT_NE(ring, nullptr);
  }

  FakeDevice device;
  Stream* stream = nullptr;
  std::unique_ptr<ResultRing> ring;
};

TEST_F(ResultRingTest, ChunksAreAlignedZeroedAndTakenInRingOrder) {
  auto a = ring->take(10);
  auto b = ring->take(300);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->bytes, ResultRing::kAlignment);
  EXPECT_EQ(b->bytes, 2 * ResultRing::kAlignment);
  EXPECT_EQ(static_cast<std::byte*>(ring->device(*b)) - static_cast<std::byte*>(ring->device(*a)),
            static_cast<ptrdiff_t>(ResultRing::kAlignment));
  const auto* bytes = static_cast<const unsigned char*>(ring->device(*b));
  for (uint64_t i = 0; i < b->bytes; ++i)
    ASSERT_EQ(bytes[i], 0u);
}

TEST_F(ResultRingTest, NoRoomUntilTheOldestChunkIsGivenBack) {
  auto first = ring->take(1024);
  auto second = ring->take(2048);
  auto third = ring->take(1024);
  ASSERT_TRUE(first && second && third);
  EXPECT_FALSE(ring->take(256)); // full
  ring->give(*second);           // out of order: the oldest still bounds the space
  EXPECT_FALSE(ring->take(256));
  EXPECT_EQ(ring->outstanding(), 3u);
  ring->give(*first);
  EXPECT_EQ(ring->outstanding(), 1u); // first and second are free again
  auto fourth = ring->take(3072);
  ASSERT_TRUE(fourth);
  // It starts at the ring's beginning again, where the first chunk was.
  EXPECT_EQ(ring->device(*fourth), ring->device(*first));
  EXPECT_FALSE(ring->take(256));
  ring->give(*third);
  ring->give(*fourth);
  EXPECT_EQ(ring->outstanding(), 0u);
  EXPECT_FALSE(ring->take(8192)); // larger than the ring
  EXPECT_TRUE(ring->take(4096));
}

TEST_F(ResultRingTest, AChunkNeverCrossesTheEnd) {
  auto a = ring->take(3072);
  ASSERT_TRUE(a);
  ring->give(*a);
  // 1024 bytes remain before the end: a 2048-byte chunk starts over at the beginning.
  auto b = ring->take(2048);
  ASSERT_TRUE(b);
  EXPECT_EQ(ring->device(*b), ring->device(*a));
  EXPECT_EQ(b->position % ring->capacity(), 0u);
}

TEST_F(ResultRingTest, ReadBackCopiesIntoTheMirrorAndZeroesTheDevice) {
  auto chunk = ring->take(256);
  ASSERT_TRUE(chunk);
  std::memset(ring->device(*chunk), 0x5a, chunk->bytes); // what a kernel wrote
  ASSERT_EQ(ring->readBack(*chunk, *stream), cudaSuccess);
  ASSERT_EQ(stream->synchronize(), cudaSuccess);
  for (uint64_t i = 0; i < chunk->bytes; ++i) {
    ASSERT_EQ(static_cast<unsigned char>(ring->host(*chunk)[i]), 0x5au);
    ASSERT_EQ(static_cast<const unsigned char*>(ring->device(*chunk))[i], 0u);
  }
}

TEST_F(ResultRingTest, APoisonedRingGivesNothing) {
  ring->poison();
  EXPECT_FALSE(ring->take(256));
}

TEST_F(ResultRingTest, ManyChunksInFlightGrowTheListInOrder) {
  std::vector<ResultRing::Chunk> chunks;
  for (int i = 0; i < 16; ++i) {
    auto chunk = ring->take(256);
    ASSERT_TRUE(chunk) << i;
    chunks.push_back(*chunk);
  }
  EXPECT_FALSE(ring->take(256));
  for (int i = 15; i >= 0; --i)
    ring->give(chunks[static_cast<size_t>(i)]); // newest first
  EXPECT_EQ(ring->outstanding(), 0u);
  for (int round = 0; round < 200; ++round) { // around the ring many times
    auto chunk = ring->take(768);
    ASSERT_TRUE(chunk) << round;
    ring->give(*chunk);
  }
}

} // namespace
} // namespace ocelot::runtime::testing
