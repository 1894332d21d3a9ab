/* Ocelot probes: measurements written in CUDA C that Ocelot inlines into an application's kernels
 * at PTX level, where each probe's placement says (docs/probes.md).
 *
 *   #include "ocelot/probe.cuh"
 *   OCELOT_COUNTERS(entries, unsigned long long, "per=block");
 *   OCELOT_PROBE(countBlock, "at=block-entry") { entries.warpIncrement(); }
 *
 * A probe is a `__device__` function without parameters. What it may want to know comes from the
 * functions below (`ocelot::probe::address()`, `smId()`, `blockId()` ...): those that depend on
 * where the probe sits are calls of intrinsics Ocelot's inliner replaces with the few instructions
 * that compute the value at each site (or with a constant), so a value the probe does not read
 * costs nothing. Results go to regions of a buffer Ocelot allocates for every launch and reads
 * back after it: counters, histograms, record streams.
 *
 * Compile probes with `nvcc -rdc=true -ptx` (ocelot_add_probe_tool does), or let Ocelot compile
 * them at run time with NVRTC. The header needs no other header, so NVRTC compiles it as is.
 */
#ifndef OCELOT_PROBE_CUH
#define OCELOT_PROBE_CUH

#include "ocelot/ProbeTypes.h"

/* Intrinsics: declared here, defined by Ocelot's inliner at each probe site. Not for direct use. */
extern "C" {
__device__ unsigned int __ocelot_probe_kernel_id();
__device__ unsigned int __ocelot_probe_site_id();
__device__ unsigned int __ocelot_probe_instruction_id();
__device__ unsigned int __ocelot_probe_block_id();
__device__ unsigned int __ocelot_probe_opcode_class();
__device__ unsigned int __ocelot_probe_source_file();
__device__ unsigned int __ocelot_probe_source_line();
__device__ unsigned int __ocelot_probe_when();
__device__ unsigned long long __ocelot_probe_address();
__device__ unsigned int __ocelot_probe_access_size();
__device__ unsigned int __ocelot_probe_state_space();
__device__ unsigned int __ocelot_probe_access_kind();
__device__ unsigned int __ocelot_probe_predicate();
__device__ unsigned int __ocelot_probe_block_entries_reach();
__device__ unsigned int __ocelot_probe_guarded();
__device__ unsigned int __ocelot_probe_skipped_lanes_derivable();
__device__ unsigned long long __ocelot_probe_region_base(unsigned int region);
__device__ unsigned long long __ocelot_probe_region_elements(unsigned int region);
__device__ unsigned long long __ocelot_probe_region_index(unsigned int region);
__device__ unsigned int __ocelot_probe_region_stripes(unsigned int region);
__device__ unsigned int __ocelot_probe_region_bins(unsigned int region);
}

namespace ocelot {
namespace probe {

typedef unsigned int u32;
typedef unsigned long long u64;

// --- The thread and its warp ---------------------------------------------------------------------

/// The kernel the probe runs in: its index among the module's kernels (ProbeData::kernels()).
__device__ inline u32 kernelId() { return __ocelot_probe_kernel_id(); }
/// The hardware's number of this launch (`%gridid`): the same for every thread of a launch.
__device__ inline u64 gridId() {
  u64 id;
  asm volatile("mov.u64 %0, %%gridid;" : "=l"(id));
  return id;
}
/// The CTA's linear index in the grid (x fastest).
__device__ inline u32 ctaId() {
  return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}
/// The thread's linear index in its CTA (x fastest).
__device__ inline u32 threadId() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
__device__ inline u32 warpsPerCta() { return (blockDim.x * blockDim.y * blockDim.z + 31) / 32; }
/// The warp's index in its CTA.
__device__ inline u32 warpId() { return threadId() / 32; }
/// The warp's index in the grid: ctaId() * warpsPerCta() + warpId().
__device__ inline u64 globalWarpId() { return u64(ctaId()) * warpsPerCta() + warpId(); }
/// The thread's index in the grid: ctaId() * threads per CTA + threadId().
__device__ inline u64 globalThreadId() {
  return u64(ctaId()) * (blockDim.x * blockDim.y * blockDim.z) + threadId();
}
__device__ inline u32 laneId() {
  u32 lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}
/// The SM the warp runs on (`%smid`; on Ocelot's CPU device, the host worker).
__device__ inline u32 smId() {
  u32 sm;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  return sm;
}
__device__ inline u64 clock() { return (u64)clock64(); }
/// Nanoseconds (`%globaltimer`).
__device__ inline u64 globalTimer() {
  u64 ns;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
  return ns;
}
/// The lanes of the warp that run the probe together: the lanes that execute the probed
/// instruction (its guard applied, unless the placement says `guard=receive`).
__device__ inline u32 activeMask() { return __activemask(); }
/// The lowest active lane: the one that acts for the warp in warp-aggregated updates.
__device__ inline bool isLeader() { return laneId() == u32(__ffs(__activemask()) - 1); }

// --- The site: known when Ocelot instruments the module (constants in the inlined code) ----------

/// The probed instruction's index among the module's instructions (ProbeData::instructions()).
__device__ inline u32 instructionId() { return __ocelot_probe_instruction_id(); }
/// The basic block of the site (ProbeData::blocks()).
__device__ inline u32 blockId() { return __ocelot_probe_block_id(); }
/// The site itself: one per placed probe instance (ProbeData::sites()).
__device__ inline u32 siteId() { return __ocelot_probe_site_id(); }
__device__ inline OpcodeClass opcodeClass() { return OpcodeClass(__ocelot_probe_opcode_class()); }
/// The `.file` index and line of the probed instruction's `.loc` (0 without line information).
__device__ inline u32 sourceFile() { return __ocelot_probe_source_file(); }
__device__ inline u32 sourceLine() { return __ocelot_probe_source_line(); }
/// Before or after the instruction (placements `when=around` run the probe twice).
__device__ inline When when() { return When(__ocelot_probe_when()); }

// --- Memory instructions --------------------------------------------------------------------------

/// This lane's effective address: generic for generic accesses, an offset in the window for
/// shared and local ones. Computed before the instruction, also for `when=after`.
__device__ inline u64 address() { return __ocelot_probe_address(); }
/// Bytes one lane accesses (vector width included): 16 for ld.global.v4.f32.
__device__ inline u32 accessSize() { return __ocelot_probe_access_size(); }
__device__ inline StateSpace stateSpace() { return StateSpace(__ocelot_probe_state_space()); }
__device__ inline AccessKind accessKind() { return AccessKind(__ocelot_probe_access_kind()); }
__device__ inline bool isLoad() { return accessKind() == kRead; }
__device__ inline bool isStore() { return accessKind() == kWrite; }
__device__ inline bool isAtomic() { return accessKind() == kAtomicAccess; }

// --- Branches and guards --------------------------------------------------------------------------

/// This lane's value of the probed instruction's guard (`@%p`, `@!%p`): for a branch, whether the
/// lane takes it. 1 for unguarded instructions. Meaningful with `guard=receive` (the default for
/// `at=branch`): then the probe runs for every active lane, whatever its predicate.
__device__ inline bool predicate() { return __ocelot_probe_predicate() != 0; }

// --- What block counts already give (OCELOT_BLOCK_COUNTS; constants at the site) -----------------

/// Whether every lane that enters the site's basic block reaches the probed instruction (no call
/// before it in the block: a callee may exit). Then the block's entries are the instruction's
/// executions, warps and lanes, and a probe need not count them (ProbeData::blockEntriesReach
/// on the host). False at sites without an instruction.
__device__ inline bool blockEntriesReach() { return __ocelot_probe_block_entries_reach() != 0; }
/// Whether the probed instruction has a guard (`@%p`, `@!%p`; ProbeInstruction::guarded on the
/// host): then lanes that reach it may not execute it.
__device__ inline bool guarded() { return __ocelot_probe_guarded() != 0; }
/// A guarded branch whose guard-false lanes (those that fall through) the block entries give
/// (ProbeInstruction::skipDerivable() on the host): a probe need not count them. False elsewhere.
__device__ inline bool skippedLanesDerivable() {
  return __ocelot_probe_skipped_lanes_derivable() != 0;
}

// --- Warp-aggregated atomics ----------------------------------------------------------------------

/// Adds `value` to `*target` with one atomic per group of active lanes that name the same target
/// (the lowest lane of each group adds the group's sum). `T`: unsigned int or unsigned long long.
template <class T> __device__ inline void warpAtomicAdd(T* target, T value) {
  u32 active = __activemask();
#if __CUDA_ARCH__ >= 700
  u32 group = __match_any_sync(active, (u64)target);
#else
  u32 group = active; // callers before Volta: every lane must name the same target
#endif
  u32 leader = __ffs(group) - 1;
  T sum = value;
#if __CUDA_ARCH__ >= 800
  if (sizeof(T) == 4) {
    sum = (T)__reduce_add_sync(group, (u32)value);
  } else
#endif
  {
    // Sum over the group: each lane adds the others' values in turn (groups are small).
    sum = 0;
    for (u32 rest = group; rest != 0; rest &= rest - 1) {
      u32 lane = __ffs(rest) - 1;
      sum += __shfl_sync(group, value, lane);
    }
  }
  if (laneId() == leader)
    atomicAdd(target, sum);
}

/// Adds the number of lanes of each group that names the same target: `warpAtomicAdd(target, 1)`
/// in one popc per group.
template <class T> __device__ inline void warpAtomicIncrement(T* target) {
  u32 active = __activemask();
#if __CUDA_ARCH__ >= 700
  u32 group = __match_any_sync(active, (u64)target);
#else
  u32 group = active;
#endif
  if (laneId() == u32(__ffs(group) - 1))
    atomicAdd(target, (T)__popc(group));
}

namespace detail {

/// What the spec strings are stored in: a fixed array the PTX carries as the initializer of a
/// `.global` variable. Ocelot reads it back from the probe module; nothing reads it on the device.
struct SpecText {
  char text[384];
};

struct SpecBuilder {
  SpecText spec{};
  u32 length = 0;
  __host__ __device__ constexpr SpecBuilder& put(char c) {
    // The last byte stays 0: a spec that fills the array is refused as truncated by Ocelot.
    if (length + 1 < sizeof(spec.text))
      spec.text[length++] = c;
    else
      length = sizeof(spec.text);
    return *this;
  }
  __host__ __device__ constexpr SpecBuilder& add(const char* text) {
    while (*text != 0)
      put(*text++);
    return *this;
  }
  __host__ __device__ constexpr SpecBuilder& add(u64 value) {
    char digits[24] = {};
    int n = 0;
    do {
      digits[n++] = char('0' + value % 10);
      value /= 10;
    } while (value != 0);
    while (n > 0)
      put(digits[--n]);
    return *this;
  }
};

/// The id of a region in the intrinsics: FNV-1a of its name (Ocelot computes the same).
__host__ __device__ constexpr u32 regionId(const char* name, u32 hash = 2166136261u) {
  return *name == 0 ? hash : regionId(name + 1, (hash ^ u32((unsigned char)*name)) * 16777619u);
}

template <class T> struct TypeName {
  static constexpr const char* name = "record";
};
template <> struct TypeName<unsigned int> {
  static constexpr const char* name = "u32";
};
template <> struct TypeName<int> {
  static constexpr const char* name = "s32";
};
template <> struct TypeName<unsigned long long> {
  static constexpr const char* name = "u64";
};
template <> struct TypeName<long long> {
  static constexpr const char* name = "s64";
};
template <> struct TypeName<unsigned long> {
  static constexpr const char* name = sizeof(unsigned long) == 8 ? "u64" : "u32";
};
template <> struct TypeName<long> {
  static constexpr const char* name = sizeof(long) == 8 ? "s64" : "s32";
};
template <> struct TypeName<float> {
  static constexpr const char* name = "f32";
};
template <> struct TypeName<double> {
  static constexpr const char* name = "f64";
};

template <class T>
__host__ __device__ constexpr SpecText regionSpec(const char* name, const char* kind,
                                                   const char* spec) {
  SpecBuilder b;
  b.add("region ").add(name).add("; kind=").add(kind).add("; type=").add(TypeName<T>::name);
  b.add("; bytes=").add(u64(sizeof(T))).add("; align=").add(u64(alignof(T))).add("; ").add(spec);
  return b.spec;
}

__host__ __device__ constexpr SpecText probeSpec(const char* name, const char* placement) {
  SpecBuilder b;
  b.add("probe ").add(name).add("; ").add(placement);
  return b.spec;
}

/// Region memory: a 16-byte header, then the elements. Header word 0 counts updates that fell
/// outside the region (dropped); word 1 is a stream's next free record.
__device__ inline u64* header(u32 region) { return (u64*)__ocelot_probe_region_base(region); }
template <class T> __device__ inline T* elements(u32 region) {
  return (T*)(__ocelot_probe_region_base(region) + 16);
}

template <class T> struct AtomicAdder {
  static __device__ void add(T* target, T value) { atomicAdd(target, value); }
};
template <> struct AtomicAdder<long long> {
  static __device__ void add(long long* target, long long value) {
    atomicAdd((unsigned long long*)target, (unsigned long long)value);
  }
};
template <> struct AtomicAdder<long> {
  static __device__ void add(long* target, long value) {
    atomicAdd((unsigned long long*)target, (unsigned long long)value);
  }
};
template <> struct AtomicAdder<unsigned long> {
  static __device__ void add(unsigned long* target, unsigned long value) {
    atomicAdd((unsigned long long*)target, (unsigned long long)value);
  }
};

} // namespace detail

// --- Results ---------------------------------------------------------------------------------------

/// An array of counters in the launch's buffer, declared with OCELOT_COUNTERS. Its `per=` decides
/// its size and the index `add` uses at each site (`here()`): per=instruction, block, site, kernel
/// (constants), warp, cta, thread (from the launch), sm (the SM id), or count=N (index 0).
/// `stripes=S` keeps S copies of every counter, chosen by %ctaid.x, to spread atomics; the host
/// sums them. Indices outside the array are not written; they are counted as dropped.
template <class T> struct Counters {
  u32 id;
  __device__ u64 size() const { return __ocelot_probe_region_elements(id); }
  /// The index this site's updates use by default.
  __device__ u64 here() const { return __ocelot_probe_region_index(id); }
  /// Whether `index` is inside the array; counts the update as dropped when it is not.
  __device__ bool check(u64 index) const {
    if (index < size())
      return true;
    atomicAdd(detail::header(id), 1ull);
    return false;
  }
  /// The counter `index` of this CTA's stripe (no range check).
  __device__ T* element(u64 index) const {
    u32 stripes = __ocelot_probe_region_stripes(id);
    u64 at = stripes > 1 ? index * stripes + (blockIdx.x & (stripes - 1)) : index;
    return detail::elements<T>(id) + at;
  }
  /// The counter `index` of this CTA's stripe, or nullptr (counted as dropped) when out of range.
  __device__ T* slot(u64 index) const { return check(index) ? element(index) : nullptr; }
  /// One atomic per lane.
  __device__ void add(T value) const { addAt(here(), value); }
  __device__ void addAt(u64 index, T value) const {
    if (check(index))
      detail::AtomicAdder<T>::add(element(index), value);
  }
  /// Adds the number of active lanes with one atomic per warp (bbcount's per-warp counting).
  __device__ void warpIncrement() const { warpIncrementAt(here()); }
  __device__ void warpIncrementAt(u64 index) const {
    u32 active = __activemask();
    if (laneId() == u32(__ffs(active) - 1) && check(index))
      detail::AtomicAdder<T>::add(element(index), (T)__popc(active));
  }
  /// Adds every active lane's value with one atomic per warp (all lanes use here()).
  __device__ void warpAdd(T value) const {
    u32 active = __activemask();
    T sum = 0;
    for (u32 rest = active; rest != 0; rest &= rest - 1)
      sum += __shfl_sync(active, value, __ffs(rest) - 1);
    u64 index = here();
    if (laneId() == u32(__ffs(active) - 1) && check(index))
      detail::AtomicAdder<T>::add(element(index), sum);
  }
  /// Stores `value` (no atomic): for per-thread or per-warp arrays one lane owns.
  __device__ void set(u64 index, T value) const {
    if (check(index))
      *element(index) = value;
  }
  __device__ void max(T value) const {
    u64 index = here();
    if (check(index))
      atomicMax(element(index), value);
  }
  __device__ void min(T value) const {
    u64 index = here();
    if (check(index))
      atomicMin(element(index), value);
  }
};

/// Counters with `bins` bins per index (`bins=N` in the spec): record(bin) counts one event in bin
/// `bin` of the site's index; bins past the last count in the last.
struct Histogram {
  u32 id;
  __device__ u32 bins() const { return __ocelot_probe_region_bins(id); }
  __device__ u64 here() const { return __ocelot_probe_region_index(id); }
  __device__ unsigned long long* slot(u64 index, u32 bin) const {
    u32 n = bins();
    u64 at = index * n + (bin < n ? bin : n - 1);
    if (at >= __ocelot_probe_region_elements(id)) {
      atomicAdd(detail::header(id), 1ull);
      return nullptr;
    }
    return detail::elements<unsigned long long>(id) + at;
  }
  /// One event per lane, aggregated over the lanes of the warp that fall into the same bin.
  __device__ void record(u32 bin) const { recordAt(here(), bin); }
  __device__ void recordAt(u64 index, u32 bin) const {
    if (unsigned long long* target = slot(index, bin))
      warpAtomicIncrement(target);
  }
  /// One event for the whole warp (its lowest active lane records it).
  __device__ void recordWarp(u32 bin) const {
    if (isLeader())
      if (unsigned long long* target = slot(here(), bin))
        atomicAdd(target, 1ull);
  }
};

/// An append-only stream of records of type R (plain data: the host reads it as bytes), declared
/// with OCELOT_STREAM(name, R, "capacity=N"). Records that do not fit are dropped and counted.
template <class R> struct Stream {
  u32 id;
  __device__ u64 capacity() const { return __ocelot_probe_region_elements(id); }
  /// Appends one record per active lane; the warp reserves its records with one atomic.
  __device__ void push(const R& record) const {
    u32 active = __activemask();
    u32 lane = laneId();
    u32 leader = __ffs(active) - 1;
    u64 first = 0;
    if (lane == leader)
      first = atomicAdd(&detail::header(id)[1], (unsigned long long)__popc(active));
    first = __shfl_sync(active, first, leader);
    u64 at = first + __popc(active & ((1u << lane) - 1));
    if (at < capacity())
      detail::elements<R>(id)[at] = record;
  }
  /// Reserves one record for the warp with one atomic; every active lane gets its index, so that
  /// the lanes fill the record together (each its own part: coalesced writes).
  __device__ u64 reserveWarp() const {
    u32 active = __activemask();
    u32 leader = __ffs(active) - 1;
    u64 at = 0;
    if (laneId() == leader)
      at = atomicAdd(&detail::header(id)[1], 1ull);
    return __shfl_sync(active, at, leader);
  }
  /// The record at `index` (from reserveWarp), or nullptr past the capacity: that record is
  /// dropped (counted: the host sees more records reserved than kept).
  __device__ R* record(u64 index) const {
    return index < capacity() ? detail::elements<R>(id) + index : nullptr;
  }
  /// Appends one record for the warp (from its lowest active lane).
  __device__ void pushWarp(const R& record) const {
    if (!isLeader())
      return;
    u64 at = atomicAdd(&detail::header(id)[1], 1ull);
    if (at < capacity())
      detail::elements<R>(id)[at] = record;
  }
};

} // namespace probe
} // namespace ocelot

/// A probe: `OCELOT_PROBE(name, "placement") { body }`. The placement is `key=value` pairs separated
/// by ';' (docs/probes.md): `at=kernel-entry|kernel-exit|block-entry|instruction|branch|call|
/// barrier`, `when=before|after|around`, filters `class=`, `opcode=`, `space=`, `kind=`,
/// `kernel=REGEX`, `file=REGEX`, `guard=skip|receive`, sampling `sample-warps=N`,
/// `sample-launches=N`.
#define OCELOT_PROBE(name, placement)                                                              \
  extern "C" __device__ const ::ocelot::probe::detail::SpecText __ocelot_spec_probe_##name =       \
      ::ocelot::probe::detail::probeSpec(#name, placement);                                        \
  extern "C" __device__ __noinline__ void name(void)

/// Counters of type T (unsigned int, unsigned long long, int, long long, float, double):
/// `OCELOT_COUNTERS(hits, unsigned long long, "per=instruction")`.
#define OCELOT_COUNTERS(name, T, spec)                                                             \
  extern "C" __device__ const ::ocelot::probe::detail::SpecText __ocelot_spec_region_##name =      \
      ::ocelot::probe::detail::regionSpec<T>(#name, "counters", spec);                             \
  __device__ constexpr ::ocelot::probe::Counters<T> name { ::ocelot::probe::detail::regionId(#name) }

/// Exact entries of every basic block, counted by Ocelot itself with bbcount's counter placement
/// (no probe: blocks that run as often as another are derived, blocks in loops count in registers,
/// the rest with one atomic per warp): `OCELOT_BLOCK_COUNTS(entered, "lanes")` counts the threads
/// that enter each block, `"warps"` the warps. The host reads them as per=block counters:
/// `data.counters<uint64_t>("entered")[block]`.
#define OCELOT_BLOCK_COUNTS(name, what)                                                            \
  extern "C" __device__ const ::ocelot::probe::detail::SpecText __ocelot_spec_region_##name =      \
      ::ocelot::probe::detail::regionSpec<unsigned long long>(                                     \
          #name, "counters", "per=block; stripes=32; entries=" what)

/// A histogram: `OCELOT_HISTOGRAM(lanes, "per=instruction; bins=33")`.
#define OCELOT_HISTOGRAM(name, spec)                                                               \
  extern "C" __device__ const ::ocelot::probe::detail::SpecText __ocelot_spec_region_##name =      \
      ::ocelot::probe::detail::regionSpec<unsigned long long>(#name, "histogram", spec);           \
  __device__ constexpr ::ocelot::probe::Histogram name { ::ocelot::probe::detail::regionId(#name) }

/// A record stream: `OCELOT_STREAM(trace, MyRecord, "capacity=1048576")`.
#define OCELOT_STREAM(name, R, spec)                                                               \
  extern "C" __device__ const ::ocelot::probe::detail::SpecText __ocelot_spec_region_##name =      \
      ::ocelot::probe::detail::regionSpec<R>(#name, "stream", spec);                               \
  __device__ constexpr ::ocelot::probe::Stream<R> name { ::ocelot::probe::detail::regionId(#name) }

#endif /* OCELOT_PROBE_CUH */
