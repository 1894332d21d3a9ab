#include "runtime/cpu/CpuPlatform.h"

#include <string_view>

namespace ocelot::runtime::cpu {

namespace {

/// CUresult cuDriverGetVersion(int*): CUDA_SUCCESS (0) and the CUDA version this device reports.
int driverGetVersion(int* version) {
  if (version == nullptr)
    return 1; // CUDA_ERROR_INVALID_VALUE
  *version = 13000;
  return 0;
}

} // namespace

cudaError_t CpuPlatform::driverEntryPoint(const char* symbol, void** function, int,
                                          unsigned long long,
                                          cudaDriverEntryPointQueryResult* status) {
  const bool known = symbol != nullptr && std::string_view(symbol) == "cuDriverGetVersion";
  *function = known ? reinterpret_cast<void*>(&driverGetVersion) : nullptr;
  if (status != nullptr)
    *status = known ? cudaDriverEntryPointSuccess : cudaDriverEntryPointSymbolNotFound;
  return cudaSuccess;
}

PlatformResult CpuPlatform::create() {
  std::string error;
  std::unique_ptr<CpuDevice> device = CpuDevice::create(&error);
  if (!device)
    return {nullptr, cudaErrorInitializationError, 13000, "the CPU device cannot start: " + error};
  PlatformResult result;
  result.platform.reset(new CpuPlatform(std::move(device)));
  result.driverVersion = 13000;
  return result;
}

void registerPlatform(PlatformRegistry& backends) {
  backends.add("cpu", [] { return CpuPlatform::create(); });
}

} // namespace ocelot::runtime::cpu
