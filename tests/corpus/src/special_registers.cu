// Special registers and timing: %clock/%clock64 (clock(), clock64()), %globaltimer, %smid,
// %nsmid, %warpid, %nwarpid, %laneid, %gridid, %lanemask_*, %dynamic_smem_size,
// %total_smem_size, %envregN, %pm0, vector components (%tid.x, %ntid.y, %nctaid.z), and a CTA
// timer of the kind instrumentation inserts by hand.
#include <cstdint>

#define SPECIAL_READER(name, type, constraint, reg)                                                \
  __device__ __forceinline__ type name() {                                                         \
    type v;                                                                                        \
    asm volatile("mov." #type " %0, %%" reg ";" : "=" constraint(v));                              \
    return v;                                                                                      \
  }

using u32 = uint32_t;
using u64 = uint64_t;
SPECIAL_READER(readSmid, u32, "r", "smid")
SPECIAL_READER(readNsmid, u32, "r", "nsmid")
SPECIAL_READER(readWarpid, u32, "r", "warpid")
SPECIAL_READER(readNwarpid, u32, "r", "nwarpid")
SPECIAL_READER(readLaneid, u32, "r", "laneid")
SPECIAL_READER(readLanemaskEq, u32, "r", "lanemask_eq")
SPECIAL_READER(readLanemaskLe, u32, "r", "lanemask_le")
SPECIAL_READER(readLanemaskGt, u32, "r", "lanemask_gt")
SPECIAL_READER(readLanemaskGe, u32, "r", "lanemask_ge")
SPECIAL_READER(readDynamicSmem, u32, "r", "dynamic_smem_size")
SPECIAL_READER(readTotalSmem, u32, "r", "total_smem_size")
SPECIAL_READER(readEnvreg0, u32, "r", "envreg0")
SPECIAL_READER(readEnvreg31, u32, "r", "envreg31")
SPECIAL_READER(readClock, u32, "r", "clock")
SPECIAL_READER(readClockHi, u32, "r", "clock_hi")
SPECIAL_READER(readClock64, u64, "l", "clock64")
SPECIAL_READER(readGlobaltimer, u64, "l", "globaltimer")
SPECIAL_READER(readGlobaltimerLo, u32, "r", "globaltimer_lo")
SPECIAL_READER(readGridid, u64, "l", "gridid")
SPECIAL_READER(readPm0, u32, "r", "pm0")

struct CtaRecord {
  uint64_t start, end;
  uint32_t smid, warps;
};

// One record per CTA: when it started and ended, on which SM.
__global__ void ctaTimer(const float* in, float* out, CtaRecord* records, int n) {
  __shared__ uint64_t start;
  if (threadIdx.x == 0)
    start = readGlobaltimer();
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = sqrtf(in[i]) * 2.0f;
  __syncthreads();
  if (threadIdx.x == 0) {
    CtaRecord r;
    r.start = start;
    r.end = readGlobaltimer();
    r.smid = readSmid();
    r.warps = readNwarpid();
    records[blockIdx.x + blockIdx.y * gridDim.x] = r;
  }
}

__global__ void everySpecialRegister(uint64_t* out) {
  extern __shared__ int dynamicArea[];
  dynamicArea[threadIdx.x] = static_cast<int>(threadIdx.x);
  uint64_t* o = out + 32 * (blockIdx.x * blockDim.x + threadIdx.x);
  o[0] = readSmid();
  o[1] = readNsmid();
  o[2] = readWarpid();
  o[3] = readLaneid();
  o[4] = readLanemaskEq() ^ readLanemaskLe() ^ readLanemaskGt() ^ readLanemaskGe();
  o[5] = readDynamicSmem();
  o[6] = readTotalSmem();
  o[7] = readEnvreg0() + readEnvreg31();
  o[8] = readClock() + static_cast<uint64_t>(readClockHi());
  o[9] = readClock64();
  o[10] = clock64() - static_cast<long long>(clock());
  o[11] = readGlobaltimer() + readGlobaltimerLo();
  o[12] = readGridid();
  o[13] = readPm0();
  o[14] = threadIdx.x + threadIdx.y + threadIdx.z;
  o[15] = blockDim.x * blockDim.y * blockDim.z;
  o[16] = blockIdx.x + blockIdx.y + blockIdx.z;
  o[17] = gridDim.x * gridDim.y * gridDim.z;
  o[18] = static_cast<uint64_t>(warpSize);
  o[19] = static_cast<uint64_t>(dynamicArea[(threadIdx.x + 1) % blockDim.x]);
}

// Busy-wait for a number of cycles, then sleep until a global-timer deadline.
__global__ void spinAndSleep(long long cycles, uint64_t nanoseconds, int* done) {
  long long begin = clock64();
  while (clock64() - begin < cycles) {
  }
  uint64_t deadline = readGlobaltimer() + nanoseconds;
  while (readGlobaltimer() < deadline)
    __nanosleep(100);
  done[blockIdx.x] = 1;
}
