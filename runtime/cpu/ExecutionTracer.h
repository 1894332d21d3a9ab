#pragma once

#include "runtime/cpu/DecodedKernel.h"
#include "runtime/cpu/Lanes.h"

#include <cstdint>

namespace ocelot::runtime::cpu {

/// Where a traced event happened: the CTA (linear index) and warp within it.
struct TraceSite {
  uint32_t cta = 0;
  uint32_t warp = 0;
  uint32_t worker = 0; ///< the host worker (%smid) running the CTA
};

/// Observes a launch on the CPU device, for tests and for checking instrumentation against an
/// independent reference. Attached per launch; calls come from several worker threads at once
/// (one CTA is always on one thread), so implementations synchronize or keep per-worker state.
/// A traced launch runs a separate instantiation of the interpreter loop, so the hooks cost
/// nothing when no tracer is attached.
class ExecutionTracer {
public:
  virtual ~ExecutionTracer() = default;
  virtual void launchBegin(const DecodedKernel& /*kernel*/) {}
  virtual void launchEnd(const DecodedKernel& /*kernel*/) {}
  /// A launch of `kernel` the device refused (bad configuration): it ran nothing, but it counts
  /// as a launch, as it does for the instrumentation runtime.
  virtual void launchRejected(const DecodedKernel& /*kernel*/) {}
  /// A warp entered program block `block` (DecodedKernel::blocks) with `active` lanes.
  virtual void blockEntered(const TraceSite& /*site*/, uint32_t /*block*/, LaneMask /*active*/) {}
  /// A PTX instruction (decoder-made ones are not reported) ran for `executed` lanes (guard
  /// applied) out of `active`.
  virtual void instruction(const TraceSite& /*site*/, uint32_t /*pc*/, LaneMask /*active*/,
                           LaneMask /*executed*/) {}
  /// One lane's memory access, before it happens. `address` is in the instruction's state space
  /// (shared and local: offsets; generic and global: addresses).
  virtual void memoryAccess(const TraceSite& /*site*/, uint32_t /*pc*/, uint32_t /*lane*/,
                            uint64_t /*address*/) {}
};

} // namespace ocelot::runtime::cpu
