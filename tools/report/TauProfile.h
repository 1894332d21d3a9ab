#pragma once

#include "tools/report/ProfileSet.h"

#include <string>
#include <vector>

namespace ocelot::report {

/// Writes the profiles as TAU profile files that TAU's pprof and ParaProf read: one
/// `profile.N.C.T` per GPU stream, N the rank, C 0, T the stream's number among the rank's
/// (device, stream) pairs. Each kernel is a function (calls = launches, exclusive = inclusive =
/// GPU time in microseconds, group TAU_GPU); what bbcount and ctaclock measured per launch are
/// user events ("Dynamic PTX instructions : kernel", "SM load imbalance : kernel",
/// "Basic-block executions : kernel") with count, max, min, mean and sum of squares. The header's
/// metadata names the rank, device and stream. Returns the files written; throws
/// std::runtime_error when the directory cannot be written.
std::vector<std::string> writeTauProfiles(const ProfileSet& set, const std::string& directory);

/// `name` as TAU's readers take it between double quotes: no '"' (they end the name), no line
/// breaks.
std::string tauName(const std::string& name);

} // namespace ocelot::report
