#include "runtime/driver/DriverPlatform.h"

namespace ocelot::runtime::driver {

PlatformResult DriverPlatform::create(const char* library) {
  auto api = DriverApi::load(library);
  if (!api)
    return {nullptr, api.error().error, api.error().driverVersion, api.error().reason};
  int version = (*api)->version;

  if (CUresult result = (*api)->init(0); result != CUDA_SUCCESS) {
    const char* name = nullptr;
    (*api)->getErrorName(result, &name);
    return {nullptr, toCudaError(result), version,
            std::string("cuInit failed: ") + (name != nullptr ? name : "unknown error")};
  }
  int count = 0;
  if (CUresult result = (*api)->deviceGetCount(&count); result != CUDA_SUCCESS)
    return {nullptr, toCudaError(result), version, "cuDeviceGetCount failed"};
  if (count == 0)
    return {nullptr, cudaErrorNoDevice, version, "the driver reports no GPU"};

  std::unique_ptr<DriverPlatform> platform(new DriverPlatform(std::move(*api)));
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    CUdevice device = 0;
    if (CUresult result = platform->api_->deviceGet(&device, ordinal); result != CUDA_SUCCESS)
      return {nullptr, toCudaError(result), version,
              "cuDeviceGet(" + std::to_string(ordinal) + ") failed"};
    platform->devices_.push_back(std::make_unique<DriverDevice>(*platform->api_, device));
  }
  return {std::move(platform), cudaSuccess, version, {}};
}

} // namespace ocelot::runtime::driver
