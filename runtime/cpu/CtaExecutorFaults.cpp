// Faults and long launches: messages that say which kernel, CTA, thread and PTX line.

#include "runtime/cpu/CtaExecutor.h"
#include "runtime/cpu/CtaExecutorWarp.h"

#include <cstdio>
#include <string>

namespace ocelot::runtime::cpu {
namespace {

std::string triple(dim3 value) {
  return "(" + std::to_string(value.x) + "," + std::to_string(value.y) + "," +
         std::to_string(value.z) + ")";
}

} // namespace

void LaunchState::recordFault(FaultKind kind, std::string message) {
  std::lock_guard lock(faultMutex);
  if (faultKind == FaultKind::None) {
    faultKind = kind;
    faultMessage = std::move(message);
  }
  abort.store(true, std::memory_order_relaxed);
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

} // namespace ocelot::runtime::cpu
