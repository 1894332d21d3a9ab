#include "runtime/fatbin/Selection.h"

namespace ocelot::runtime::fatbin {
namespace {

/// Orders entries of one architecture: the more specific build wins a tie.
int specificity(const Entry& entry) {
  if (entry.archSpecific())
    return 2;
  return entry.familySpecific() ? 1 : 0;
}

/// True when `candidate` is a better choice than `best` (which may be null).
bool better(const Entry& candidate, const Entry* best) {
  if (best == nullptr)
    return true;
  if (candidate.arch != best->arch)
    return candidate.arch > best->arch;
  return specificity(candidate) > specificity(*best);
}

} // namespace

bool ptxRunsOn(const Entry& entry, ComputeCapability device) {
  if (!entry.is(EntryKind::Ptx))
    return false;
  auto target = ComputeCapability::fromNumber(entry.arch);
  if (entry.archSpecific())
    return target == device;
  if (entry.familySpecific())
    return target.major == device.major && target.minor <= device.minor;
  return entry.arch <= device.number();
}

bool cubinRunsOn(const Entry& entry, ComputeCapability device) {
  if (!entry.is(EntryKind::Cubin))
    return false;
  auto target = ComputeCapability::fromNumber(entry.arch);
  if (entry.archSpecific())
    return target == device;
  return target.major == device.major && target.minor <= device.minor;
}

const Entry* selectPtx(std::span<const Entry* const> entries, ComputeCapability device) {
  const Entry* best = nullptr;
  for (const Entry* entry : entries)
    if (ptxRunsOn(*entry, device) && better(*entry, best))
      best = entry;
  return best;
}

const Entry* selectCubin(std::span<const Entry* const> entries, ComputeCapability device) {
  const Entry* best = nullptr;
  for (const Entry* entry : entries)
    if (cubinRunsOn(*entry, device) && better(*entry, best))
      best = entry;
  return best;
}

} // namespace ocelot::runtime::fatbin
