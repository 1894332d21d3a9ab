#pragma once

#include <optional>
#include <string>

namespace ocelot::tools {

/// The rank of this process in an MPI job, from what launchers put in the environment:
/// OMPI_COMM_WORLD_RANK (Open MPI), PMI_RANK (MPICH, Intel MPI), SLURM_PROCID (srun); nullopt
/// outside MPI.
std::optional<int> mpiRank();

/// `path` with ".rank<N>" before its extension (profile.json -> profile.rank3.json; a name
/// without extension gets it at the end), so that the processes of one job write apart.
std::string rankedPath(const std::string& path, int rank);

} // namespace ocelot::tools
