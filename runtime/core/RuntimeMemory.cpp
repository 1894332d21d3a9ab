// Runtime: device memory and the variables registered by name (cudaMemcpyToSymbol & co.).

#include "runtime/core/Runtime.h"

namespace ocelot::runtime {
namespace {

bool validKind(int kind) {
  return kind >= cudaMemcpyHostToHost && kind <= cudaMemcpyDefault;
}

} // namespace

cudaError_t Runtime::malloc(void** pointer, size_t bytes) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (pointer == nullptr)
    return cudaErrorInvalidValue;
  if (bytes == 0) {
    *pointer = nullptr;
    return cudaSuccess;
  }
  cudaError_t error = device->allocate(pointer, bytes);
  // The driver says "out of memory" as CUDA_ERROR_OUT_OF_MEMORY, which maps to this already;
  // anything else keeps its own code.
  return deviceResult(error);
}

cudaError_t Runtime::free(void* pointer) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (pointer == nullptr)
    return cudaSuccess;
  return deviceResult(device->free(pointer));
}

cudaError_t Runtime::memcpy(void* destination, const void* source, size_t bytes, int kind,
                            cudaStream_t stream, bool async) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (!validKind(kind))
    return cudaErrorInvalidMemcpyDirection;
  if (bytes == 0)
    return cudaSuccess;
  if (destination == nullptr || source == nullptr)
    return cudaErrorInvalidValue;
  // With unified addressing the driver tells host from device memory itself; the kind only has
  // to be a valid one.
  Stream* queue = nullptr;
  if (cudaError_t error = streamOn(*device, stream, &queue); error != cudaSuccess)
    return error;
  return deviceResult(device->copy(destination, source, bytes, *queue, async));
}

cudaError_t Runtime::memset(void* destination, int value, size_t bytes, cudaStream_t stream,
                            bool async) {
  Device* device = nullptr;
  if (cudaError_t error = currentDevice(&device); error != cudaSuccess)
    return error;
  if (bytes == 0)
    return cudaSuccess;
  if (destination == nullptr)
    return cudaErrorInvalidValue;
  Stream* queue = nullptr;
  if (cudaError_t error = streamOn(*device, stream, &queue); error != cudaSuccess)
    return error;
  return deviceResult(
      device->fill(destination, static_cast<unsigned char>(value), bytes, *queue, async));
}

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

cudaError_t Runtime::memcpyToSymbol(const void* symbol, const void* source, size_t bytes,
                                    size_t offset, int kind, cudaStream_t stream, bool async) {
  Device* device = nullptr;
  void* address = nullptr;
  size_t size = 0;
  if (cudaError_t error = symbolStorage(symbol, &device, &address, &size); error != cudaSuccess)
    return error;
  if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice &&
      kind != cudaMemcpyDefault)
    return cudaErrorInvalidMemcpyDirection;
  if (offset > size || bytes > size - offset)
    return cudaErrorInvalidValue;
  if (bytes == 0)
    return cudaSuccess;
  Stream* queue = nullptr;
  if (cudaError_t error = streamOn(*device, stream, &queue); error != cudaSuccess)
    return error;
  return deviceResult(
      device->copy(static_cast<char*>(address) + offset, source, bytes, *queue, async));
}

cudaError_t Runtime::memcpyFromSymbol(void* destination, const void* symbol, size_t bytes,
                                      size_t offset, int kind, cudaStream_t stream, bool async) {
  Device* device = nullptr;
  void* address = nullptr;
  size_t size = 0;
  if (cudaError_t error = symbolStorage(symbol, &device, &address, &size); error != cudaSuccess)
    return error;
  if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice &&
      kind != cudaMemcpyDefault)
    return cudaErrorInvalidMemcpyDirection;
  if (offset > size || bytes > size - offset)
    return cudaErrorInvalidValue;
  if (bytes == 0)
    return cudaSuccess;
  Stream* queue = nullptr;
  if (cudaError_t error = streamOn(*device, stream, &queue); error != cudaSuccess)
    return error;
  return deviceResult(
      device->copy(destination, static_cast<const char*>(address) + offset, bytes, *queue, async));
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
