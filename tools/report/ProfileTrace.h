#pragma once

#include "tools/report/ProfileSet.h"
#include "tools/report/TraceEvents.h"

namespace ocelot::report {

/// Adds what profiles know to a trace: per rank and device, a lane per stream with each kernel
/// as a slice (its GPU time from the profile's events, else ctaclock's span); per SM a lane of
/// CTAs from ctaclock (CTAs resident on one SM at once in sub-lanes); a host lane per rank with
/// each launch call and a flow arrow from it to its kernel.
///
/// Profiles carry the host clock of the launch call (enqueued_ns) and the kernel's duration, not
/// the kernel's start in host time: a kernel starts at its launch call or when the previous kernel
/// of its stream ended, whichever is later. Times are microseconds from the earliest launch.
/// Returns the number of kernels added.
size_t addProfilesToTrace(const ProfileSet& set, TraceEvents& trace,
                          size_t maxCtasPerLaunch = 20000);

} // namespace ocelot::report
