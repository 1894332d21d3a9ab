// Ocelot's libcuda.so.1: devices and contexts. On a GPU every call here goes to NVIDIA's driver.
// On the CPU device each device has one context (Ocelot's runtime works in one per device, like
// NVIDIA's runtime in the primary context): creating, retaining or setting a context makes its
// device the thread's current device.

#include "runtime/driverapi/DriverShim.h"

#include <algorithm>
#include <cstring>
#include <vector>

using namespace ocelot::runtime::driverapi;

namespace {

/// The calling thread's context stack (the top is the current context) on the CPU device.
thread_local std::vector<CUcontext> tContexts;

CUresult validDevice(CUdevice device) {
  int count = 0;
  if (cudaError_t error = runtimeCalls().cudaGetDeviceCount(&count); error != cudaSuccess)
    return DriverShim::result(error);
  return device >= 0 && device < count ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

/// Makes `context` current (its device the runtime's current device); null clears it.
CUresult makeCurrent(CUcontext context) {
  if (context == nullptr) {
    if (!tContexts.empty())
      tContexts.back() = nullptr;
    return CUDA_SUCCESS;
  }
  int ordinal = shim().ordinalOf(context);
  if (ordinal < 0)
    return CUDA_ERROR_INVALID_CONTEXT;
  if (cudaError_t error = runtimeCalls().cudaSetDevice(ordinal); error != cudaSuccess)
    return DriverShim::result(error);
  if (tContexts.empty())
    tContexts.push_back(context);
  else
    tContexts.back() = context;
  return CUDA_SUCCESS;
}

CUcontext current() {
  return tContexts.empty() ? nullptr : tContexts.back();
}

} // namespace

extern "C" {

CUresult CUDAAPI cuDeviceGet(CUdevice* device, int ordinal) {
  OCELOT_FORWARD(cuDeviceGet, device, ordinal);
  if (device == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  if (CUresult error = validDevice(ordinal); error != CUDA_SUCCESS)
    return error;
  *device = ordinal;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetCount(int* count) {
  OCELOT_FORWARD(cuDeviceGetCount, count);
  if (count == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  return DriverShim::result(runtimeCalls().cudaGetDeviceCount(count));
}

CUresult CUDAAPI cuDeviceGetName(char* name, int length, CUdevice device) {
  OCELOT_FORWARD(cuDeviceGetName, name, length, device);
  if (name == nullptr || length <= 0)
    return CUDA_ERROR_INVALID_VALUE;
  cudaDeviceProp properties{};
  if (cudaError_t error = runtimeCalls().cudaGetDeviceProperties(&properties, device);
      error != cudaSuccess)
    return DriverShim::result(error);
  std::strncpy(name, properties.name, static_cast<size_t>(length) - 1);
  name[length - 1] = '\0';
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetAttribute(int* value, CUdevice_attribute attribute, CUdevice device) {
  OCELOT_FORWARD(cuDeviceGetAttribute, value, attribute, device);
  if (value == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  // CUdevice_attribute and cudaDeviceAttr share their numbers.
  return DriverShim::result(
      runtimeCalls().cudaDeviceGetAttribute(value, static_cast<cudaDeviceAttr>(attribute), device));
}

CUresult CUDAAPI cuDeviceTotalMem(size_t* bytes, CUdevice device) {
  OCELOT_FORWARD(cuDeviceTotalMem, bytes, device);
  if (bytes == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  cudaDeviceProp properties{};
  if (cudaError_t error = runtimeCalls().cudaGetDeviceProperties(&properties, device);
      error != cudaSuccess)
    return DriverShim::result(error);
  *bytes = properties.totalGlobalMem;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxCreate(CUcontext* context, CUctxCreateParams* params, unsigned int flags,
                             CUdevice device) {
  OCELOT_FORWARD(cuCtxCreate, context, params, flags, device);
  if (context == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  if (CUresult error = validDevice(device); error != CUDA_SUCCESS)
    return error;
  CUcontext created = shim().context(device);
  tContexts.push_back(nullptr); // cuCtxCreate pushes the new context
  if (CUresult error = makeCurrent(created); error != CUDA_SUCCESS) {
    tContexts.pop_back();
    return error;
  }
  *context = created;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxDestroy(CUcontext context) {
  OCELOT_FORWARD(cuCtxDestroy, context);
  if (shim().ordinalOf(context) < 0)
    return CUDA_ERROR_INVALID_CONTEXT;
  // The device's one context stays (modules and memory belong to the runtime's device); the
  // context only stops being current on this thread.
  std::erase(tContexts, context);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxGetCurrent(CUcontext* context) {
  OCELOT_FORWARD(cuCtxGetCurrent, context);
  if (context == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  *context = current();
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxSetCurrent(CUcontext context) {
  OCELOT_FORWARD(cuCtxSetCurrent, context);
  return makeCurrent(context);
}

CUresult CUDAAPI cuCtxPushCurrent(CUcontext context) {
  OCELOT_FORWARD(cuCtxPushCurrent, context);
  if (shim().ordinalOf(context) < 0)
    return CUDA_ERROR_INVALID_CONTEXT;
  tContexts.push_back(nullptr);
  return makeCurrent(context);
}

CUresult CUDAAPI cuCtxPopCurrent(CUcontext* context) {
  OCELOT_FORWARD(cuCtxPopCurrent, context);
  if (tContexts.empty())
    return CUDA_ERROR_INVALID_CONTEXT;
  if (context != nullptr)
    *context = tContexts.back();
  tContexts.pop_back();
  if (CUcontext below = current(); below != nullptr)
    return makeCurrent(below);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxGetDevice(CUdevice* device) {
  OCELOT_FORWARD(cuCtxGetDevice, device);
  if (device == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  int ordinal = shim().ordinalOf(current());
  if (ordinal < 0)
    return CUDA_ERROR_INVALID_CONTEXT;
  *device = ordinal;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxSynchronize(void) {
  OCELOT_FORWARD(cuCtxSynchronize);
  return DriverShim::result(runtimeCalls().cudaDeviceSynchronize());
}

CUresult CUDAAPI cuCtxSynchronize_v2(CUcontext context) {
  OCELOT_FORWARD(cuCtxSynchronize_v2, context);
  if (context != nullptr) {
    int ordinal = shim().ordinalOf(context);
    if (ordinal < 0)
      return CUDA_ERROR_INVALID_CONTEXT;
    int previous = 0;
    runtimeCalls().cudaGetDevice(&previous);
    runtimeCalls().cudaSetDevice(ordinal);
    cudaError_t error = runtimeCalls().cudaDeviceSynchronize();
    runtimeCalls().cudaSetDevice(previous);
    return DriverShim::result(error);
  }
  return DriverShim::result(runtimeCalls().cudaDeviceSynchronize());
}

CUresult CUDAAPI cuDevicePrimaryCtxRetain(CUcontext* context, CUdevice device) {
  OCELOT_FORWARD(cuDevicePrimaryCtxRetain, context, device);
  if (context == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  if (CUresult error = validDevice(device); error != CUDA_SUCCESS)
    return error;
  *context = shim().context(device);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDevicePrimaryCtxRelease(CUdevice device) {
  OCELOT_FORWARD(cuDevicePrimaryCtxRelease, device);
  return validDevice(device);
}

CUresult CUDAAPI cuDevicePrimaryCtxGetState(CUdevice device, unsigned int* flags, int* active) {
  OCELOT_FORWARD(cuDevicePrimaryCtxGetState, device, flags, active);
  if (flags == nullptr || active == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  if (CUresult error = validDevice(device); error != CUDA_SUCCESS)
    return error;
  *flags = 0;
  *active = 1; // the runtime's device exists as soon as the shim answers
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDevicePrimaryCtxSetFlags(CUdevice device, unsigned int flags) {
  OCELOT_FORWARD(cuDevicePrimaryCtxSetFlags, device, flags);
  if (CUresult error = validDevice(device); error != CUDA_SUCCESS)
    return error;
  (void)flags; // scheduling flags mean nothing to the CPU device
  return CUDA_SUCCESS;
}

} // extern "C"
