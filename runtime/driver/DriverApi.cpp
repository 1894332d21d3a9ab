#include "runtime/driver/DriverApi.h"

#include "runtime/core/ErrorTable.h"

#include <cstring>
#include <dlfcn.h>
#include <string_view>

namespace ocelot::runtime::driver {
namespace {

/// Stores a symbol address into a typed function pointer. (The object-to-function pointer
/// conversion is what dlsym requires; memcpy keeps it free of aliasing questions.)
template <class Function> void assign(Function& slot, void* address) {
  static_assert(sizeof(Function) == sizeof(void*));
  std::memcpy(&slot, &address, sizeof slot);
}

std::string versionText(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

/// Resolves driver functions through cuGetProcAddress, remembering the names it could not find.
class Resolver {
public:
  explicit Resolver(decltype(&::cuGetProcAddress) getProcAddress)
      : getProcAddress_(getProcAddress) {}

  template <class Function> void operator()(Function& slot, const char* symbol, bool required) {
    void* address = nullptr;
    CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    CUresult result = getProcAddress_(symbol, &address, DriverApi::kCudaVersion,
                                      CU_GET_PROC_ADDRESS_DEFAULT, &status);
    if (result != CUDA_SUCCESS || status != CU_GET_PROC_ADDRESS_SUCCESS || address == nullptr) {
      if (required) {
        missing_ += missing_.empty() ? "" : ", ";
        missing_ += symbol;
      }
      return;
    }
    assign(slot, address);
  }

  const std::string& missing() const { return missing_; }

private:
  decltype(&::cuGetProcAddress) getProcAddress_;
  std::string missing_;
};

/// Resolves every function of DriverFunctions.def; only the required ones count as missing.
void resolveAll(DriverApi& api, Resolver& resolve) {
#define OCELOT_DRIVER_REQUIRED(member, cuName) resolve(api.member, #cuName, true);
#define OCELOT_DRIVER_OPTIONAL(member, cuName) resolve(api.member, #cuName, false);
#define OCELOT_DRIVER_REQUIRED_AS(member, cuName, declaration) resolve(api.member, #cuName, true);
#include "runtime/driver/DriverFunctions.def"
}

} // namespace

// The driver stays loaded until the process ends: other libraries of the process may hold driver
// objects, and unloading libcuda while its own atexit handlers are pending is unsafe.
DriverApi::~DriverApi() = default;

support::Expected<std::unique_ptr<DriverApi>, DriverApi::LoadError>
DriverApi::load(const char* library) {
  void* handle = ::dlopen(library, RTLD_NOW | RTLD_LOCAL);
  // Ocelot's own libcuda.so.1 (runtime/driverapi), on the library path under `ocelot run`, is no
  // driver: it names NVIDIA's, or none when the process runs on the CPU device.
  if (handle != nullptr) {
    const char* (*realDriver)() = nullptr;
    assign(realDriver, ::dlsym(handle, "ocelot_driver_shim_real_driver"));
    if (realDriver != nullptr) {
      const char* real = realDriver();
      if (real == nullptr)
        return LoadError{cudaErrorInsufficientDriver, 0,
                         std::string(library) + " is Ocelot's driver-API shim and there is no "
                                                "NVIDIA driver with a GPU behind it"};
      return load(real);
    }
  }
  if (handle == nullptr) {
    const char* reason = ::dlerror();
    return LoadError{cudaErrorInsufficientDriver, 0,
                     std::string("cannot load ") + library + ": " +
                         (reason != nullptr ? reason : "unknown reason")};
  }
  auto fail = [&](LoadError error) {
    ::dlclose(handle);
    return error;
  };

  decltype(&::cuDriverGetVersion) driverGetVersion = nullptr;
  assign(driverGetVersion, ::dlsym(handle, "cuDriverGetVersion"));
  int version = 0;
  if (driverGetVersion == nullptr || driverGetVersion(&version) != CUDA_SUCCESS)
    return fail({cudaErrorInsufficientDriver, 0,
                 std::string(library) + " does not report a driver version"});
  if (version < kCudaVersion)
    return fail({cudaErrorInsufficientDriver, version,
                 "the driver supports CUDA " + versionText(version) + ", Ocelot's runtime needs " +
                     versionText(kCudaVersion)});

  // cuGetProcAddress_v2 is the entry point of CUDA 12 and later drivers; cuda.h maps the name
  // cuGetProcAddress to it.
  decltype(&::cuGetProcAddress) getProcAddress = nullptr;
  assign(getProcAddress, ::dlsym(handle, "cuGetProcAddress_v2"));
  if (getProcAddress == nullptr)
    return fail({cudaErrorInsufficientDriver, version,
                 std::string(library) + " has no cuGetProcAddress_v2"});

  auto api = std::make_unique<DriverApi>();
  api->library_ = handle;
  api->version = version;
  api->getProcAddress = getProcAddress;
  Resolver resolve(getProcAddress);
  resolveAll(*api, resolve);
  if (!resolve.missing().empty())
    return fail({cudaErrorInsufficientDriver, version, "the driver lacks " + resolve.missing()});
  return api;
}

cudaError_t failureToCudaError(CUresult result) {
  int code = static_cast<int>(result);
  return isKnownError(code) ? static_cast<cudaError_t>(code) : cudaErrorUnknown;
}

} // namespace ocelot::runtime::driver
