// Declarations shared by the three translation units of rdc_three_units.
#pragma once

// step.cu: one loop iteration; calls mix() twice.
__device__ unsigned step(unsigned acc, int i);
// mix.cu: a branch-free hash step, and the value each thread stores at the end.
__device__ unsigned mix(unsigned x);
__device__ unsigned finish(unsigned acc);
