// Runtime: the variables applications registered, found by their registered names on the current
// device (cudaMemcpyToSymbol & co. copy to and from what symbolStorage finds).

#include "runtime/core/Runtime.h"

namespace ocelot::runtime {

cudaError_t Runtime::symbolStorage(const void* symbol, Device** device, void** address,
                                   size_t* bytes) {
  if (cudaError_t error = initialize(); error != cudaSuccess)
    return error;
  const RegisteredVariable* variable = registry_.findVariable(symbol);
  if (variable == nullptr || variable->kind == RegisteredVariable::Kind::Host)
    return cudaErrorInvalidSymbol;
  LoadedModule* module = nullptr;
  if (cudaError_t error = moduleOnCurrentDevice(*variable->owner, device, &module);
      error != cudaSuccess)
    return error;
  // Devices always get both outputs (callers may want only one of them).
  void* storage = nullptr;
  size_t size = 0;
  cudaError_t error =
      (*device)->global(module->handle(), variable->deviceName.c_str(), &storage, &size);
  if (error != cudaSuccess)
    return error == cudaErrorSymbolNotFound ? cudaErrorInvalidSymbol : error;
  if (address != nullptr)
    *address = storage;
  if (bytes != nullptr)
    *bytes = size;
  return cudaSuccess;
}

cudaError_t Runtime::getSymbolAddress(void** address, const void* symbol) {
  Device* device = nullptr;
  void* found = nullptr;
  if (cudaError_t error = symbolStorage(symbol, &device, &found, nullptr); error != cudaSuccess)
    return error;
  if (address == nullptr)
    return cudaErrorInvalidValue;
  *address = found;
  return cudaSuccess;
}

cudaError_t Runtime::getSymbolSize(size_t* bytes, const void* symbol) {
  Device* device = nullptr;
  size_t size = 0;
  if (cudaError_t error = symbolStorage(symbol, &device, nullptr, &size); error != cudaSuccess)
    return error;
  if (bytes == nullptr)
    return cudaErrorInvalidValue;
  *bytes = size;
  return cudaSuccess;
}

} // namespace ocelot::runtime
