#pragma once

#include "runtime/cpu/CtaExecutor.h"
#include "runtime/cpu/LaunchServices.h"
#include "runtime/cpu/WorkerPool.h"

#include <memory>
#include <string>
#include <vector>

namespace ocelot::runtime::cpu {

/// Runs whole launches: hands the CTAs of a grid to the workers of a pool (each takes the next
/// CTA index from a shared counter), then merges their printf output in CTA order. One executor
/// per worker, kept between launches with their buffers.
class LaunchRunner {
public:
  explicit LaunchRunner(uint32_t workers);

  uint32_t workers() const { return pool_.size(); }
  /// Runs `launch`; on a fault, `launch.faultKind`/`faultMessage` say what happened. The
  /// launch's printf output is returned in `output`.
  void run(LaunchState& launch, std::string* output);
  /// Thread instructions executed so far, all workers together.
  uint64_t threadInstructions() const;

private:
  /// Runs the grids `parent`'s threads launched (dynamic parallelism), then releases their
  /// parameter buffers.
  void runDeviceLaunches(LaunchState& parent, std::string* output);

  WorkerPool pool_;
  std::vector<std::unique_ptr<CtaExecutor>> executors_;
};

/// Workers the device uses: OCELOT_CPU_WORKERS, else the host's hardware threads.
uint32_t defaultWorkerCount();

} // namespace ocelot::runtime::cpu
