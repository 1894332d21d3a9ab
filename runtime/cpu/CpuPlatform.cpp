#include "runtime/cpu/CpuPlatform.h"

#include "runtime/cpu/EnvironmentNumber.h"

#include <algorithm>
#include <string>
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
  return create(environmentNumber("OCELOT_CPU_DEVICES", 1, 1, kMaxDevices,
                                  "a number of CPU devices from 1 to 8"));
}

PlatformResult CpuPlatform::create(uint32_t count) {
  std::vector<std::unique_ptr<CpuDevice>> devices;
  for (uint32_t d = 0; d < std::max<uint32_t>(count, 1); ++d) {
    std::string error;
    std::unique_ptr<CpuDevice> device = CpuDevice::create(&error, static_cast<int>(d));
    if (!device)
      return {nullptr, cudaErrorInitializationError, 13000,
              "CPU device " + std::to_string(d) + " cannot start: " + error};
    devices.push_back(std::move(device));
  }
  PlatformResult result;
  result.platform.reset(new CpuPlatform(std::move(devices)));
  result.driverVersion = 13000;
  return result;
}

void registerPlatform(PlatformRegistry& backends) {
  backends.add("cpu", [] { return CpuPlatform::create(); });
}

} // namespace ocelot::runtime::cpu
