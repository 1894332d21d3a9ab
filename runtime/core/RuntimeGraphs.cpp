// Runtime: the kernel nodes of CUDA graphs. Every node reaches the device in the generic
// cudaGraphNodeParams form; kernel nodes name the device's function (translated from the
// application's host stub or kernel handle here, and back when parameters are read).

#include "runtime/core/Runtime.h"

#include <cstring>

namespace ocelot::runtime {
namespace {

bool validNodeType(int type) {
  return type >= cudaGraphNodeTypeKernel && type <= cudaGraphNodeTypeConditional;
}

} // namespace

cudaError_t Runtime::deviceNodeParams(const cudaGraphNodeParams& params, Device& device,
                                      int ordinal, cudaGraphNodeParams* translated) {
  int type = 0;
  std::memcpy(&type, &params.type, sizeof type);
  if (!validNodeType(type))
    return cudaErrorInvalidValue;
  *translated = params;
  if (type != cudaGraphNodeTypeKernel)
    return cudaSuccess;
  DeviceFunction function = nullptr;
  if (cudaError_t error = resolveFunction(params.kernel.func, device, ordinal, &function);
      error != cudaSuccess)
    return error;
  translated->kernel.func = function;
  return cudaSuccess;
}

void Runtime::applicationNodeParams(cudaGraphNodeParams* params) const {
  if (params->type != cudaGraphNodeTypeKernel)
    return;
  if (const void* origin = kernelHandles_.origin(params->kernel.func))
    params->kernel.func = const_cast<void*>(origin);
}

} // namespace ocelot::runtime
