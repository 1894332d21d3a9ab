// memaccess: how well each memory instruction's accesses are coalesced (docs/probe-tools.md).
//
// Before every global or generic load, store and atomic, the warp works out together which
// 32-byte sectors and 128-byte lines its active lanes touch, and its first active lane adds the
// distinct sectors and the distinct lines to the instruction's counters. Before every
// shared-memory access it works out the bank conflict: the most distinct 4-byte words one of the
// 32 banks must serve (1 = conflict-free, 32 = fully serialized). Local memory is counted in the
// hardware's layout: consecutive 4-byte words of one thread's offsets lie 128 bytes apart, with
// the 32 lanes' copies of a word side by side between them. The requests (warps) and the lanes
// come from block counts where every lane that enters the instruction's block executes it.
#include "ocelot/probe.cuh"

using namespace ocelot::probe;

OCELOT_BLOCK_COUNTS(warpEntries, "warps");
OCELOT_BLOCK_COUNTS(laneEntries, "lanes");
// Per instruction; 8 stripes (by %ctaid.x) spread the atomics of a hot instruction. Each counter
// has a fixed index at its site, so that Ocelot keeps it in a register in loops.
OCELOT_COUNTERS(sectors, unsigned long long, "per=instruction; stripes=8");
OCELOT_COUNTERS(lines, unsigned long long, "per=instruction; stripes=8");
// Shared accesses: wavefronts beyond the first of each request (0 without a bank conflict).
OCELOT_COUNTERS(extraWavefronts, unsigned long long, "per=instruction; stripes=8");
// Only where the block entries do not give them: guarded instructions (`@%p ld`) and those after
// a call in their block (a callee may exit lanes).
OCELOT_COUNTERS(requests, unsigned long long, "per=instruction; stripes=8");
OCELOT_COUNTERS(lanes, unsigned long long, "per=instruction; stripes=8");

__device__ __forceinline__ void count(Counters<unsigned long long> counter, u32 value) {
  atomicAdd(counter.element(counter.here()), (u64)value);
}

// The number of distinct values `key` takes over the active lanes: each group of lanes with the
// same key counts once, at its lowest lane.
__device__ __forceinline__ u32 distinct(u32 active, u64 key) {
  u32 same = __match_any_sync(active, key);
  bool first = laneId() == u32(__ffs(same) - 1);
  return __popc(__ballot_sync(active, first));
}

// Most accesses index an array by the thread id: active lanes that are contiguous (a full warp,
// or the tail of a loop `for (j = tid; j < n; ...)`) and whose addresses step by one stride (lane
// lo + i at first + i * stride). Their distinct granules follow from that alone, with two shuffles
// and a vote, where distinct() does a match over up to 32 keys (the dear part of this tool in
// loops). Exact: the check is on every active lane's own address.
struct Affine {
  bool holds;
  u32 lanes;     // active lanes, contiguous
  u64 magnitude; // |stride|, below 2^32
  u64 low, high; // the lowest and the highest address
};

// Whether `active` is one run of contiguous lanes (uniform over the warp).
__device__ __forceinline__ bool contiguous(u32 active) {
  u32 run = active >> (__ffs(active) - 1);
  return (run & (run + 1)) == 0;
}

__device__ __forceinline__ Affine affine(u32 active, u64 a) {
  Affine f{false, 0, 0, 0, 0};
  if (!contiguous(active))
    return f;
  u32 lo = __ffs(active) - 1;
  f.lanes = __popc(active);
  u64 first = __shfl_sync(active, a, lo);
  u64 step = __shfl_sync(active, a, f.lanes > 1 ? lo + 1 : lo) - first;
  bool down = (long long)step < 0;
  f.magnitude = down ? 0 - step : step;
  // Unsigned arithmetic, modulo 2^64: with a stride below 2^32 and no wrap past 0 or 2^64 between
  // the first and the last lane, the lanes' addresses are in order.
  u64 span = f.magnitude * (f.lanes - 1);
  bool inRange = f.magnitude < (1ull << 32) && (down ? first >= span : first + span >= first);
  f.low = down ? first - span : first;
  f.high = down ? first : first + span;
  f.holds = __all_sync(active, a - first == step * (laneId() - lo) && inRange);
  return f;
}

// The distinct granules of 2^shift bytes that the affine lanes' start addresses lie in: at a
// stride of a granule or more every lane has its own; below, consecutive lanes are less than a
// granule apart, so every granule from the lowest address's to the highest's holds one.
__device__ __forceinline__ u32 affineDistinct(const Affine& f, u32 shift) {
  if (f.magnitude >= (1ull << shift))
    return f.lanes;
  return u32((f.high >> shift) - (f.low >> shift)) + 1;
}

// The warp's request, once, by its first active lane. blockEntriesReach() and guarded() are
// constants at each site: where the block entries give the request and its lanes, no code counts
// them.
__device__ __forceinline__ void addRequest(u32 active) {
  if (!blockEntriesReach() || guarded()) {
    atomicAdd(requests.element(requests.here()), 1ull);
    atomicAdd(lanes.element(lanes.here()), (u64)__popc(active));
  }
}

OCELOT_PROBE(coalescing, "at=instruction; class=memory; space=global,generic") {
  u32 active = activeMask();
  u64 a = address();
  // Accesses are naturally aligned: a lane's bytes lie in one sector when it reads at most 32 of
  // them, and cover whole sectors otherwise (ld.v8.f32 and wider).
  u32 size = accessSize();
  u32 perLane = size > 32 ? size / 32 : 1;
  Affine f = affine(active, a);
  u32 sectorCount = (f.holds ? affineDistinct(f, 5) : distinct(active, a >> 5)) * perLane;
  u32 lineCount =
      (f.holds ? affineDistinct(f, 7) : distinct(active, a >> 7)) * (size > 128 ? size / 128 : 1);
  if (isLeader()) {
    addRequest(active);
    count(sectors, sectorCount);
    count(lines, lineCount);
  }
}

OCELOT_PROBE(bankConflicts, "at=instruction; class=memory; space=shared") {
  u32 active = activeMask();
  u32 word = u32(address() >> 2); // shared-window offsets: below 2^32
  u32 most = 0;
  // Contiguous lanes at a word stride k (lane lo + i at first word w0 + i * k): k = 0 is one word
  // (a broadcast); else the words are distinct (|k| < 2^26: no two meet modulo 2^32), and lanes i
  // and j share a bank when (i - j) * k is a multiple of 32, i.e. i - j of 32 / gcd(k, 32): the
  // fullest bank holds ceil(lanes / (32 / gcd(k, 32))). Two shuffles and a vote, no match.
  bool affineWords = false;
  u32 k = 0, n = __popc(active);
  if (contiguous(active)) { // uniform over the warp
    u32 lo = __ffs(active) - 1;
    u32 first = __shfl_sync(active, word, lo);
    k = __shfl_sync(active, word, n > 1 ? lo + 1 : lo) - first;
    u32 magnitude = int(k) < 0 ? 0u - k : k;
    affineWords = __all_sync(active, word - first == k * (laneId() - lo) && magnitude < (1u << 26));
  }
  if (affineWords) {
    u32 period = k == 0 ? 32 : 32u >> min(__ffs(k) - 1, 5);
    most = k == 0 ? 1 : (n + period - 1) / period;
  } else {
    // Lanes reading one word share it (a broadcast): count each word once, at its first lane.
    u32 sameWord = __match_any_sync(active, word);
    bool firstOfWord = laneId() == u32(__ffs(sameWord) - 1);
    // The words of one bank: among the first lanes of each word, those with the same bank. The
    // other lanes take a key no bank has, so that they never join a bank's group.
    u32 bank = firstOfWord ? (word & 31) : 32 + laneId();
    u32 sameBank = __match_any_sync(active, bank);
    u32 ways = firstOfWord ? __popc(sameBank) : 0;
    // The most ways over the warp, bit by bit from the highest (ways <= 32).
    for (int bit = 5; bit >= 0; --bit) {
      u32 candidate = most | (1u << bit);
      if (__any_sync(active, ways >= candidate))
        most = candidate;
    }
  }
  if (isLeader()) {
    addRequest(active);
    if (most > 1) // the atomic only on a conflict, where it is out of registers
      count(extraWavefronts, most - 1);
  }
}

// Local memory: a lane's address is an offset in its own window, and the hardware interleaves the
// windows by 4-byte words (the CUDA programming guide: consecutive 32-bit words are accessed by
// consecutive thread ids). Word w of lane l is byte w * 128 + l * 4 of its warp's rows: row w is
// one 128-byte line, and lanes 8k..8k+7 share its sector k. A lane counts the words of its access
// that no lower active lane already touched: the warp's sum is the distinct sectors and lines.
OCELOT_PROBE(localCoalescing, "at=instruction; class=memory; space=local") {
  u32 active = activeMask();
  u32 lane = laneId();
  u32 first = u32(address() >> 2);
  u32 size = accessSize();
  u32 words = size > 4 ? size / 4 : 1; // aligned: a wider access starts a word
  u32 full = words >= 32 ? ~0u : (1u << words) - 1;
  u32 newLines = full, newSectors = full; // bit j: word first + j not yet counted
  for (u32 other = 0; other < 32; ++other) {
    u32 start = __shfl_sync(active, first, other); // undefined for inactive lanes: skipped
    if (other >= lane || ((active >> other) & 1) == 0)
      continue;
    // The words of [start, start + words) within this lane's range, as bits of it.
    u32 seen = 0;
    for (u32 j = 0; j < words; ++j)
      if (first + j >= start && first + j < start + words)
        seen |= 1u << j;
    newLines &= ~seen;
    if ((other >> 3) == (lane >> 3))
      newSectors &= ~seen;
  }
  // Sums of small per-lane counts (at most 32 words each): bit by bit with ballots.
  u32 sectorCount = 0, lineCount = 0;
  u32 mySectors = __popc(newSectors), myLines = __popc(newLines);
  for (u32 bit = 0; bit < 6; ++bit) {
    sectorCount += __popc(__ballot_sync(active, (mySectors >> bit) & 1)) << bit;
    lineCount += __popc(__ballot_sync(active, (myLines >> bit) & 1)) << bit;
  }
  if (isLeader()) {
    addRequest(active);
    count(sectors, sectorCount);
    count(lines, lineCount);
  }
}
