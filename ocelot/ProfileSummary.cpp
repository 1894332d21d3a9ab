#include "ocelot/ProfileSummary.h"

#include "ocelot/BasicBlockCounts.h"
#include "ocelot/CtaClockTimes.h"
#include "ocelot/TerminalWidth.h"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace ocelot {

namespace {

std::string shorten(const std::string& name, size_t width) {
  return name.size() <= width ? name : name.substr(0, width - 3) + "...";
}

/// `name` padded to `width` columns (a name longer than that is kept whole).
std::string pad(const std::string& name, size_t width) {
  return name.size() >= width ? name : name + std::string(width - name.size(), ' ');
}

/// The width of a name column: as wide as the longest name, but so that a line of `columns`
/// (0: no limit) still has room for the `rest` of the line; never under `least`.
size_t nameWidth(size_t longest, size_t columns, size_t rest, size_t least) {
  size_t width = std::max(longest, least);
  if (columns != 0 && columns > rest)
    width = std::min(width, std::max(least, columns - rest));
  else if (columns != 0)
    width = least;
  return width;
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

/// The launch sites the summary lists at most (the profile file has them all).
constexpr size_t kMaxSites = 30;

} // namespace

std::string ProfileSummary::callPathText(const std::vector<std::string>& innermostFirst) {
  std::string text;
  for (auto frame = innermostFirst.rbegin(); frame != innermostFirst.rend(); ++frame)
    text += (text.empty() ? "" : " > ") + *frame;
  return text;
}

void ProfileSummary::add(const KernelProfile& profile) {
  std::lock_guard lock(mutex_);
  if (!profile.launch().callPath.empty()) {
    Site& site = sites_[{profile.kernelName(), callPathText(profile.launch().callPath),
                         profile.launch().device, profile.launch().stream}];
    ++site.launches;
    site.gpuMs += profile.timing().gpuMilliseconds.value_or(0);
  }
  DeviceTimes& device = devices_[profile.launch().device];
  device.device = profile.launch().device;
  ++device.kernels;
  device.kernelNs += profile.timing().gpuMilliseconds.value_or(0) * 1e6;
  firstEnqueuedNs_ = std::min(firstEnqueuedNs_, profile.timing().enqueuedNs);
  lastCompletedNs_ = std::max(lastCompletedNs_, profile.timing().completedNs);
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
  (profile.instrumented() ? instrumentedMs_ : otherMs_) +=
      profile.timing().gpuMilliseconds.value_or(0);
  if (!profile.instrumented())
    ++reasons_[profile.notes().empty() ? std::string("no reason recorded")
                                       : profile.notes().back()];
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
  for (const auto& result : profile.results())
    if (result && dynamic_cast<const BasicBlockCounts*>(result.get()) == nullptr &&
        dynamic_cast<const CtaClockTimes*>(result.get()) == nullptr)
      toolLines_[{profile.kernelName(), std::string(result->instrumentor())}] = result->summary();
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

void ProfileSummary::addDeviceWork(DeviceInterval::Kind kind, int device, int64_t enqueuedNs,
                                   double gpuNs) {
  std::lock_guard lock(mutex_);
  const double ns = gpuNs > 0 ? gpuNs : 0;
  DeviceTimes& d = devices_[device];
  d.device = device;
  if (kind == DeviceInterval::Kind::Kernel) {
    ++d.kernels;
    d.kernelNs += ns;
    ++unprofiledKernels_;
    unprofiledKernelNs_ += ns;
  } else {
    ++d.transfers;
    d.transferNs += ns;
  }
  // Its end is not known on the host clock; it ended no earlier than its call plus its length.
  firstEnqueuedNs_ = std::min(firstEnqueuedNs_, enqueuedNs);
  lastCompletedNs_ = std::max(lastCompletedNs_, enqueuedNs + static_cast<int64_t>(ns));
}

void ProfileSummary::setDeviceWorkRecorded() {
  std::lock_guard lock(mutex_);
  deviceWorkRecorded_ = true;
}

void ProfileSummary::setHostApi(const HostApi& api) {
  std::lock_guard lock(mutex_);
  hostApi_ = api;
}

void ProfileSummary::addUnprofiled(const std::string& reason, uint64_t launches) {
  std::lock_guard lock(mutex_);
  unprofiled_[reason] += launches;
}

bool ProfileSummary::empty() const {
  std::lock_guard lock(mutex_);
  return kernels_.empty() && unprofiled_.empty();
}

size_t ProfileSummary::defaultColumns() {
  return terminalColumns(2);
}

std::string ProfileSummary::format(size_t topKernels, size_t topBlocks, size_t columns) const {
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
  // Coverage: what ran instrumented and what did not, and why (one line per reason, counted).
  const size_t kernelsInstrumented = static_cast<size_t>(std::count_if(
      kernels_.begin(), kernels_.end(), [](const auto& e) { return e.second.instrumented > 0; }));
  uint64_t unprofiled = 0;
  for (const auto& [reason, count] : unprofiled_)
    unprofiled += count;
  std::snprintf(line, sizeof line,
                "coverage: %zu of %zu kernels, %llu of %llu launches, %.3f of %.3f GPU ms "
                "instrumented%s\n",
                kernelsInstrumented, kernels_.size(), static_cast<unsigned long long>(instrumented),
                static_cast<unsigned long long>(launches + unprofiled), instrumentedMs_,
                instrumentedMs_ + otherMs_,
                unprofiled == 0 ? "" : " (GPU time of launches without a profile not included)");
  out += line;
  if (!reasons_.empty() || !unprofiled_.empty()) {
    out += "  not instrumented (launches: why)\n";
    for (const auto& [reason, count] : reasons_)
      out += "  " + std::to_string(count) + ": " + reason + "\n";
    for (const auto& [reason, count] : unprofiled_)
      out += "  " + std::to_string(count) + ", no profile: " + reason + "\n";
  }

  std::vector<const std::pair<const std::string, Kernel>*> kernels;
  for (const auto& entry : kernels_)
    kernels.push_back(&entry);
  std::stable_sort(kernels.begin(), kernels.end(), [](const auto* a, const auto* b) {
    if (a->second.instructions != b->second.instructions)
      return a->second.instructions > b->second.instructions;
    return a->second.launches > b->second.launches;
  });
  size_t longestKernel = 0;
  for (const auto& [name, k] : kernels_)
    longestKernel = std::max(longestKernel, k.demangled.size());
  // "  " + name + the numeric columns of each table
  const size_t kernelWidth = nameWidth(longestKernel, columns, 2 + 62, 20);
  out += "\ntop kernels\n";
  std::snprintf(line, sizeof line, " %9s %9s %14s %14s %10s\n", "launches", "instr.", "block execs",
                "instructions", "gpu ms");
  out += "  " + pad("kernel", kernelWidth) + line;
  for (size_t i = 0; i < kernels.size() && i < topKernels; ++i) {
    const Kernel& k = kernels[i]->second;
    std::snprintf(line, sizeof line, " %9llu %9llu %14s %14s %10.3f\n",
                  static_cast<unsigned long long>(k.launches),
                  static_cast<unsigned long long>(k.instrumented),
                  number(k.blockExecutions).c_str(), number(k.instructions).c_str(), k.gpuMs);
    out += "  " + pad(shorten(k.demangled, kernelWidth), kernelWidth) + line;
  }

  if (!blocks_.empty()) {
    std::vector<const std::pair<const BlockKey, Block>*> blocks;
    for (const auto& entry : blocks_)
      blocks.push_back(&entry);
    std::stable_sort(blocks.begin(), blocks.end(), [](const auto* a, const auto* b) {
      return a->second.instructions > b->second.instructions;
    });
    out += "\nhottest basic blocks (by executed instructions)\n";
    std::vector<std::string> names;
    size_t longest = 0, longestSource = 6;
    for (size_t i = 0; i < blocks.size() && i < topBlocks; ++i) {
      const auto& [key, b] = *blocks[i];
      const auto& [kernel, function, index] = key;
      auto k = kernels_.find(kernel);
      std::string who = k != kernels_.end() ? k->second.demangled : kernel;
      if (function != kernel)
        who += " > " + function;
      longest = std::max(longest, who.size());
      longestSource = std::max(longestSource, b.location.size());
      names.push_back(std::move(who));
    }
    const size_t blockWidth = nameWidth(longest, columns, 2 + 55 + 2 + longestSource, 20);
    std::snprintf(line, sizeof line, " %-6s %-16s %14s %14s  %s\n", "block", "label", "executions",
                  "instructions", "source");
    out += "  " + pad("kernel", blockWidth) + line;
    for (size_t i = 0; i < names.size(); ++i) {
      const auto& [key, b] = *blocks[i];
      std::snprintf(line, sizeof line, " B%-5u %-16s %14s %14s  %s\n", std::get<2>(key),
                    shorten(b.label, 16).c_str(), number(b.count).c_str(),
                    number(b.instructions).c_str(), b.location.empty() ? "-" : b.location.c_str());
      out += "  " + pad(shorten(names[i], blockWidth), blockWidth) + line;
    }
  }

  bool clock = std::any_of(kernels_.begin(), kernels_.end(),
                           [](const auto& e) { return e.second.clockLaunches > 0; });
  if (clock) {
    out += "\nper-SM load (ctaclock; imbalance = busiest SM / mean SM busy time, 1.00 = even)\n";
    std::snprintf(line, sizeof line, " %9s %10s %10s %10s\n", "launches", "mean imb.", "max imb.",
                  "SMs used");
    out += "  " + pad("kernel", kernelWidth) + line;
    for (const auto* entry : kernels) {
      const Kernel& k = entry->second;
      if (k.clockLaunches == 0)
        continue;
      std::snprintf(line, sizeof line, " %9llu %10.2f %10.2f %6u/%-4u\n",
                    static_cast<unsigned long long>(k.clockLaunches),
                    k.imbalanceSum / static_cast<double>(k.clockLaunches), k.imbalanceMax,
                    k.smsUsed, k.sms);
      out += "  " + pad(shorten(k.demangled, kernelWidth), kernelWidth) + line;
    }
  }
  if (!sites_.empty()) {
    // Per kernel (in the top kernels' order), its call paths by launches.
    out += "\nlaunch sites (kernel, device, stream; host call path, outermost first)\n";
    std::snprintf(line, sizeof line, " %6s %18s %9s %10s\n", "device", "stream", "launches",
                  "gpu ms");
    out += "  " + pad("kernel", kernelWidth) + line;
    size_t shown = 0;
    for (const auto* entry : kernels) {
      std::vector<const std::pair<const SiteKey, Site>*> sites;
      for (const auto& site : sites_)
        if (std::get<0>(site.first) == entry->first)
          sites.push_back(&site);
      std::stable_sort(sites.begin(), sites.end(), [](const auto* a, const auto* b) {
        return a->second.launches > b->second.launches;
      });
      for (const auto* site : sites) {
        if (shown++ == kMaxSites)
          break;
        const auto& [kernel, path, device, stream] = site->first;
        std::snprintf(line, sizeof line, " %6d %18llx %9llu %10.3f\n", device,
                      static_cast<unsigned long long>(stream),
                      static_cast<unsigned long long>(site->second.launches), site->second.gpuMs);
        out += "  " + pad(shorten(entry->second.demangled, kernelWidth), kernelWidth) + line;
        out += "    at " +
               (columns != 0 && path.size() + 6 > columns
                    ? shorten(path, std::max<size_t>(columns - 6, 20))
                    : path) +
               "\n";
      }
    }
  }
  if (!devices_.empty() && lastCompletedNs_ > firstEnqueuedNs_) {
    // Seed 001's measures. Without host measures only profiled kernels are known: transfers are
    // "not recorded" and GCP counts kernels only (1.00).
    double spanNs = static_cast<double>(lastCompletedNs_ - firstEnqueuedNs_);
    std::snprintf(line, sizeof line,
                  "\nhost-side measures (seed 001) over the profiled span of %.3f ms\n",
                  spanNs / 1e6);
    out += line;
    std::snprintf(line, sizeof line, "  %-8s %9s %14s %14s %8s %8s\n", "device", "kernels",
                  "kernel ms", "transfer ms", "GCP", "GLB");
    out += line;
    auto row = [&](const std::string& device, const DeviceTimes& d, std::optional<double> glb) {
      char transfer[32];
      std::snprintf(transfer, sizeof transfer, "%.3f", d.transferNs / 1e6);
      std::snprintf(line, sizeof line, "  %-8s %9llu %14.3f %14s %8.3f %8.3f\n", device.c_str(),
                    static_cast<unsigned long long>(d.kernels), d.kernelNs / 1e6,
                    deviceWorkRecorded_ ? transfer : "not recorded", d.gcp().value_or(0),
                    glb.value_or(0));
      out += line;
    };
    DeviceTimes all;
    for (const auto& [ordinal, d] : devices_) {
      row("GPU " + std::to_string(ordinal), d, d.glb(spanNs));
      all.kernels += d.kernels;
      all.transfers += d.transfers;
      all.kernelNs += d.kernelNs;
      all.transferNs += d.transferNs;
    }
    // Across devices (as the report): GCP of the sums, GLB the mean of the devices'.
    if (devices_.size() > 1)
      row("all", all, all.glb(spanNs, devices_.size()));
    if (deviceWorkRecorded_) {
      std::string transfers;
      for (const auto& [ordinal, d] : devices_)
        transfers += (transfers.empty() ? "" : ", ") + std::string("GPU ") +
                     std::to_string(ordinal) + " " + std::to_string(d.transfers);
      std::snprintf(line, sizeof line,
                    "  transfers (copies, memsets): %s; kernels without a profile: %llu (%.3f ms, "
                    "in the kernel times)\n",
                    transfers.c_str(), static_cast<unsigned long long>(unprofiledKernels_),
                    unprofiledKernelNs_ / 1e6);
      out += line;
    } else {
      out += "  transfers and kernels without a profile are timed with host measures on "
             "(OCELOT_HOST_MEASURES=1; on with a profile file)\n";
    }
  }
  if (hostApi_ && hostApi_->calls > 0) {
    std::snprintf(line, sizeof line,
                  "host API: %llu calls on %llu thread%s, %.3f ms in calls, %.3f ms of them "
                  "waiting for the device (synchronizations, synchronous copies)\n",
                  static_cast<unsigned long long>(hostApi_->calls),
                  static_cast<unsigned long long>(hostApi_->threads),
                  hostApi_->threads == 1 ? "" : "s", hostApi_->callNs / 1e6,
                  hostApi_->waitingNs / 1e6);
    out += line;
  }
  if (!toolLines_.empty()) {
    out += "\ninstrumentor results (each kernel's last launch)\n";
    for (const auto& [key, text] : toolLines_) {
      auto k = kernels_.find(key.first);
      out += "  " + key.second + ": " + (k != kernels_.end() ? k->second.demangled : key.first) +
             ": " + text + "\n";
    }
  }
  bool notes = std::any_of(kernels_.begin(), kernels_.end(),
                           [](const auto& e) { return !e.second.lastNote.empty(); });
  if (notes) {
    out += "\nnotes\n";
    for (const auto& [name, k] : kernels_)
      if (!k.lastNote.empty())
        out += "  " + k.demangled + ": " + k.lastNote + "\n";
  }
  return out;
}

} // namespace ocelot
