#include "ocelot/ProfileSummary.h"

#include "ocelot/BasicBlockCounts.h"
#include "ocelot/CtaClockTimes.h"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace ocelot {

namespace {

std::string shorten(const std::string& name, size_t width) {
  return name.size() <= width ? name : name.substr(0, width - 3) + "...";
}

/// 1234567 -> "1.23e+06" only when large; plain digits otherwise, so small counts stay exact.
std::string number(uint64_t value) {
  char text[32];
  if (value < 10000000)
    std::snprintf(text, sizeof text, "%llu", static_cast<unsigned long long>(value));
  else
    std::snprintf(text, sizeof text, "%.3g", static_cast<double>(value));
  return text;
}

} // namespace

void ProfileSummary::add(const KernelProfile& profile) {
  std::lock_guard lock(mutex_);
  Kernel& k = kernels_[profile.kernelName()];
  k.demangled = profile.demangledName();
  ++k.launches;
  if (profile.instrumented())
    ++k.instrumented;
  if (profile.failed())
    ++k.failed;
  if (!profile.notes().empty())
    k.lastNote = profile.notes().back();
  if (profile.timing().gpuMilliseconds)
    k.gpuMs += *profile.timing().gpuMilliseconds;
  if (const auto* counts = profile.result<BasicBlockCounts>()) {
    k.blockExecutions += counts->blockExecutions();
    k.instructions += counts->dynamicInstructions();
    for (const auto& b : counts->blocks()) {
      if (b.count == 0)
        continue;
      Block& block = blocks_[{profile.kernelName(), b.function, b.index}];
      block.count += b.count;
      block.instructions += b.count * b.instructions;
      block.label = b.label;
      block.location = b.location;
    }
  }
  if (const auto* clock = profile.result<CtaClockTimes>()) {
    ++k.clockLaunches;
    k.imbalanceSum += clock->imbalance();
    k.imbalanceMax = std::max(k.imbalanceMax, clock->imbalance());
    k.ctas += clock->ctas().size();
    k.sms = static_cast<uint32_t>(clock->sms().size());
    k.smsUsed = static_cast<uint32_t>(std::count_if(clock->sms().begin(), clock->sms().end(),
                                                    [](const auto& sm) { return sm.ctas > 0; }));
  }
}

bool ProfileSummary::empty() const {
  std::lock_guard lock(mutex_);
  return kernels_.empty();
}

std::string ProfileSummary::format(size_t topKernels, size_t topBlocks) const {
  std::lock_guard lock(mutex_);
  std::string out;
  char line[512];
  uint64_t launches = 0, instrumented = 0, failed = 0, instructions = 0;
  for (const auto& [name, k] : kernels_) {
    launches += k.launches;
    instrumented += k.instrumented;
    failed += k.failed;
    instructions += k.instructions;
  }
  std::string failures =
      failed == 0 ? "" : ", " + std::to_string(failed) + " failed, results dropped";
  std::snprintf(line, sizeof line,
                "== Ocelot: %zu kernels, %llu launches profiled (%llu instrumented%s), %s dynamic "
                "PTX instructions\n",
                kernels_.size(), static_cast<unsigned long long>(launches),
                static_cast<unsigned long long>(instrumented), failures.c_str(),
                number(instructions).c_str());
  out += line;

  std::vector<const std::pair<const std::string, Kernel>*> kernels;
  for (const auto& entry : kernels_)
    kernels.push_back(&entry);
  std::stable_sort(kernels.begin(), kernels.end(), [](const auto* a, const auto* b) {
    if (a->second.instructions != b->second.instructions)
      return a->second.instructions > b->second.instructions;
    return a->second.launches > b->second.launches;
  });
  out += "\ntop kernels\n";
  std::snprintf(line, sizeof line, "  %-44s %9s %9s %14s %14s %10s\n", "kernel", "launches",
                "instr.", "block execs", "instructions", "gpu ms");
  out += line;
  for (size_t i = 0; i < kernels.size() && i < topKernels; ++i) {
    const Kernel& k = kernels[i]->second;
    std::snprintf(line, sizeof line, "  %-44s %9llu %9llu %14s %14s %10.3f\n",
                  shorten(k.demangled, 44).c_str(), static_cast<unsigned long long>(k.launches),
                  static_cast<unsigned long long>(k.instrumented),
                  number(k.blockExecutions).c_str(), number(k.instructions).c_str(), k.gpuMs);
    out += line;
  }

  if (!blocks_.empty()) {
    std::vector<const std::pair<const BlockKey, Block>*> blocks;
    for (const auto& entry : blocks_)
      blocks.push_back(&entry);
    std::stable_sort(blocks.begin(), blocks.end(), [](const auto* a, const auto* b) {
      return a->second.instructions > b->second.instructions;
    });
    out += "\nhottest basic blocks (by executed instructions)\n";
    std::snprintf(line, sizeof line, "  %-34s %-6s %-16s %14s %14s  %s\n", "kernel", "block",
                  "label", "executions", "instructions", "source");
    out += line;
    for (size_t i = 0; i < blocks.size() && i < topBlocks; ++i) {
      const auto& [key, b] = *blocks[i];
      const auto& [kernel, function, index] = key;
      auto k = kernels_.find(kernel);
      std::string who = k != kernels_.end() ? k->second.demangled : kernel;
      if (function != kernel)
        who += " > " + function;
      std::snprintf(line, sizeof line, "  %-34s B%-5u %-16s %14s %14s  %s\n",
                    shorten(who, 34).c_str(), index, shorten(b.label, 16).c_str(),
                    number(b.count).c_str(), number(b.instructions).c_str(),
                    b.location.empty() ? "-" : b.location.c_str());
      out += line;
    }
  }

  bool clock = std::any_of(kernels_.begin(), kernels_.end(),
                           [](const auto& e) { return e.second.clockLaunches > 0; });
  if (clock) {
    out += "\nper-SM load (ctaclock; imbalance = busiest SM / mean SM busy time, 1.00 = even)\n";
    std::snprintf(line, sizeof line, "  %-44s %9s %10s %10s %10s\n", "kernel", "launches",
                  "mean imb.", "max imb.", "SMs used");
    out += line;
    for (const auto* entry : kernels) {
      const Kernel& k = entry->second;
      if (k.clockLaunches == 0)
        continue;
      std::snprintf(
          line, sizeof line, "  %-44s %9llu %10.2f %10.2f %6u/%-4u\n",
          shorten(k.demangled, 44).c_str(), static_cast<unsigned long long>(k.clockLaunches),
          k.imbalanceSum / static_cast<double>(k.clockLaunches), k.imbalanceMax, k.smsUsed, k.sms);
      out += line;
    }
  }
  bool notes = std::any_of(kernels_.begin(), kernels_.end(),
                           [](const auto& e) { return !e.second.lastNote.empty(); });
  if (notes) {
    out += "\nnotes\n";
    for (const auto& [name, k] : kernels_)
      if (!k.lastNote.empty())
        out += "  " + shorten(k.demangled, 44) + ": " + k.lastNote + "\n";
  }
  return out;
}

} // namespace ocelot
