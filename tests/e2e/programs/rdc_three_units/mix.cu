// rdc_three_units, unit 3 of 3: leaf device functions, called from units 1 and 2.
#include "rdc.h"

__device__ __noinline__ unsigned mix(unsigned x) {
  return x * 2654435761u + 0x9e3779b9u;
}

__device__ __noinline__ unsigned finish(unsigned acc) {
  return acc ^ (acc >> 16);
}
