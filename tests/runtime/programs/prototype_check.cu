// Compile-only check: Ocelot's declarations of the compiler entry points (runtime/api/
// CompilerEntryPoints.h) next to NVIDIA's own, which nvcc's host compilation brings in
// (crt/host_runtime.h, crt/device_functions.h). Any difference in a prototype fails this build.
#include "runtime/api/CompilerEntryPoints.h"

__global__ void kernel(int* p) {
  *p = 0;
}

void launch(int* p) {
  kernel<<<1, 1>>>(p);
}
