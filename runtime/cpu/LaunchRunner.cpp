#include "runtime/cpu/LaunchRunner.h"

#include "runtime/cpu/DeviceLaunches.h"
#include "runtime/cpu/DeviceMemory.h"
#include "runtime/cpu/EnvironmentNumber.h"
#include "runtime/cpu/ExecutionTracer.h"
#include "runtime/cpu/llvm/NativeCompiler.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>

namespace ocelot::runtime::cpu {
namespace {

/// Worker threads beyond any host's cores (each is a simulated multiprocessor).
constexpr uint32_t kMaxWorkers = 1024;

} // namespace

uint32_t defaultWorkerCount() {
  const uint32_t hardware = std::max(1u, std::thread::hardware_concurrency());
  return environmentNumber("OCELOT_CPU_WORKERS", hardware, 1, kMaxWorkers,
                           "a number of worker threads from 1 to " + std::to_string(kMaxWorkers) +
                               " (default: the host's hardware threads)");
}

LaunchRunner::LaunchRunner(uint32_t workers) : pool_(workers) {
  for (uint32_t i = 0; i < pool_.size(); ++i)
    executors_.push_back(std::make_unique<CtaExecutor>(i));
}

uint64_t LaunchRunner::threadInstructions() const {
  uint64_t total = 0;
  for (const auto& executor : executors_)
    total += executor->threadInstructions();
  return total;
}

/// Cooperative launches: every CTA is resident at once, as grid.sync() needs. The CTAs take turns
/// on the calling thread, each giving its ready warps a time slice per turn, so CTAs spinning on
/// each other's progress always get it.
void runCooperative(LaunchState& launch, std::string* output) {
  const uint64_t ctas = launch.ctaCount();
  std::vector<std::unique_ptr<CtaExecutor>> executors;
  std::vector<std::string> outputs(ctas);
  std::vector<bool> done(ctas, false);
  for (uint64_t cta = 0; cta < ctas; ++cta) {
    executors.push_back(std::make_unique<CtaExecutor>(static_cast<uint32_t>(cta % launch.smCount)));
    executors.back()->begin(launch, cta, &outputs[cta]);
  }
  uint64_t remaining = ctas;
  while (remaining != 0) {
    for (uint64_t cta = 0; cta < ctas && remaining != 0; ++cta) {
      if (done[cta])
        continue;
      const CtaExecutor::Step step = executors[cta]->step();
      if (step == CtaExecutor::Step::Faulted) {
        remaining = 0;
        break;
      }
      if (step == CtaExecutor::Step::Done) {
        done[cta] = true;
        --remaining;
      }
    }
  }
  for (const std::string& text : outputs)
    *output += text;
}

/// CUDA's limit on nested device-side launches.
constexpr uint32_t kMaxLaunchNesting = 24;

void LaunchRunner::runDeviceLaunches(LaunchState& parent, std::string* output) {
  std::vector<DeviceLaunch> launches;
  {
    std::lock_guard lock(parent.deviceLaunchMutex);
    launches.swap(parent.deviceLaunches);
  }
  std::stable_partition(launches.begin(), launches.end(),
                        [](const DeviceLaunch& launch) { return !isTailLaunch(launch); });
  for (const DeviceLaunch& launch : launches) {
    if (launch.launched && !parent.abort.load(std::memory_order_relaxed)) {
      if (parent.nestingDepth + 1 > kMaxLaunchNesting) {
        parent.recordFault(FaultKind::IllegalInstruction,
                           "kernel " + launch.kernel->name +
                               ": device-side launches nested deeper than " +
                               std::to_string(kMaxLaunchNesting) + " levels");
      } else {
        LaunchState child;
        prepareChildLaunch(parent, launch, &child);
        run(child, output);
        if (child.faultKind != FaultKind::None)
          parent.recordFault(child.faultKind, child.faultMessage);
      }
    }
    parent.memory->release(reinterpret_cast<void*>(launch.parameters));
  }
}

void LaunchRunner::run(LaunchState& launch, std::string* output) {
  // The executor: the LLVM executor's native code where there is a compiler and the kernel
  // compiles (traced launches are always interpreted: the trace follows every instruction).
  if (launch.options.compiler != nullptr && launch.memory != nullptr) {
    if (launch.tracer != nullptr) {
      launch.options.compiler->noteInterpreted(*launch.kernel, "its launches are traced");
    } else {
      // The watchdog limits the kernel's run, not its compilation.
      const auto start = std::chrono::steady_clock::now();
      launch.native = launch.options.compiler->nativeFor(*launch.kernel, *launch.memory);
      const auto compiling = std::chrono::steady_clock::now() - start;
      launch.deadline += compiling;
      launch.reportAt += compiling;
    }
  }
  if (launch.cooperative) {
    if (launch.tracer != nullptr)
      launch.tracer->launchBegin(*launch.kernel);
    runCooperative(launch, output);
    if (launch.tracer != nullptr)
      launch.tracer->launchEnd(*launch.kernel);
    runDeviceLaunches(launch, output);
    return;
  }
  std::atomic<uint64_t> next{0};
  const uint64_t ctas = launch.ctaCount();
  const uint32_t used = launch.options.deterministic
                            ? 1
                            : static_cast<uint32_t>(std::min<uint64_t>(pool_.size(), ctas));
  if (launch.tracer != nullptr)
    launch.tracer->launchBegin(*launch.kernel);
  auto job = [&](uint32_t worker) {
    if (worker >= used)
      return;
    std::vector<std::pair<uint64_t, std::string>> produced;
    for (;;) {
      const uint64_t cta = next.fetch_add(1, std::memory_order_relaxed);
      if (cta >= ctas || launch.abort.load(std::memory_order_relaxed))
        break;
      std::string text;
      const bool ok = executors_[worker]->run(launch, cta, &text);
      if (!text.empty())
        produced.emplace_back(cta, std::move(text));
      if (!ok)
        break;
    }
    if (!produced.empty()) {
      std::lock_guard lock(launch.outputMutex);
      for (auto& item : produced)
        launch.output.push_back(std::move(item));
    }
  };
  if (used <= 1)
    job(0);
  else
    pool_.run(job);
  std::stable_sort(launch.output.begin(), launch.output.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& item : launch.output)
    *output += item.second;
  if (launch.tracer != nullptr)
    launch.tracer->launchEnd(*launch.kernel);
  runDeviceLaunches(launch, output);
}

} // namespace ocelot::runtime::cpu
