#include "runtime/cpu/CtaExecutor.h"

#include "runtime/cpu/CtaExecutorWarp.h"
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

} // namespace

CtaExecutor::CtaExecutor(uint32_t worker)
    : worker_(worker), native_(std::make_unique<NativeWarpState>()) {}

CtaExecutor::~CtaExecutor() = default;

void CtaExecutor::removeLanes(Warp& warp, LaneMask lanes, size_t fromDepth) {
  for (size_t i = fromDepth; i < warp.stack.size(); ++i)
    warp.stack[i].mask &= ~lanes;
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

template <bool Traced> bool CtaExecutor::runWarp(Warp& warp, uint32_t budget) {
  // The warp running: native code may go on with other warps of the CTA at barriers.
  Warp* w = &warp;
  bindContext(*w);
  ExecutionContext& c = context_;
  const DecodedKernel& k = *kernel_;
  const DecodedInstruction* code = k.code.data();
  const auto codeSize = static_cast<uint32_t>(k.code.size());
  uint64_t executed = 0;
  TraceSite site{static_cast<uint32_t>(cta_), w->index, worker_};
  bool ok = true;
  const NativeKernel* native = Traced ? nullptr : launch_->native;
  uint32_t interpret = kNone;
  while (budget != 0) {
    if (w->stack.empty()) {
      w->state = Warp::State::Done;
      break;
    }
    SimtEntry& top = w->stack.back();
    if (top.pc == top.reconverge || top.mask == 0) {
      w->stack.pop_back();
      if (!w->calls.empty() && w->stack.size() <= w->calls.back().depth)
        if (!settle(*w))
          return false;
      continue;
    }
    const uint32_t pc = top.pc;
    if constexpr (!Traced) {
      // The LLVM executor's code runs from its entries until it hands an instruction back
      // (`interpret`), which the loop below then runs once.
      if (native != nullptr && pc != interpret && native->isEntry(pc)) {
        const NativeExit exit = runNative(w, *native, &budget, &executed);
        if (exit == NativeExit::Fault) {
          fault(*w, c.fault, w->stack.back().pc);
          ok = false;
          break;
        }
        if (exit == NativeExit::Exit) {
          // What Control::Exit does (native code ran the instruction and counted it).
          const LaneMask lanes = native_->exited;
          w->exited |= lanes;
          liveThreads_ -= static_cast<uint32_t>(std::popcount(lanes));
          removeLanes(*w, lanes, 0);
          if (!settle(*w)) {
            ok = false;
            break;
          }
          interpret = kNone;
          continue;
        }
        if (exit == NativeExit::Barrier) {
          arriveNative(*w, native_->barrier);
          break;
        }
        if (exit == NativeExit::Arrived) {
          // nextNativeWarp did the rest: the warp waits, is done, or goes on from its stack.
          if (w->state != Warp::State::Ready)
            break;
          interpret = kNone;
          continue;
        }

        interpret = exit == NativeExit::Interpret ? w->stack.back().pc : kNone;
        continue;
      }
      interpret = kNone;
    }
    if (pc >= codeSize) {
      faultAt(*w, FaultKind::InvalidPc, static_cast<uint32_t>(std::countr_zero(top.mask)), pc,
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
        fault(*w, c.fault, pc);
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
        w->stack.push_back({pc + 1, join, active & ~m});
        w->stack.push_back({in.target, join, m});
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
        faultAt(*w, FaultKind::InvalidPc, static_cast<uint32_t>(std::countr_zero(m)), pc,
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
        w->stack.push_back({pc + 1, join, idle});
      while (remaining != 0) {
        const uint32_t target = table.targets[index[std::countr_zero(remaining)]];
        LaneMask group = 0;
        forEachLane(remaining, [&](uint32_t lane) {
          if (table.targets[index[lane]] == target)
            group |= LaneMask{1} << lane;
        });
        remaining &= ~group;
        w->stack.push_back({target, join, group});
      }
      break;
    }
    case Control::Call:
      if (m == 0) {
        top.pc = pc + 1;
        break;
      }
      w->carry = c.carry;
      if (!call(*w, in, active, m)) {
        ok = false;
        budget = 0;
      }
      break;
    case Control::Return:
      top.pc = pc + 1;
      if (m == 0)
        break;
      if (w->calls.empty()) {
        w->exited |= m;
        liveThreads_ -= static_cast<uint32_t>(std::popcount(m));
        removeLanes(*w, m, 0);
      } else {
        removeLanes(*w, m, w->calls.back().depth);
      }
      if (!settle(*w)) {
        ok = false;
        budget = 0;
      }
      break;
    case Control::Exit:
      top.pc = pc + 1;
      if (m == 0)
        break;
      w->exited |= m;
      liveThreads_ -= static_cast<uint32_t>(std::popcount(m));
      removeLanes(*w, m, 0);
      if (!settle(*w)) {
        ok = false;
        budget = 0;
      }
      break;
    case Control::Trap:
      if (m == 0) {
        top.pc = pc + 1;
        break;
      }
      faultAt(*w, FaultKind::Trap, static_cast<uint32_t>(std::countr_zero(m)), pc,
              "trap instruction");
      ok = false;
      budget = 0;
      break;
    case Control::Barrier:
      if (m == 0) {
        top.pc = pc + 1;
        break;
      }
      if (!arrive(*w, in, active, m)) {
        ok = false;
        budget = 0;
        break;
      }
      if (w->state == Warp::State::Waiting)
        budget = 0;
      break;
    case Control::Sleep:
      top.pc = pc + 1;
      budget = 0;
      break;
    }
  }
  w->carry = c.carry;
  w->frameBase = c.frameBase;
  w->stackTop = c.stackTop;
  threadInstructions_ += executed;
  if (w->stack.empty() && w->state != Warp::State::Waiting)
    w->state = Warp::State::Done;
  return ok;
}

NativeExit CtaExecutor::runNative(Warp*& warp, const NativeKernel& native, uint32_t* budget,
                                  uint64_t* executed) {
  // The CTA's fields were set by prepare(); these change from warp to warp and call to call.
  NativeWarpState& s = *native_;
  bindNative(*warp);
  s.budget = *budget;
  s.nextWarp = &CtaExecutor::nextNativeWarp;
  s.scheduler = this;
  nativeWarp_ = warp;
  nativeExecuted_ = 0;
  const auto exit = static_cast<NativeExit>(native.function(&s));
  // Native code may have gone on with other warps at barriers (nextNativeWarp): what it returns
  // is the state of the warp it ran last.
  warp = nativeWarp_;
  *budget = s.budget > 0 ? static_cast<uint32_t>(s.budget) : 0;
  *executed += s.executed + nativeExecuted_;
  if (exit == NativeExit::Arrived)
    return exit; // nextNativeWarp left the warp's stack as the interpreter needs it
  // The entries native code pushed go below the (new) top entry, as the interpreter would have
  // pushed them.
  if (s.depth == 0) {
    warp->stack.back() = {s.pc, s.reconverge, s.mask};
  } else {
    warp->stack.pop_back();
    warp->stack.insert(warp->stack.end(), s.stack, s.stack + s.depth);
    warp->stack.push_back({s.pc, s.reconverge, s.mask});
  }
  return exit;
}

void CtaExecutor::bindNative(const Warp& warp) {
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
  s.executed = 0;
}

uint32_t CtaExecutor::nextNativeWarp(NativeWarpState* state) {
  auto& self = *static_cast<CtaExecutor*>(state->scheduler);
  return self.switchNativeWarp();
}

uint32_t CtaExecutor::switchNativeWarp() {
  // The warp arrives or its lanes leave as after NativeExit::Barrier / Exit (runNative's and
  // runWarp's bookkeeping, then arriveNative or removing the lanes), and barriers release as
  // step() would release them after the warp's turn.
  NativeWarpState& s = *native_;
  Warp& warp = *nativeWarp_;
  warp.stack.back() = {s.pc, s.reconverge, s.mask};
  nativeExecuted_ += s.executed;
  s.executed = 0;
  warp.carry = context_.carry;
  warp.frameBase = context_.frameBase;
  warp.stackTop = context_.stackTop;
  if (s.exited != 0) {
    // What runWarp does for NativeExit::Exit (calls are never open in native code's warps).
    const LaneMask lanes = s.exited;
    warp.exited |= lanes;
    liveThreads_ -= static_cast<uint32_t>(std::popcount(lanes));
    removeLanes(warp, lanes, 0);
    if (!settle(warp) || warp.state != Warp::State::Done)
      return 0;
  } else {
    arriveNative(warp, s.barrier);
  }
  releaseBarriers(nullptr);
  if (s.budget <= 0)
    return 0;
  // The next warp step() would run, if native code can run it: the next ready one in index
  // order (this one again when the barrier released it and the others are done), at a native
  // entry outside calls and pops. Otherwise the interpreter's loop takes over.
  for (uint32_t i = 1; i <= warpCount_; ++i) {
    Warp& next = *warps_[(warp.index + i) % warpCount_];
    if (next.state != Warp::State::Ready)
      continue;
    if (next.stack.empty() || !next.calls.empty())
      return 0;
    const SimtEntry& top = next.stack.back();
    if (top.mask == 0 || top.pc == top.reconverge || !launch_->native->isEntry(top.pc))
      return 0;
    bindContext(next);
    bindNative(next);
    nativeWarp_ = &next;
    return 1;
  }
  return 0;
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
