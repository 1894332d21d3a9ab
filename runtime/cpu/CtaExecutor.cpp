#include "runtime/cpu/CtaExecutor.h"

#include "runtime/cpu/CpuModule.h"
#include "runtime/cpu/DeviceLaunches.h"
#include "runtime/cpu/DeviceMemory.h"
#include "runtime/cpu/DevicePrintf.h"
#include "runtime/cpu/ExecutionTracer.h"
#include "runtime/cpu/MemoryAccess.h"
#include "runtime/cpu/NativeCode.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace ocelot::runtime::cpu {
namespace {

/// Warp instructions a warp runs before the others of its CTA get a turn: long enough that
/// switching costs nothing measurable, short enough that warps spinning on each other progress
/// and the watchdog is checked often.
constexpr uint32_t kQuantum = 4096;
constexpr uint32_t kFrameAlignment = 16;
constexpr uint32_t kBarrierCount = 16;

struct CallFrame {
  uint32_t depth; ///< SIMT stack size when the call was made
  uint32_t callSite;
  uint32_t callee;
  uint32_t savedFrameBase, savedStackTop;
  LaneMask lanes; ///< lanes that called
  size_t spillBegin;
  bool spilled;
};

dim3 unlinear(uint64_t index, dim3 extent) {
  dim3 result;
  result.x = static_cast<uint32_t>(index % extent.x);
  result.y = static_cast<uint32_t>((index / extent.x) % extent.y);
  result.z = static_cast<uint32_t>(index / (uint64_t{extent.x} * extent.y));
  return result;
}

std::string triple(dim3 value) {
  return "(" + std::to_string(value.x) + "," + std::to_string(value.y) + "," +
         std::to_string(value.z) + ")";
}

} // namespace

struct CtaExecutor::Warp {
  uint32_t index = 0;
  uint64_t* rows = nullptr;
  LaneMask* predicates = nullptr;
  LaneMask carry = 0;
  LaneMask valid = 0; ///< lanes that are threads of the CTA
  LaneMask exited = 0;
  std::vector<SimtEntry> stack;
  std::vector<CallFrame> calls;
  std::vector<uint64_t> spill;
  uint32_t frameBase = 0, stackTop = 0;
  enum class State : uint8_t { Ready, Waiting, Done } state = State::Ready;
  // A pending bar.red: where its result goes.
  uint32_t reduceDestination = kNone;
  uint32_t reduceFlags = 0;
  LaneMask reduceLanes = 0;
  uint32_t barrier = 0;
};

CtaExecutor::CtaExecutor(uint32_t worker)
    : worker_(worker), native_(std::make_unique<NativeWarpState>()) {}

CtaExecutor::~CtaExecutor() = default;

void LaunchState::recordFault(FaultKind kind, std::string message) {
  std::lock_guard lock(faultMutex);
  if (faultKind == FaultKind::None) {
    faultKind = kind;
    faultMessage = std::move(message);
  }
  abort.store(true, std::memory_order_relaxed);
}

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

void CtaExecutor::reportLongLaunch() const {
  // Once per launch, so that a kernel that loops forever is seen before the watchdog fails it.
  const ExecutionOptions& options = launch_->options;
  std::fprintf(stderr,
               "ocelot[warn]: kernel %s has run for %u ms on the CPU device (CTA %s is running); "
               "it fails with cudaErrorLaunchTimeout after %u ms (OCELOT_CPU_WATCHDOG_MS; 0: no "
               "limit)\n",
               kernel_->name.c_str(), options.longLaunchReportMs, triple(ctaid_).c_str(),
               options.watchdogMs);
}

void CtaExecutor::faultAt(const Warp& warp, FaultKind kind, uint32_t lane, uint32_t pc,
                          std::string detail) {
  const DecodedKernel& k = *kernel_;
  std::string message = "kernel " + k.name + ": " + std::string(faultKindName(kind));
  if (!detail.empty())
    message += " (" + detail + ")";
  message += " in CTA " + triple(ctaid_) + ", thread " +
             triple(unlinear(uint64_t{warp.index} * kWarpSize + lane, launch_->block));
  if (pc < k.sources.size()) {
    const InstructionSource& source = k.sources[pc];
    message +=
        ", PTX line " + std::to_string(source.ptxLine) + " `" + std::string(source.text) + "`";
    if (source.function < k.functions.size() && source.function != 0)
      message += " in " + k.functions[source.function].name;
    if (source.sourceLine != 0) {
      std::string file = source.sourceFile < k.sourceFiles.size() ? k.sourceFiles[source.sourceFile]
                                                                  : std::string();
      message += ", source " + (file.empty() ? std::string("line ") : file + ":") +
                 std::to_string(source.sourceLine);
    }
  }
  launch_->recordFault(kind, std::move(message));
}

void CtaExecutor::fault(const Warp& warp, const Fault& f, uint32_t pc) {
  std::string detail;
  if (f.kind == FaultKind::IllegalAddress || f.kind == FaultKind::MisalignedAddress) {
    char buffer[128];
    std::snprintf(buffer, sizeof buffer, "%s access of %u bytes at 0x%llx",
                  f.detail ? f.detail : "memory", f.size,
                  static_cast<unsigned long long>(f.address));
    detail = buffer;
  } else if (f.detail != nullptr) {
    detail = f.detail;
  }
  faultAt(warp, f.kind, f.lane, pc, detail);
}

void CtaExecutor::removeLanes(Warp& warp, LaneMask lanes, size_t fromDepth) {
  for (size_t i = fromDepth; i < warp.stack.size(); ++i)
    warp.stack[i].mask &= ~lanes;
}

uint64_t CtaExecutor::readFrameValue(const Warp& warp, uint32_t base, uint32_t offset,
                                     uint32_t size, uint32_t lane) const {
  uint64_t value = 0;
  const uint32_t bytes = std::min<uint32_t>(size, 8);
  const size_t at = size_t{base} + offset;
  if (at + bytes <= context_.localSize)
    std::memcpy(&value,
                local_.data() + (size_t{warp.index} * kWarpSize + lane) * context_.localStride + at,
                bytes);
  return value;
}

void CtaExecutor::writeFrameValue(Warp& warp, uint32_t base, uint32_t offset, uint32_t size,
                                  uint32_t lane, uint64_t value) {
  const uint32_t bytes = std::min<uint32_t>(size, 8);
  const size_t at = size_t{base} + offset;
  if (at + bytes <= context_.localSize)
    std::memcpy(local_.data() + (size_t{warp.index} * kWarpSize + lane) * context_.localStride + at,
                &value, bytes);
}

bool CtaExecutor::readGeneric(uint32_t lane, uint64_t address, void* out, size_t size) {
  const Fault saved = context_.fault;
  std::byte* host = resolveAddress(context_, MemorySpace::Generic, address, 1, lane);
  if (host != nullptr && size > 1)
    host = resolveAddress(context_, MemorySpace::Generic, address + size - 1, 1, lane) != nullptr
               ? host
               : nullptr;
  context_.fault = saved;
  if (host == nullptr)
    return false;
  std::memcpy(out, host, size);
  return true;
}

bool CtaExecutor::writeGeneric(uint32_t lane, uint64_t address, const void* in, size_t size) {
  const Fault saved = context_.fault;
  std::byte* host = resolveAddress(context_, MemorySpace::Generic, address, 1, lane);
  if (host != nullptr && size > 1 &&
      resolveAddress(context_, MemorySpace::Generic, address + size - 1, 1, lane) == nullptr)
    host = nullptr;
  context_.fault = saved;
  if (host == nullptr)
    return false;
  std::memcpy(host, in, size);
  return true;
}

bool CtaExecutor::finishCall(Warp& warp) {
  const CallFrame frame = warp.calls.back();
  warp.calls.pop_back();
  const DecodedKernel& k = *kernel_;
  const CallSite& site = k.callSites[frame.callSite];
  const DecodedFunction& callee = k.functions[frame.callee];
  const LaneMask lanes = frame.lanes & ~warp.exited;
  const size_t count = std::min(site.results.size(), callee.returnOffsets.size());
  // Values first: restoring a recursive caller's rows may overwrite the callee's.
  std::vector<uint64_t> values(count * kWarpSize);
  for (size_t i = 0; i < count; ++i) {
    const CallValue& destination = site.results[i];
    forEachLane(lanes, [&](uint32_t lane) {
      if (callee.returnRows[i] != kNone) {
        values[i * kWarpSize + lane] = warp.rows[size_t{callee.returnRows[i]} * kWarpSize + lane];
      } else if (destination.row == kNone) {
        // frame to frame: copy the whole value now (frames do not move on restore).
        const size_t bytes = std::min(destination.size, callee.returnSizes[i]);
        std::byte* base =
            local_.data() + (size_t{warp.index} * kWarpSize + lane) * context_.localStride;
        const size_t from = size_t{warp.frameBase} + callee.returnOffsets[i];
        const size_t to = size_t{frame.savedFrameBase} + destination.frameOffset;
        if (from + bytes <= context_.localSize && to + bytes <= context_.localSize)
          std::memmove(base + to, base + from, bytes);
      } else {
        values[i * kWarpSize + lane] = readFrameValue(warp, warp.frameBase, callee.returnOffsets[i],
                                                      callee.returnSizes[i], lane);
      }
    });
  }
  if (frame.spilled) {
    const size_t rowWords = size_t{callee.rowEnd - callee.rowBegin} * kWarpSize;
    std::memcpy(warp.rows + size_t{callee.rowBegin} * kWarpSize,
                warp.spill.data() + frame.spillBegin, rowWords * sizeof(uint64_t));
    for (uint32_t p = callee.predBegin; p < callee.predEnd; ++p)
      warp.predicates[p] =
          static_cast<LaneMask>(warp.spill[frame.spillBegin + rowWords + (p - callee.predBegin)]);
    warp.spill.resize(frame.spillBegin);
  }
  warp.frameBase = frame.savedFrameBase;
  warp.stackTop = frame.savedStackTop;
  context_.frameBase = warp.frameBase;
  context_.stackTop = warp.stackTop;
  for (size_t i = 0; i < count; ++i) {
    const CallValue& destination = site.results[i];
    if (destination.row == kNone && callee.returnRows[i] == kNone)
      continue; // copied above
    forEachLane(lanes, [&](uint32_t lane) {
      const uint64_t value = values[i * kWarpSize + lane];
      if (destination.row != kNone)
        warp.rows[size_t{destination.row} * kWarpSize + lane] = value;
      else
        writeFrameValue(warp, warp.frameBase, destination.frameOffset, destination.size, lane,
                        value);
    });
  }
  return true;
}

bool CtaExecutor::settle(Warp& warp) {
  for (;;) {
    while (!warp.stack.empty() && warp.stack.back().mask == 0)
      warp.stack.pop_back();
    if (!warp.calls.empty() && warp.stack.size() <= warp.calls.back().depth) {
      if (!finishCall(warp))
        return false;
      continue;
    }
    break;
  }
  if (warp.stack.empty())
    warp.state = Warp::State::Done;
  return true;
}

bool CtaExecutor::builtin(Warp& warp, const CallSite& site, LaneMask lanes) {
  auto argument = [&](size_t index, uint32_t lane) -> uint64_t {
    if (index >= site.arguments.size())
      return 0;
    const CallValue& value = site.arguments[index];
    if (value.row != kNone)
      return warp.rows[size_t{value.row} * kWarpSize + lane];
    return readFrameValue(warp, warp.frameBase, value.frameOffset, value.size, lane);
  };
  auto result = [&](uint32_t lane, uint64_t value) {
    if (site.results.empty())
      return;
    const CallValue& destination = site.results[0];
    if (destination.row != kNone)
      warp.rows[size_t{destination.row} * kWarpSize + lane] = value;
    else
      writeFrameValue(warp, warp.frameBase, destination.frameOffset, destination.size, lane, value);
  };
  // A dim3 argument (a 12-byte .param aggregate in the caller's frame).
  auto dim3Argument = [&](size_t index, uint32_t lane) -> dim3 {
    uint32_t xyz[3] = {1, 1, 1};
    if (index < site.arguments.size()) {
      const CallValue& value = site.arguments[index];
      if (value.row == kNone) {
        const size_t at = size_t{warp.frameBase} + value.frameOffset;
        if (at + sizeof xyz <= context_.localSize)
          std::memcpy(xyz,
                      local_.data() +
                          (size_t{warp.index} * kWarpSize + lane) * context_.localStride + at,
                      sizeof xyz);
      }
    }
    return dim3(xyz[0], xyz[1], xyz[2]);
  };
  const uint32_t pc = warp.stack.back().pc;
  switch (site.builtin) {
  case Builtin::DeviceGetParameterBufferV2:
    forEachLane(lanes, [&](uint32_t lane) {
      result(lane, deviceParameterBuffer(*launch_, argument(0, lane), dim3Argument(1, lane),
                                         dim3Argument(2, lane),
                                         static_cast<uint32_t>(argument(3, lane))));
    });
    return true;
  case Builtin::DeviceGetParameterBuffer:
    forEachLane(lanes, [&](uint32_t lane) {
      result(lane, deviceParameterBuffer(*launch_, argument(1, lane)));
    });
    return true;
  case Builtin::DeviceLaunchV2:
    forEachLane(lanes, [&](uint32_t lane) {
      result(lane, deviceLaunch(*launch_, argument(0, lane), argument(1, lane)));
    });
    return true;
  case Builtin::DeviceLaunch:
    forEachLane(lanes, [&](uint32_t lane) {
      result(lane, deviceLaunch(*launch_, argument(0, lane), argument(1, lane),
                                dim3Argument(2, lane), dim3Argument(3, lane),
                                static_cast<uint32_t>(argument(4, lane)), argument(5, lane)));
    });
    return true;
  case Builtin::DeviceStreamCreate:
  case Builtin::DeviceGetDevice: {
    // cudaStreamCreateWithFlags gives a handle that orders nothing beyond launch order (children
    // run one after another here); cudaGetDevice gives device 0.
    bool ok = true;
    forEachLane(lanes, [&](uint32_t lane) {
      const uint64_t value =
          site.builtin == Builtin::DeviceGetDevice ? 0 : 0x100 + uint64_t{warp.index} * 64 + lane;
      const size_t bytes = site.builtin == Builtin::DeviceGetDevice ? 4 : 8;
      ok = ok && writeGeneric(lane, argument(0, lane), &value, bytes);
      result(lane, 0);
    });
    if (!ok)
      faultAt(warp, FaultKind::IllegalAddress, static_cast<uint32_t>(std::countr_zero(lanes)), pc,
              "device runtime call with an invalid pointer");
    return ok;
  }
  case Builtin::DeviceGetLastError:
  case Builtin::DevicePeekAtLastError:
    forEachLane(lanes, [&](uint32_t lane) {
      result(lane, site.builtin == Builtin::DeviceGetLastError
                       ? launch_->deviceError.exchange(0, std::memory_order_relaxed)
                       : launch_->deviceError.load(std::memory_order_relaxed));
    });
    return true;
  case Builtin::DeviceSuccess:
    forEachLane(lanes, [&](uint32_t lane) { result(lane, 0); });
    return true;
  case Builtin::Vprintf: {
    bool ok = true;
    forEachLane(lanes, [&](uint32_t lane) {
      DeviceReader reader = [&](uint64_t address, void* out, size_t size) {
        return readGeneric(lane, address, out, size);
      };
      int count = 0;
      std::string text = formatDevicePrintf(argument(0, lane), argument(1, lane), reader, &count);
      result(lane, static_cast<uint64_t>(static_cast<int64_t>(count)));
      if (output_ != nullptr && launch_->takePrintfRecord())
        *output_ += text;
    });
    return ok;
  }
  case Builtin::Malloc:
    forEachLane(lanes, [&](uint32_t lane) {
      result(lane, launch_->heap != nullptr ? launch_->heap->allocate(argument(0, lane)) : 0);
    });
    return true;
  case Builtin::Free:
    forEachLane(lanes, [&](uint32_t lane) {
      if (launch_->heap != nullptr)
        launch_->heap->release(argument(0, lane));
    });
    return true;
  case Builtin::AssertFail: {
    const uint32_t lane = static_cast<uint32_t>(std::countr_zero(lanes));
    DeviceReader reader = [&](uint64_t address, void* out, size_t size) {
      return readGeneric(lane, address, out, size);
    };
    const std::string message = readDeviceString(argument(0, lane), reader);
    const std::string file = readDeviceString(argument(1, lane), reader);
    const auto line = static_cast<uint32_t>(argument(2, lane));
    const std::string function = readDeviceString(argument(3, lane), reader);
    forEachLane(lanes, [&](uint32_t l) {
      const dim3 tid = unlinear(uint64_t{warp.index} * kWarpSize + l, launch_->block);
      std::fprintf(stderr,
                   "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n",
                   file.c_str(), line, function.c_str(), ctaid_.x, ctaid_.y, ctaid_.z, tid.x, tid.y,
                   tid.z, message.c_str());
    });
    faultAt(warp, FaultKind::Assert, lane, pc, "assert(" + message + ")");
    return false;
  }
  case Builtin::GraphSetConditional:
    // cudaGraphSetConditional(handle, value): the last lane to set a handle wins, as on a GPU.
    if (launch_->conditionals != nullptr)
      forEachLane(lanes, [&](uint32_t lane) {
        launch_->conditionals->set(argument(0, lane), static_cast<uint32_t>(argument(1, lane)));
      });
    return true;
  default:
    faultAt(warp, FaultKind::IllegalInstruction, static_cast<uint32_t>(std::countr_zero(lanes)), pc,
            "call to a device-runtime function the CPU device does not provide");
    return false;
  }
}

bool CtaExecutor::call(Warp& warp, const DecodedInstruction& in, LaneMask active, LaneMask lanes) {
  const DecodedKernel& k = *kernel_;
  const uint32_t pc = warp.stack.back().pc;
  const CallSite& site = k.callSites[in.aux];
  uint32_t calleeIndex = site.callee;
  if (site.targetRow != kNone) {
    // Indirect: lanes may call different functions; run one group at a time.
    const uint64_t* targets = warp.rows + size_t{site.targetRow} * kWarpSize;
    const uint32_t first = static_cast<uint32_t>(std::countr_zero(lanes));
    LaneMask same = 0;
    forEachLane(lanes, [&](uint32_t lane) {
      if (targets[lane] == targets[first])
        same |= LaneMask{1} << lane;
    });
    if (same != lanes) {
      SimtEntry& top = warp.stack.back();
      top.pc = pc + 1;
      warp.stack.push_back({pc, pc + 1, active & ~same});
      warp.stack.push_back({pc, pc + 1, same});
      return true;
    }
    // Function addresses are relative to the module that took them (CpuModule::functionAddress):
    // one taken in another module, an instrumented copy say, is not a function here.
    auto callee = k.functionAtAddress.find(targets[first]);
    if (callee == k.functionAtAddress.end()) {
      char value[32];
      std::snprintf(value, sizeof value, "0x%llx", static_cast<unsigned long long>(targets[first]));
      faultAt(warp, FaultKind::IllegalInstruction, first, pc,
              std::string("indirect call through ") + value +
                  ", which is not the address of a function of this module");
      return false;
    }
    calleeIndex = callee->second;
  }
  if (site.builtin != Builtin::None ||
      (calleeIndex != kNone && k.functions[calleeIndex].builtin != Builtin::None)) {
    CallSite resolved = site;
    if (site.builtin == Builtin::None)
      resolved.builtin = k.functions[calleeIndex].builtin;
    if (!builtin(warp, resolved, lanes))
      return false;
    warp.stack.back().pc = pc + 1;
    return true;
  }
  const uint32_t firstLane = static_cast<uint32_t>(std::countr_zero(lanes));
  if (calleeIndex == kNone) {
    faultAt(warp, FaultKind::IllegalInstruction, firstLane, pc, "call to an unknown function");
    return false;
  }
  const DecodedFunction& callee = k.functions[calleeIndex];
  if (!callee.error.empty()) {
    faultAt(warp, FaultKind::IllegalInstruction, firstLane, pc, callee.error);
    return false;
  }
  const uint32_t newBase =
      (warp.stackTop + kFrameAlignment - 1) / kFrameAlignment * kFrameAlignment;
  if (size_t{newBase} + callee.frameSize > context_.localSize) {
    faultAt(warp, FaultKind::StackOverflow, firstLane, pc,
            "calls need more than " + std::to_string(context_.localSize) +
                " bytes of local memory per thread");
    return false;
  }
  // Arguments are read before anything is written: with recursion, caller and callee rows are
  // the same rows.
  const size_t count = std::min(site.arguments.size(), callee.parameterOffsets.size());
  std::vector<uint64_t> values(count * kWarpSize);
  for (size_t i = 0; i < count; ++i) {
    const CallValue& argument = site.arguments[i];
    forEachLane(lanes, [&](uint32_t lane) {
      if (argument.row != kNone)
        values[i * kWarpSize + lane] = warp.rows[size_t{argument.row} * kWarpSize + lane];
      else if (callee.parameterRows[i] != kNone)
        values[i * kWarpSize + lane] =
            readFrameValue(warp, warp.frameBase, argument.frameOffset, argument.size, lane);
      else {
        const size_t bytes = std::min(argument.size, callee.parameterSizes[i]);
        std::byte* base =
            local_.data() + (size_t{warp.index} * kWarpSize + lane) * context_.localStride;
        std::memmove(base + newBase + callee.parameterOffsets[i],
                     base + warp.frameBase + argument.frameOffset, bytes);
      }
    });
  }
  bool active_ = false;
  for (const CallFrame& frame : warp.calls)
    active_ = active_ || frame.callee == calleeIndex;
  CallFrame frame{};
  frame.callSite = in.aux;
  frame.callee = calleeIndex;
  frame.savedFrameBase = warp.frameBase;
  frame.savedStackTop = warp.stackTop;
  frame.lanes = lanes;
  frame.spillBegin = warp.spill.size();
  frame.spilled = active_;
  if (active_) {
    const size_t rowWords = size_t{callee.rowEnd - callee.rowBegin} * kWarpSize;
    warp.spill.insert(warp.spill.end(), warp.rows + size_t{callee.rowBegin} * kWarpSize,
                      warp.rows + size_t{callee.rowBegin} * kWarpSize + rowWords);
    for (uint32_t p = callee.predBegin; p < callee.predEnd; ++p)
      warp.spill.push_back(warp.predicates[p]);
  }
  for (size_t i = 0; i < count; ++i) {
    const CallValue& argument = site.arguments[i];
    forEachLane(lanes, [&](uint32_t lane) {
      const uint64_t value = values[i * kWarpSize + lane];
      if (callee.parameterRows[i] != kNone)
        warp.rows[size_t{callee.parameterRows[i]} * kWarpSize + lane] = value;
      else if (argument.row != kNone)
        writeFrameValue(warp, newBase, callee.parameterOffsets[i], callee.parameterSizes[i], lane,
                        value);
    });
  }
  warp.stack.back().pc = pc + 1;
  frame.depth = static_cast<uint32_t>(warp.stack.size());
  warp.calls.push_back(frame);
  warp.stack.push_back({callee.entryPc, kNone, lanes});
  warp.frameBase = newBase;
  warp.stackTop = newBase + callee.frameSize;
  context_.frameBase = warp.frameBase;
  context_.stackTop = warp.stackTop;
  return true;
}

bool CtaExecutor::arrive(Warp& warp, const DecodedInstruction& in, LaneMask active,
                         LaneMask lanes) {
  const uint32_t pc = warp.stack.back().pc;
  const uint32_t first = static_cast<uint32_t>(std::countr_zero(lanes));
  const LaneMask live = warp.valid & ~warp.exited;
  if ((in.aux & kBarrierAligned) && lanes != live) {
    faultAt(warp, FaultKind::BarrierDeadlock, first, pc,
            "barrier divergence: only some threads of the warp reached the barrier");
    return false;
  }
  (void)active;
  const uint32_t id = static_cast<uint32_t>(warp.rows[size_t{in.op[0]} * kWarpSize + first]);
  if (id >= kBarrierCount) {
    faultAt(warp, FaultKind::IllegalInstruction, first, pc, "barrier number out of range");
    return false;
  }
  Barrier& barrier = barriers_[id];
  if (in.op[1] != kNone)
    barrier.expected = static_cast<uint32_t>(warp.rows[size_t{in.op[1]} * kWarpSize + first]);
  if (barrier.arrived == 0)
    ++waitingBarriers_;
  barrier.arrived += static_cast<uint32_t>(std::popcount(live));
  if (in.aux & kBarrierReduce) {
    const LaneMask value = warp.predicates[in.op[3]] & lanes;
    barrier.popc += static_cast<uint32_t>(std::popcount(value));
    barrier.all = barrier.all && value == lanes;
    barrier.any = barrier.any || value != 0;
    warp.reduceDestination = in.op[2];
    warp.reduceFlags = in.aux;
    warp.reduceLanes = lanes;
  } else {
    warp.reduceDestination = kNone;
  }
  warp.stack.back().pc = pc + 1;
  if (in.aux & kBarrierWait) {
    barrier.waiting.push_back(warp.index);
    warp.state = Warp::State::Waiting;
    warp.barrier = id;
  }
  return true;
}

void CtaExecutor::resetBarrier(Barrier& barrier) {
  barrier.arrived = barrier.expected = barrier.popc = 0;
  barrier.all = true;
  barrier.any = false;
  barrier.waiting.clear();
}

void CtaExecutor::arriveNative(Warp& warp, uint32_t id) {
  // arrive() for bar.sync of a constant barrier without a thread count, reached by every live
  // lane (native code checked): the warp waits, resuming after the barrier.
  Barrier& barrier = barriers_[id];
  if (barrier.arrived == 0)
    ++waitingBarriers_;
  barrier.arrived += static_cast<uint32_t>(std::popcount(warp.valid & ~warp.exited));
  warp.reduceDestination = kNone;
  barrier.waiting.push_back(warp.index);
  warp.state = Warp::State::Waiting;
  warp.barrier = id;
}

bool CtaExecutor::releaseBarriers(bool* released) {
  if (waitingBarriers_ == 0)
    return true;
  for (Barrier& barrier : barriers_) {
    if (barrier.arrived == 0)
      continue;
    const uint32_t expected = barrier.expected != 0 ? barrier.expected : liveThreads_;
    if (barrier.arrived < expected)
      continue;
    for (uint32_t index : barrier.waiting) {
      Warp& warp = *warps_[index];
      warp.state = warp.stack.empty() ? Warp::State::Done : Warp::State::Ready;
      if (warp.reduceDestination != kNone) {
        if (warp.reduceFlags & kBarrierRedPopc) {
          forEachLane(warp.reduceLanes, [&](uint32_t lane) {
            warp.rows[size_t{warp.reduceDestination} * kWarpSize + lane] = barrier.popc;
          });
        } else {
          const bool value = (warp.reduceFlags & kBarrierRedAnd) ? barrier.all : barrier.any;
          LaneMask& predicate = warp.predicates[warp.reduceDestination];
          predicate = (predicate & ~warp.reduceLanes) | (value ? warp.reduceLanes : 0);
        }
        warp.reduceDestination = kNone;
      }
    }
    resetBarrier(barrier);
    --waitingBarriers_;
    if (released != nullptr)
      *released = true;
  }
  return true;
}

template <bool Traced> bool CtaExecutor::runWarp(Warp& warp, uint32_t budget) {
  bindContext(warp);
  ExecutionContext& c = context_;
  const DecodedKernel& k = *kernel_;
  const DecodedInstruction* code = k.code.data();
  const auto codeSize = static_cast<uint32_t>(k.code.size());
  uint64_t executed = 0;
  TraceSite site{static_cast<uint32_t>(cta_), warp.index, worker_};
  bool ok = true;
  const NativeKernel* native = Traced ? nullptr : launch_->native;
  uint32_t interpret = kNone;
  while (budget != 0) {
    if (warp.stack.empty()) {
      warp.state = Warp::State::Done;
      break;
    }
    SimtEntry& top = warp.stack.back();
    if (top.pc == top.reconverge || top.mask == 0) {
      warp.stack.pop_back();
      if (!warp.calls.empty() && warp.stack.size() <= warp.calls.back().depth)
        if (!settle(warp))
          return false;
      continue;
    }
    const uint32_t pc = top.pc;
    if constexpr (!Traced) {
      // The LLVM executor's code runs from its entries until it hands an instruction back
      // (`interpret`), which the loop below then runs once.
      if (native != nullptr && pc != interpret && native->isEntry(pc)) {
        const NativeExit exit = runNative(warp, *native, &budget, &executed);
        if (exit == NativeExit::Fault) {
          fault(warp, c.fault, warp.stack.back().pc);
          ok = false;
          break;
        }
        if (exit == NativeExit::Exit) {
          // What Control::Exit does (native code ran the instruction and counted it).
          const LaneMask lanes = native_->exited;
          warp.exited |= lanes;
          liveThreads_ -= static_cast<uint32_t>(std::popcount(lanes));
          removeLanes(warp, lanes, 0);
          if (!settle(warp)) {
            ok = false;
            break;
          }
          interpret = kNone;
          continue;
        }
        if (exit == NativeExit::Barrier) {
          arriveNative(warp, native_->barrier);
          break;
        }
        interpret = exit == NativeExit::Interpret ? warp.stack.back().pc : kNone;
        continue;
      }
      interpret = kNone;
    }
    if (pc >= codeSize) {
      faultAt(warp, FaultKind::InvalidPc, static_cast<uint32_t>(std::countr_zero(top.mask)), pc,
              "no instruction there");
      ok = false;
      break;
    }
    const DecodedInstruction& in = code[pc];
    const LaneMask active = top.mask;
    LaneMask m = active;
    if (in.guard != kNone) {
      const LaneMask guard = c.predicates[in.guard];
      m &= in.guardNegated ? ~guard : guard;
    }
    --budget;
    executed += static_cast<uint64_t>(laneCount(m));
    if constexpr (Traced) {
      c.pc = pc;
      if (in.block != kNone)
        c.tracer->blockEntered(site, in.block, active);
      if (!in.synthetic)
        c.tracer->instruction(site, pc, active, m);
      if (in.memoryAccess && m != 0 && in.op[8] != kNone)
        forEachLane(m, [&](uint32_t lane) {
          c.tracer->memoryAccess(site, pc, lane, laneAddress(c, in, in.op[8], lane));
        });
    }
    switch (in.control) {
    case Control::None:
      if (m != 0 && !in.execute(c, in, m)) {
        fault(warp, c.fault, pc);
        ok = false;
        budget = 0;
        break;
      }
      top.pc = pc + 1;
      break;
    case Control::FallThrough:
      top.pc = pc + 1;
      break;
    case Control::Branch:
      if (m == active) {
        top.pc = in.target;
      } else if (m == 0) {
        top.pc = pc + 1;
      } else {
        const uint32_t join = in.reconverge;
        top.pc = join;
        warp.stack.push_back({pc + 1, join, active & ~m});
        warp.stack.push_back({in.target, join, m});
      }
      break;
    case Control::IndexedBranch: {
      if (m == 0) {
        top.pc = pc + 1;
        break;
      }
      const BranchTable& table = k.branchTables[in.aux];
      const uint64_t* index = c.row(in.op[0]);
      bool bad = false;
      forEachLane(m, [&](uint32_t lane) { bad = bad || index[lane] >= table.targets.size(); });
      if (bad) {
        faultAt(warp, FaultKind::InvalidPc, static_cast<uint32_t>(std::countr_zero(m)), pc,
                "brx.idx index outside its table");
        ok = false;
        budget = 0;
        break;
      }
      const uint32_t join = in.reconverge;
      LaneMask remaining = m;
      const LaneMask idle = active & ~m;
      const uint32_t first = table.targets[index[std::countr_zero(m)]];
      LaneMask same = 0;
      forEachLane(m, [&](uint32_t lane) {
        if (table.targets[index[lane]] == first)
          same |= LaneMask{1} << lane;
      });
      if (same == active) {
        top.pc = first;
        break;
      }
      top.pc = join;
      if (idle != 0)
        warp.stack.push_back({pc + 1, join, idle});
      while (remaining != 0) {
        const uint32_t target = table.targets[index[std::countr_zero(remaining)]];
        LaneMask group = 0;
        forEachLane(remaining, [&](uint32_t lane) {
          if (table.targets[index[lane]] == target)
            group |= LaneMask{1} << lane;
        });
        remaining &= ~group;
        warp.stack.push_back({target, join, group});
      }
      break;
    }
    case Control::Call:
      if (m == 0) {
        top.pc = pc + 1;
        break;
      }
      warp.carry = c.carry;
      if (!call(warp, in, active, m)) {
        ok = false;
        budget = 0;
      }
      break;
    case Control::Return:
      top.pc = pc + 1;
      if (m == 0)
        break;
      if (warp.calls.empty()) {
        warp.exited |= m;
        liveThreads_ -= static_cast<uint32_t>(std::popcount(m));
        removeLanes(warp, m, 0);
      } else {
        removeLanes(warp, m, warp.calls.back().depth);
      }
      if (!settle(warp)) {
        ok = false;
        budget = 0;
      }
      break;
    case Control::Exit:
      top.pc = pc + 1;
      if (m == 0)
        break;
      warp.exited |= m;
      liveThreads_ -= static_cast<uint32_t>(std::popcount(m));
      removeLanes(warp, m, 0);
      if (!settle(warp)) {
        ok = false;
        budget = 0;
      }
      break;
    case Control::Trap:
      if (m == 0) {
        top.pc = pc + 1;
        break;
      }
      faultAt(warp, FaultKind::Trap, static_cast<uint32_t>(std::countr_zero(m)), pc,
              "trap instruction");
      ok = false;
      budget = 0;
      break;
    case Control::Barrier:
      if (m == 0) {
        top.pc = pc + 1;
        break;
      }
      if (!arrive(warp, in, active, m)) {
        ok = false;
        budget = 0;
        break;
      }
      if (warp.state == Warp::State::Waiting)
        budget = 0;
      break;
    case Control::Sleep:
      top.pc = pc + 1;
      budget = 0;
      break;
    }
  }
  warp.carry = c.carry;
  warp.frameBase = c.frameBase;
  warp.stackTop = c.stackTop;
  threadInstructions_ += executed;
  if (warp.stack.empty() && warp.state != Warp::State::Waiting)
    warp.state = Warp::State::Done;
  return ok;
}

NativeExit CtaExecutor::runNative(Warp& warp, const NativeKernel& native, uint32_t* budget,
                                  uint64_t* executed) {
  // The CTA's fields were set by prepare(); these change from warp to warp and call to call.
  NativeWarpState& s = *native_;
  const ExecutionContext& c = context_;
  s.rows = warp.rows;
  s.predicates = warp.predicates;
  s.local = c.local;
  s.frameBase = c.frameBase;
  s.live = warp.valid & ~warp.exited;
  const SimtEntry top = warp.stack.back();
  s.pc = top.pc;
  s.reconverge = top.reconverge;
  s.mask = top.mask;
  s.depth = 0;
  s.budget = *budget;
  s.executed = 0;
  const auto exit = static_cast<NativeExit>(native.function(&s));
  *budget = s.budget > 0 ? static_cast<uint32_t>(s.budget) : 0;
  *executed += s.executed;
  // The entries native code pushed go below the (new) top entry, as the interpreter would have
  // pushed them.
  if (s.depth == 0) {
    warp.stack.back() = {s.pc, s.reconverge, s.mask};
  } else {
    warp.stack.pop_back();
    warp.stack.insert(warp.stack.end(), s.stack, s.stack + s.depth);
    warp.stack.push_back({s.pc, s.reconverge, s.mask});
  }
  return exit;
}

bool CtaExecutor::run(LaunchState& launch, uint64_t cta, std::string* output) {
  begin(launch, cta, output);
  for (;;) {
    const Step result = step();
    if (result != Step::Running)
      return result == Step::Done;
  }
}

void CtaExecutor::begin(LaunchState& launch, uint64_t cta, std::string* output) {
  output_ = output;
  prepare(launch, cta);
}

CtaExecutor::Step CtaExecutor::step() {
  LaunchState& launch = *launch_;
  const bool traced = launch.tracer != nullptr;
  const bool watchdog = launch.options.watchdogMs != 0;
  {
    if (launch.abort.load(std::memory_order_relaxed))
      return Step::Faulted;
    bool ran = false, live = false;
    for (uint32_t w = 0; w < warpCount_; ++w) {
      Warp& warp = *warps_[w];
      if (warp.state == Warp::State::Done)
        continue;
      live = true;
      if (warp.state != Warp::State::Ready)
        continue;
      ran = true;
      const bool ok = traced ? runWarp<true>(warp, kQuantum) : runWarp<false>(warp, kQuantum);
      if (!ok)
        return Step::Faulted;
      releaseBarriers(nullptr);
    }
    if (!live)
      return Step::Done;
    if (!ran) {
      bool released = false;
      releaseBarriers(&released);
      if (!released) {
        for (uint32_t w = 0; w < warpCount_; ++w) {
          const Warp& warp = *warps_[w];
          if (warp.state == Warp::State::Waiting) {
            const uint32_t pc = warp.stack.empty() ? kNone : warp.stack.back().pc - 1;
            faultAt(warp, FaultKind::BarrierDeadlock,
                    static_cast<uint32_t>(std::countr_zero(warp.valid & ~warp.exited)), pc,
                    "barrier " + std::to_string(warp.barrier) +
                        " waits for threads that never arrive");
            return Step::Faulted;
          }
        }
        return Step::Faulted;
      }
    }
    if (watchdog) {
      const auto now = std::chrono::steady_clock::now();
      if (now > launch.deadline) {
        const Warp& warp = *warps_[0];
        faultAt(warp, FaultKind::Timeout, 0, warp.stack.empty() ? kNone : warp.stack.back().pc,
                "the kernel ran longer than OCELOT_CPU_WATCHDOG_MS=" +
                    std::to_string(launch.options.watchdogMs));
        return Step::Faulted;
      }
      if (now > launch.reportAt && !launch.longLaunchReported.exchange(true))
        reportLongLaunch();
    }
  }
  return Step::Running;
}

} // namespace ocelot::runtime::cpu
