#include "runtime/driverapi/DirectLaunch.h"

#include "runtime/driverapi/DriverShim.h"

#include <cstdint>

namespace ocelot::runtime::driverapi {
namespace {

/// One remembered kernel of this thread.
struct Slot {
  CUfunction function = nullptr; ///< the stand-in the application holds
  CUfunction target = nullptr;   ///< NVIDIA's function for it
  CUcontext context = nullptr;   ///< current when it was remembered
  std::uint64_t epoch = 0;
};

// A few kernels per thread, by address: programs alternate between a handful of kernels.
constexpr std::uintptr_t kSlots = 8;
thread_local Slot slots[kSlots];

Slot& slotOf(CUfunction function) {
  return slots[(reinterpret_cast<std::uintptr_t>(function) >> 4) % kSlots];
}

/// The thread's current context through NVIDIA's driver (a thread-local read there).
bool currentContext(RealDriver& real, CUcontext* context) {
  static const auto get = OCELOT_REAL_FUNCTION(real, cuCtxGetCurrent);
  return get != nullptr && get(context) == CUDA_SUCCESS;
}

} // namespace

CUfunction DirectLaunch::target(CUfunction function) {
  const OcelotRuntimeBridge& runtime = runtimeCalls();
  const Slot& slot = slotOf(function);
  if (slot.function != function || runtime.instrumentationIdle == nullptr ||
      !runtime.instrumentationIdle->load(std::memory_order_relaxed) ||
      slot.epoch != runtime.directLaunchEpoch->load(std::memory_order_acquire))
    return nullptr;
  RealDriver* real = shim().real();
  CUcontext context = nullptr;
  if (real == nullptr || !currentContext(*real, &context) || context != slot.context)
    return nullptr;
  return slot.target;
}

void DirectLaunch::remember(CUfunction function, const void* stub) {
  const OcelotRuntimeBridge& runtime = runtimeCalls();
  RealDriver* real = shim().real();
  Slot& slot = slotOf(function);
  if (real == nullptr || runtime.directLaunchTarget == nullptr ||
      !runtime.instrumentationIdle->load(std::memory_order_relaxed)) {
    slot = Slot{};
    return;
  }
  // The epoch first: a change after this read makes the slot stale, never wrongly valid.
  const std::uint64_t epoch = runtime.directLaunchEpoch->load(std::memory_order_acquire);
  void* target = nullptr;
  CUcontext context = nullptr;
  if (!runtime.directLaunchTarget(stub, &target) || !currentContext(*real, &context)) {
    slot = Slot{};
    return;
  }
  slot = Slot{function, static_cast<CUfunction>(target), context, epoch};
}

} // namespace ocelot::runtime::driverapi
