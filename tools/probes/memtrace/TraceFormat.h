#pragma once
// memtrace's records and trace file (docs/probe-tools.md), shared by its probes and its host side.
//
// The file is a sequence of zstd frames, one per launch (`zstd -dc FILE` gives them back to back).
// Each frame holds a LaunchHeader, the kernel's name (kernelNameBytes bytes), then `records`
// WarpAccess records.
namespace memtrace {

/// One warp-level memory access: what each active lane addressed, and where.
struct WarpAccess {
  unsigned long long addresses[32]; ///< by lane; lanes outside `mask` are 0
  unsigned int instruction;         ///< the instruction id (the profile's `instructions`)
  unsigned int cta;                 ///< linear CTA index (x fastest)
  unsigned int warp;                ///< warp index in the CTA
  unsigned int mask;                ///< the lanes that accessed memory
  unsigned int bytes;               ///< bytes per lane
  unsigned int spaceAndKind;        ///< state space (ocelot::probe::StateSpace) << 8 | access kind
};

struct LaunchHeader {
  char magic[8];                ///< "OCMTRC1" and a 0
  unsigned long long launchId;  ///< the profile's launch_id
  unsigned long long records;   ///< WarpAccess records that follow
  unsigned long long dropped;   ///< accesses of this launch not in the file (capacity, size cap)
  unsigned int recordBytes;     ///< sizeof(WarpAccess)
  unsigned int kernelNameBytes; ///< the kernel's (mangled) name follows the header
};

} // namespace memtrace
