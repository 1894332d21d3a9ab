// Versions and driver interop: cudaRuntimeGetVersion, cudaDriverGetVersion (printed only as
// ">= 13000" so that a newer driver prints the same) and cudaGetDriverEntryPointByVersion, whose
// cuDriverGetVersion must agree with cudaDriverGetVersion.
#include "e2e_common.h"

// The driver API's cuDriverGetVersion(int*) returns a CUresult (an int-sized enum).
typedef int (*CuDriverGetVersionFn)(int*);

int main() {
  int runtime = 0, driver = 0;
  CHECK(cudaRuntimeGetVersion(&runtime));
  CHECK(cudaDriverGetVersion(&driver));
  std::printf("cudaRuntimeGetVersion >= 13000: %s\n", runtime >= 13000 ? "yes" : "no");
  std::printf("cudaDriverGetVersion >= 13000: %s\n", driver >= 13000 ? "yes" : "no");
  std::printf("runtime major version: %d\n", runtime / 1000);
  e2e::expect(runtime >= 13000 && runtime < 14000, "runtime is a CUDA 13 runtime");
  e2e::expect(driver >= runtime, "driver version >= runtime version");
  std::printf("CUDART_VERSION (compile time) >= 13000: %s\n",
              CUDART_VERSION >= 13000 ? "yes" : "no");

  void* fn = nullptr;
  cudaDriverEntryPointQueryResult status = cudaDriverEntryPointSymbolNotFound;
  CHECK(cudaGetDriverEntryPointByVersion("cuDriverGetVersion", &fn, 13000, cudaEnableDefault,
                                         &status));
  std::printf("cuDriverGetVersion entry point: status %d, found %s\n", static_cast<int>(status),
              fn ? "yes" : "no");
  if (fn) {
    int v = 0;
    int r = reinterpret_cast<CuDriverGetVersionFn>(fn)(&v);
    std::printf("cuDriverGetVersion returned %d\n", r);
    e2e::expect(v == driver, "cuDriverGetVersion agrees with cudaDriverGetVersion");
  }

  // A symbol that does not exist.
  fn = reinterpret_cast<void*>(1);
  cudaError_t e = cudaGetDriverEntryPointByVersion("cuNoSuchFunctionInAnyDriver", &fn, 13000,
                                                   cudaEnableDefault, &status);
  std::printf("unknown entry point: %s, status %d, null %s\n", cudaGetErrorName(e),
              static_cast<int>(status), fn == nullptr ? "yes" : "no");
  std::printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  return e2e::finish();
}
