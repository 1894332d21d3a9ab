// Warp-wide instructions whose lanes name different member masks in one execution: cooperative
// groups' labeled_partition gives every label its own mask, and the lanes of all labels then run
// the same redux.sync / match.sync / vote.sync together. Each lane must combine only the lanes of
// its own mask. Also PTX's predefined WARP_SZ.

#include "InstructionTestSupport.h"

#include <algorithm>

namespace ocelot::runtime::cpu::test {
namespace {

class WarpMaskTest : public InstructionTest {};

/// Per-lane inputs: a = a value mixed from the lane, b unused.
std::vector<std::pair<uint64_t, uint64_t>> laneValues() {
  std::vector<std::pair<uint64_t, uint64_t>> values;
  for (uint32_t lane = 0; lane < 32; ++lane)
    values.emplace_back((lane * 2654435761u) >> 7, 0);
  return values;
}

uint32_t laneValue(uint32_t lane) {
  return (lane * 2654435761u) >> 7;
}

// %r3 = the mask of the lanes with the same lane % 3 (match.any.sync over the full warp).
constexpr const char* kThirds = "mov.u32 %r2, %laneid; rem.u32 %r2, %r2, 3; "
                                "match.any.sync.b32 %r3, %r2, -1; ";

uint32_t thirdsMask(uint32_t lane) {
  uint32_t mask = 0;
  for (uint32_t other = 0; other < 32; ++other)
    if (other % 3 == lane % 3)
      mask |= 1u << other;
  return mask;
}

TEST_F(WarpMaskTest, ReduxCombinesEachLanesOwnMemberMask) {
  check(std::string(kThirds) + "redux.sync.max.s32 %r4, %r11, %r3; cvt.s64.s32 %rd10, %r4;",
        laneValues(), [](uint64_t, uint64_t, uint32_t lane) {
          int32_t best = INT32_MIN;
          for (uint32_t other = 0; other < 32; ++other)
            if (other % 3 == lane % 3)
              best = std::max(best, static_cast<int32_t>(laneValue(other)));
          return static_cast<uint64_t>(static_cast<int64_t>(best));
        });
  check(std::string(kThirds) + "redux.sync.add.u32 %r4, %r11, %r3; cvt.u64.u32 %rd10, %r4;",
        laneValues(), [](uint64_t, uint64_t, uint32_t lane) {
          uint32_t sum = 0;
          for (uint32_t other = 0; other < 32; ++other)
            if (other % 3 == lane % 3)
              sum += laneValue(other);
          return uint64_t{sum};
        });
  check(std::string(kThirds) + "redux.sync.xor.b32 %r4, %r11, %r3; cvt.u64.u32 %rd10, %r4;",
        laneValues(), [](uint64_t, uint64_t, uint32_t lane) {
          uint32_t bits = 0;
          for (uint32_t other = 0; other < 32; ++other)
            if (other % 3 == lane % 3)
              bits ^= laneValue(other);
          return uint64_t{bits};
        });
}

// %r3 = the mask of the lane's half warp.
constexpr const char* kHalves = "mov.u32 %r2, %laneid; setp.lt.u32 %p2, %r2, 16; "
                                "selp.b32 %r3, 0x0000ffff, 0xffff0000, %p2; ";

uint32_t halfMask(uint32_t lane) {
  return lane < 16 ? 0x0000ffffu : 0xffff0000u;
}

TEST_F(WarpMaskTest, MatchComparesOnlyTheLanesOfTheMemberMask) {
  check(std::string(kHalves) +
            "and.b32 %r4, %r2, 3; match.any.sync.b32 %r5, %r4, %r3; cvt.u64.u32 %rd10, %r5;",
        laneValues(), [](uint64_t, uint64_t, uint32_t lane) {
          return uint64_t{(0x11111111u << (lane & 3)) & halfMask(lane)};
        });
  // The low half agrees on 7, the high half does not agree.
  check(std::string(kHalves) + "selp.b32 %r4, 7, %r2, %p2; match.all.sync.b32 %r5|%p3, %r4, %r3; "
                               "selp.b32 %r6, 1, 0, %p3; cvt.u64.u32 %rd10, %r5; "
                               "shl.b64 %rd10, %rd10, 1; cvt.u64.u32 %rd13, %r6; "
                               "or.b64 %rd10, %rd10, %rd13;",
        laneValues(), [](uint64_t, uint64_t, uint32_t lane) -> uint64_t {
          return lane < 16 ? (uint64_t{0xffff} << 1) | 1 : 0;
        });
}

TEST_F(WarpMaskTest, VoteCountsOnlyTheLanesOfTheMemberMask) {
  check(std::string(kHalves) + "and.b32 %r4, %r2, 1; setp.eq.u32 %p3, %r4, 1; "
                               "vote.sync.ballot.b32 %r5, %p3, %r3; cvt.u64.u32 %rd10, %r5;",
        laneValues(),
        [](uint64_t, uint64_t, uint32_t lane) { return uint64_t{0xaaaaaaaau & halfMask(lane)}; });
  check(std::string(kHalves) + "setp.lt.u32 %p3, %r2, 20; vote.sync.all.pred %p4, %p3, %r3; "
                               "selp.u64 %rd10, 1, 0, %p4;",
        laneValues(), [](uint64_t, uint64_t, uint32_t lane) { return uint64_t{lane < 16}; });
  check(std::string(kHalves) + "setp.eq.u32 %p3, %r2, 20; vote.sync.any.pred %p4, %p3, %r3; "
                               "selp.u64 %rd10, 1, 0, %p4;",
        laneValues(), [](uint64_t, uint64_t, uint32_t lane) { return uint64_t{lane >= 16}; });
  check(std::string(kHalves) + "setp.lt.u32 %p3, %r2, 8; vote.sync.uni.pred %p4, %p3, %r3; "
                               "selp.u64 %rd10, 1, 0, %p4;",
        laneValues(), [](uint64_t, uint64_t, uint32_t lane) { return uint64_t{lane >= 16}; });
}

TEST_F(WarpMaskTest, MemberMasksInsideDivergentCode) {
  // Only the lanes with an odd value run the partition: activemask gives them, match.any splits
  // them by lane % 3, and each partition reduces over itself.
  check("mov.u32 %r2, %laneid; and.b32 %r7, %r11, 1; setp.eq.u32 %p2, %r7, 0; @%p2 bra DONE; "
        "activemask.b32 %r3; rem.u32 %r4, %r2, 3; match.any.sync.b32 %r5, %r4, %r3; "
        "redux.sync.min.u32 %r6, %r11, %r5; cvt.u64.u32 %rd10, %r6; DONE:",
        laneValues(), [](uint64_t, uint64_t, uint32_t lane) -> uint64_t {
          if ((laneValue(lane) & 1) == 0)
            return 0;
          uint32_t best = UINT32_MAX;
          for (uint32_t other = 0; other < 32; ++other)
            if ((laneValue(other) & 1) && other % 3 == lane % 3)
              best = std::min(best, laneValue(other));
          return best;
        });
  check(std::string(kThirds) + "vote.sync.ballot.b32 %r4, 1, %r3; cvt.u64.u32 %rd10, %r4;",
        laneValues(), [](uint64_t, uint64_t, uint32_t lane) { return uint64_t{thirdsMask(lane)}; });
}

TEST_F(WarpMaskTest, WarpSizeIsThePredefinedConstant) {
  check("mov.u32 %r2, WARP_SZ; add.u32 %r3, %r2, WARP_SZ; cvt.u64.u32 %rd10, %r3;", laneValues(),
        [](uint64_t, uint64_t, uint32_t) { return uint64_t{64}; });
  // A shuffle scan strided by WARP_SZ-derived widths, as reduction kernels write it.
  check("mov.u32 %r2, WARP_SZ; sub.u32 %r2, %r2, 1; mov.u32 %r3, %laneid; and.b32 %r4, %r3, %r2; "
        "cvt.u64.u32 %rd10, %r4;",
        laneValues(), [](uint64_t, uint64_t, uint32_t lane) { return uint64_t{lane}; });
}

} // namespace
} // namespace ocelot::runtime::cpu::test
