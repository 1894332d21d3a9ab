// rdc_three_units, unit 2 of 3: the loop body's device function, which calls into unit 3.
#include "rdc.h"

__device__ __noinline__ unsigned step(unsigned acc, int i) {
  return mix(acc) ^ mix(static_cast<unsigned>(i));
}
