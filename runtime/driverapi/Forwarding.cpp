// The targets of the generated forwarders (Forwarders.cmake): every driver function the shim does
// not implement goes to NVIDIA's function of the same symbol name, or, on the CPU device (or where
// NVIDIA's driver lacks it), to a handler that returns CUDA_ERROR_NOT_SUPPORTED after one log line
// naming the function.

#include "runtime/driverapi/DriverShim.h"

#include <atomic>
#include <iterator>
#include <string>

using namespace ocelot::runtime::driverapi;

namespace {

const char* const kForwarded[] = {
#include "runtime/driverapi/ForwardedFunctions.inc"
};

extern "C" CUresult ocelotDriverNotSupported() {
  return CUDA_ERROR_NOT_SUPPORTED;
}

} // namespace

extern "C" {

/// The resolved target of each forwarder (null until its first call); read by the assembly.
__attribute__((visibility("hidden"))) void* ocelot_driver_forwards[std::size(kForwarded)];

/// Resolves forwarder `index` once; the forwarder jumps to what this returns.
__attribute__((visibility("hidden"))) void* ocelot_driver_forward_resolve(unsigned index) {
  if (index >= std::size(kForwarded))
    return reinterpret_cast<void*>(&ocelotDriverNotSupported);
  const char* name = kForwarded[index];
  void* target = nullptr;
  if (RealDriver* real = shim().real())
    target = real->exported(name);
  if (target == nullptr) {
    if (shim().real() != nullptr)
      shim().warnOnce(std::string(name) + " is not in NVIDIA's driver at " + shim().real()->path() +
                      "; Ocelot's libcuda.so.1 returns CUDA_ERROR_NOT_SUPPORTED");
    else
      shim().notSupported(name);
    target = reinterpret_cast<void*>(&ocelotDriverNotSupported);
  }
  std::atomic_ref(ocelot_driver_forwards[index]).store(target, std::memory_order_release);
  return target;
}

} // extern "C"
