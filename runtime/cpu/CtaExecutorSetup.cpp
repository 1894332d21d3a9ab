// Setting a CTA up: the register file, shared and local memory, the warps and the barriers.

#include "runtime/cpu/CtaExecutor.h"
#include "runtime/cpu/CtaExecutorWarp.h"
#include "runtime/cpu/DeviceMemory.h"
#include "runtime/cpu/NativeCode.h"

#include <algorithm>
#include <cstring>

namespace ocelot::runtime::cpu {

bool CtaExecutor::prepare(LaunchState& launch, uint64_t cta) {
  launch_ = &launch;
  kernel_ = launch.kernel;
  cta_ = cta;
  ctaid_ = unlinear(cta, launch.grid);
  const DecodedKernel& k = *kernel_;
  const uint32_t threads = launch.threadsPerCta();
  warpCount_ = (threads + kWarpSize - 1) / kWarpSize;
  liveThreads_ = threads;

  const size_t rowWords = size_t{k.rowCount} * kWarpSize;
  if (rows_.size() < rowWords * warpCount_)
    rows_.resize(rowWords * warpCount_);
  if (predicates_.size() < size_t{k.predicateCount} * warpCount_)
    predicates_.resize(size_t{k.predicateCount} * warpCount_);
  const size_t sharedBytes = size_t{k.dynamicSharedOffset()} + launch.dynamicShared;
  if (shared_.size() < sharedBytes)
    shared_.resize(sharedBytes);
  uint32_t localSize = k.staticStackSize;
  if (k.recursive)
    localSize = k.kernelFrameSize + std::max<uint32_t>(launch.options.stackBytes, 1024) * 8;
  localSize = (localSize + kFrameAlignment - 1) / kFrameAlignment * kFrameAlignment;
  const size_t localBytes = size_t{localSize} * kWarpSize * warpCount_;
  local_.reserve(localBytes);
  while (warps_.size() < warpCount_)
    warps_.push_back(std::make_unique<Warp>());
  // Released barriers are reset as they release; the others (a faulted or odd CTA) here, in
  // place: the waiting lists keep their storage from CTA to CTA.
  if (waitingBarriers_ != 0 || barriers_.size() != kBarrierCount) {
    barriers_.resize(kBarrierCount);
    for (Barrier& barrier : barriers_)
      resetBarrier(barrier);
    waitingBarriers_ = 0;
  }

  context_ = ExecutionContext{};
  context_.memory.arenaBase = launch.memory->arenaBase();
  context_.memory.arenaSize = launch.memory->arenaSize();
  context_.memory.sharedWindow = launch.memory->sharedWindow();
  context_.memory.localWindow = launch.memory->localWindow();
  context_.memory.memory = launch.memory;
  context_.memory.checked = launch.options.memcheck;
  context_.shared = shared_.data();
  context_.sharedSize = static_cast<uint32_t>(sharedBytes);
  context_.localStride = localSize;
  context_.localSize = localSize;
  context_.services = &services_;
  context_.tracer = launch.tracer;
  context_.smid = worker_;
  services_.launch = &launch;
  services_.ctaOutput = output_;
  services_.ctaIndex = cta;
  if (launch.native != nullptr) {
    NativeWarpState& s = *native_;
    s.context = &context_;
    s.code = k.code.data();
    s.shared = context_.shared;
    s.sharedSize = context_.sharedSize;
    s.localStride = context_.localStride;
    s.localSize = context_.localSize;
    s.arenaBase = context_.memory.arenaBase;
    s.arenaSize = context_.memory.arenaSize;
    s.sharedWindow = context_.memory.sharedWindow;
    s.localWindow = context_.memory.localWindow;
    s.checked = context_.memory.checked ? 1 : 0;
  }

  // Constant rows and most special rows are the same for every CTA of a launch (and nothing
  // writes them): a worker fills them for its first CTA of a launch, later CTAs only their %ctaid.
  const bool sameLaunch = preparedKernel_ == &k && preparedGrid_ == launch.gridId &&
                          preparedParameters_ == launch.parameters;
  for (uint32_t w = 0; w < warpCount_; ++w) {
    Warp& warp = *warps_[w];
    const bool ctaOnly = sameLaunch && w < preparedWarps_;
    warp.index = w;
    warp.rows = rows_.data() + rowWords * w;
    warp.predicates = predicates_.data() + size_t{k.predicateCount} * w;
    warp.carry = 0;
    const uint32_t first = w * kWarpSize;
    const uint32_t lanes = std::min(kWarpSize, threads - first);
    warp.valid = lanes == kWarpSize ? kAllLanes : (LaneMask{1} << lanes) - 1;
    warp.exited = 0;
    warp.stack.assign(1, SimtEntry{0, kNone, warp.valid});
    warp.calls.clear();
    warp.spill.clear();
    warp.frameBase = 0;
    warp.stackTop = k.kernelFrameSize;
    warp.state = Warp::State::Ready;
    std::fill_n(warp.predicates, k.predicateCount, LaneMask{0});
    warp.predicates[k.truePredicate] = kAllLanes;
    for (const ConstantRow& constant : k.constants) {
      if (ctaOnly)
        break;
      const uint64_t value = constant.kind == ConstantRow::Kind::ParameterBase
                                 ? launch.parameters + constant.value
                                 : constant.value;
      std::fill_n(warp.rows + size_t{constant.row} * kWarpSize, kWarpSize, value);
    }
    // The lanes' thread indices, counted up from the warp's first thread (no division per lane).
    uint32_t tid[3][kWarpSize];
    dim3 next = ctaOnly ? dim3() : unlinear(first, launch.block);
    for (uint32_t lane = 0; lane < kWarpSize && !ctaOnly; ++lane) {
      tid[0][lane] = next.x;
      tid[1][lane] = next.y;
      tid[2][lane] = next.z;
      if (++next.x == launch.block.x) {
        next.x = 0;
        if (++next.y == launch.block.y) {
          next.y = 0;
          ++next.z;
        }
      }
    }
    for (const SpecialRow& special : k.specials) {
      uint64_t* row = warp.rows + size_t{special.row} * kWarpSize;
      using S = SpecialRegister;
      if (ctaOnly && (special.kind < S::CtaidX || special.kind > S::CtaidZ) &&
          (special.kind < S::ClusterIdX || special.kind > S::ClusterIdZ))
        continue;
      if (ctaOnly && launch.native != nullptr && launch.native->ctaRowsInLaneZero) {
        // Only native code reads %ctaid, from lane 0.
        row[0] = special.kind == S::CtaidX || special.kind == S::ClusterIdX   ? ctaid_.x
                 : special.kind == S::CtaidY || special.kind == S::ClusterIdY ? ctaid_.y
                                                                              : ctaid_.z;
        continue;
      }
      switch (special.kind) {
      case S::TidX:
      case S::TidY:
      case S::TidZ: {
        const uint32_t* values =
            tid[static_cast<uint32_t>(special.kind) - static_cast<uint32_t>(S::TidX)];
        for (uint32_t lane = 0; lane < kWarpSize; ++lane)
          row[lane] = values[lane];
        continue;
      }
      case S::LaneId:
      case S::LaneMaskEq:
      case S::LaneMaskLt:
      case S::LaneMaskLe:
      case S::LaneMaskGt:
      case S::LaneMaskGe:
        break;
      default: {
        // The same in every lane.
        uint64_t value = 0;
        switch (special.kind) {
        case S::NtidX:
          value = launch.block.x;
          break;
        case S::NtidY:
          value = launch.block.y;
          break;
        case S::NtidZ:
          value = launch.block.z;
          break;
        case S::CtaidX:
        case S::ClusterIdX:
          value = ctaid_.x;
          break;
        case S::CtaidY:
        case S::ClusterIdY:
          value = ctaid_.y;
          break;
        case S::CtaidZ:
        case S::ClusterIdZ:
          value = ctaid_.z;
          break;
        case S::NctaidX:
        case S::NClusterIdX:
          value = launch.grid.x;
          break;
        case S::NctaidY:
        case S::NClusterIdY:
          value = launch.grid.y;
          break;
        case S::NctaidZ:
        case S::NClusterIdZ:
          value = launch.grid.z;
          break;
        case S::WarpId:
          value = w;
          break;
        case S::NWarpId:
          value = 64;
          break;
        case S::SmId:
          value = worker_;
          break;
        case S::NSmId:
          value = launch.smCount;
          break;
        case S::GridId:
          value = launch.gridId;
          break;
        case S::GridWorkspaceHigh:
          value = launch.gridWorkspace >> 32;
          break;
        case S::GridWorkspaceLow:
          value = launch.gridWorkspace & 0xffffffffu;
          break;
        case S::DynamicSmemSize:
          value = launch.dynamicShared;
          break;
        case S::TotalSmemSize:
          value = sharedBytes;
          break;
        case S::ClusterNCtaRank:
        case S::ClusterNctaidX:
        case S::ClusterNctaidY:
        case S::ClusterNctaidZ:
          value = 1;
          break;
        default:
          value = 0;
          break;
        }
        std::fill_n(row, kWarpSize, value);
        continue;
      }
      }
      for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
        uint64_t value = 0;
        switch (special.kind) {
        case S::LaneId:
          value = lane;
          break;
        case S::LaneMaskEq:
          value = uint64_t{1} << lane;
          break;
        case S::LaneMaskLt:
          value = (uint64_t{1} << lane) - 1;
          break;
        case S::LaneMaskLe:
          value = (uint64_t{2} << lane) - 1;
          break;
        case S::LaneMaskGt:
          value = 0xffffffffull & ~((uint64_t{2} << lane) - 1);
          break;
        default:
          value = 0xffffffffull & ~((uint64_t{1} << lane) - 1);
          break;
        }
        row[lane] = value;
      }
    }
  }
  preparedWarps_ = sameLaunch ? std::max(preparedWarps_, warpCount_) : warpCount_;
  preparedKernel_ = &k;
  preparedGrid_ = launch.gridId;
  preparedParameters_ = launch.parameters;
  return true;
}

void CtaExecutor::bindContext(Warp& warp) {
  context_.rows = warp.rows;
  context_.predicates = warp.predicates;
  context_.carry = warp.carry;
  context_.local = local_.data() + size_t{warp.index} * kWarpSize * context_.localStride;
  context_.frameBase = warp.frameBase;
  context_.stackTop = warp.stackTop;
  context_.warpIndex = warp.index;
}

} // namespace ocelot::runtime::cpu
