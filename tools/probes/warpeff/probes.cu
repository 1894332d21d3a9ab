// warpeff counts what instmix counts: block entries of warps and lanes, and the lanes guarded
// instructions skip (see ../instmix/probes.cu).
#include "../instmix/probes.cu"
