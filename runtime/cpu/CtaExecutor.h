#pragma once

#include "runtime/cpu/DecodedKernel.h"
#include "runtime/cpu/ExecutionContext.h"
#include "runtime/cpu/LaunchServices.h"
#include "runtime/cpu/LazyBuffer.h"
#include "runtime/cpu/NativeCode.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ocelot::runtime::cpu {

/// Runs CTAs of a launch on one host thread: the warps of a CTA take turns (a warp runs until it
/// waits at a barrier, sleeps or has used its time slice), and each warp is interpreted one
/// instruction at a time for all of its active lanes. Divergence is handled by a per-warp stack
/// of (pc, lanes, reconvergence pc) entries, joining at immediate post-dominators. Buffers (the
/// register file, shared and local memory) are kept between CTAs, so a worker allocates nothing
/// per CTA once it has run the largest one.
class CtaExecutor {
public:
  explicit CtaExecutor(uint32_t worker);
  ~CtaExecutor();
  CtaExecutor(const CtaExecutor&) = delete;
  CtaExecutor& operator=(const CtaExecutor&) = delete;

  /// Runs CTA `cta` (linear index) of `launch`. False when it faulted (recorded in `launch`).
  bool run(LaunchState& launch, uint64_t cta, std::string* output);

  /// The same in steps, for cooperative launches whose CTAs must all make progress together:
  /// begin() sets the CTA up, each step() gives every ready warp one time slice.
  enum class Step : uint8_t { Running, Done, Faulted };
  void begin(LaunchState& launch, uint64_t cta, std::string* output);
  Step step();

  /// Warp instructions executed by this worker (for the benchmark's thread-instruction counts).
  uint64_t threadInstructions() const { return threadInstructions_; }

  struct Warp;

private:
  template <bool Traced> bool runWarp(Warp& warp, uint32_t budget);
  NativeExit runNative(Warp*& warp, const NativeKernel& native, uint32_t* budget,
                       uint64_t* executed);
  void bindNative(const Warp& warp);
  /// NativeWarpState::nextWarp: a warp arrived at a barrier in native code (see NativeCode.h).
  static uint32_t nextNativeWarp(NativeWarpState* state);
  uint32_t switchNativeWarp();
  bool prepare(LaunchState& launch, uint64_t cta);
  void bindContext(Warp& warp);
  void removeLanes(Warp& warp, LaneMask lanes, size_t fromDepth);
  bool settle(Warp& warp);
  bool call(Warp& warp, const DecodedInstruction& in, LaneMask active, LaneMask lanes);
  bool builtin(Warp& warp, const CallSite& site, LaneMask lanes);
  bool finishCall(Warp& warp);
  bool arrive(Warp& warp, const DecodedInstruction& in, LaneMask active, LaneMask lanes);
  void arriveNative(Warp& warp, uint32_t id);
  bool releaseBarriers(bool* released);
  void fault(const Warp& warp, const Fault& fault, uint32_t pc);
  /// Tells the user that the launch has run for ExecutionOptions::longLaunchReportMs (stderr, once
  /// per launch).
  void reportLongLaunch() const;
  void faultAt(const Warp& warp, FaultKind kind, uint32_t lane, uint32_t pc, std::string detail);
  uint64_t readFrameValue(const Warp& warp, uint32_t base, uint32_t offset, uint32_t size,
                          uint32_t lane) const;
  void writeFrameValue(Warp& warp, uint32_t base, uint32_t offset, uint32_t size, uint32_t lane,
                       uint64_t value);
  bool readGeneric(uint32_t lane, uint64_t address, void* out, size_t size);
  bool writeGeneric(uint32_t lane, uint64_t address, const void* in, size_t size);

  uint32_t worker_;
  LaunchState* launch_ = nullptr;
  const DecodedKernel* kernel_ = nullptr;
  uint64_t cta_ = 0;
  dim3 ctaid_;
  std::string* output_ = nullptr;
  ExecutionContext context_;
  LaunchServices services_;

  std::vector<uint64_t> rows_;
  std::vector<LaneMask> predicates_;
  std::vector<std::byte> shared_;
  LazyBuffer local_; ///< per-thread stacks: pages come as recursion reaches them
  std::vector<std::unique_ptr<Warp>> warps_;
  std::unique_ptr<NativeWarpState> native_; ///< what the LLVM executor's code sees of a warp
  Warp* nativeWarp_ = nullptr;  ///< the warp native code runs (nextNativeWarp switches it)
  uint64_t nativeExecuted_ = 0; ///< thread instructions of warps native code switched from
  uint32_t warpCount_ = 0;
  uint32_t waitingBarriers_ = 0; ///< barriers some thread has arrived at
  // The launch whose constant and special rows the register file holds (see prepare()).
  const DecodedKernel* preparedKernel_ = nullptr;
  uint64_t preparedGrid_ = 0;
  uintptr_t preparedParameters_ = 0;
  uint32_t preparedWarps_ = 0;
  uint32_t liveThreads_ = 0;

  struct Barrier {
    uint32_t arrived = 0;
    uint32_t expected = 0; ///< 0: every live thread of the CTA
    uint32_t popc = 0;
    bool all = true, any = false;
    std::vector<uint32_t> waiting; ///< warp indices
  };
  std::vector<Barrier> barriers_;
  static void resetBarrier(Barrier& barrier);
  uint64_t threadInstructions_ = 0;
};

} // namespace ocelot::runtime::cpu
