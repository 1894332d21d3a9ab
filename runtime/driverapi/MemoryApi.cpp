// Ocelot's libcuda.so.1: memory. On the CPU device each call is the runtime's equivalent (device
// pointers are the runtime's; CUdeviceptr is the same address as an integer).

#include "runtime/driverapi/DriverShim.h"

#include <cstdint>
#include <cstring>
#include <vector>

using namespace ocelot::runtime::driverapi;

namespace {

void* pointer(CUdeviceptr address) {
  return reinterpret_cast<void*>(static_cast<uintptr_t>(address));
}

cudaStream_t stream(CUstream handle) {
  return reinterpret_cast<cudaStream_t>(handle);
}

/// cuMemsetD16/D32: a byte fill when every byte of the value is the same, else the pattern is
/// written from the host (the runtime API has no wider fill).
template <class Element>
CUresult fill(CUdeviceptr destination, Element value, size_t count, CUstream queue, bool async) {
  unsigned char bytes[sizeof(Element)];
  std::memcpy(bytes, &value, sizeof value);
  bool uniform = true;
  for (unsigned char byte : bytes)
    uniform = uniform && byte == bytes[0];
  if (uniform)
    return DriverShim::result(
        async ? runtimeCalls().cudaMemsetAsync(pointer(destination), bytes[0], count * sizeof value,
                                               stream(queue))
              : runtimeCalls().cudaMemset(pointer(destination), bytes[0], count * sizeof value));
  std::vector<Element> pattern(count, value);
  // Synchronous even for the Async variant: the pattern lives on this stack frame.
  if (async)
    if (cudaError_t error = runtimeCalls().cudaStreamSynchronize(stream(queue));
        error != cudaSuccess)
      return DriverShim::result(error);
  return DriverShim::result(runtimeCalls().cudaMemcpy(
      pointer(destination), pattern.data(), count * sizeof value, cudaMemcpyHostToDevice));
}

} // namespace

extern "C" {

CUresult CUDAAPI cuMemAlloc(CUdeviceptr* address, size_t bytes) {
  OCELOT_FORWARD(cuMemAlloc, address, bytes);
  if (address == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  void* allocated = nullptr;
  cudaError_t error = runtimeCalls().cudaMalloc(&allocated, bytes);
  *address = reinterpret_cast<uintptr_t>(allocated);
  return DriverShim::result(error);
}

CUresult CUDAAPI cuMemFree(CUdeviceptr address) {
  OCELOT_FORWARD(cuMemFree, address);
  return DriverShim::result(runtimeCalls().cudaFree(pointer(address)));
}

CUresult CUDAAPI cuMemGetInfo(size_t* free, size_t* total) {
  OCELOT_FORWARD(cuMemGetInfo, free, total);
  return DriverShim::result(runtimeCalls().cudaMemGetInfo(free, total));
}

CUresult CUDAAPI cuMemAllocHost(void** host, size_t bytes) {
  OCELOT_FORWARD(cuMemAllocHost, host, bytes);
  return DriverShim::result(runtimeCalls().cudaMallocHost(host, bytes));
}

CUresult CUDAAPI cuMemFreeHost(void* host) {
  OCELOT_FORWARD(cuMemFreeHost, host);
  return DriverShim::result(runtimeCalls().cudaFreeHost(host));
}

CUresult CUDAAPI cuMemHostAlloc(void** host, size_t bytes, unsigned int flags) {
  OCELOT_FORWARD(cuMemHostAlloc, host, bytes, flags);
  // CU_MEMHOSTALLOC_* and cudaHostAlloc* share their values.
  return DriverShim::result(runtimeCalls().cudaHostAlloc(host, bytes, flags));
}

CUresult CUDAAPI cuMemAllocManaged(CUdeviceptr* address, size_t bytes, unsigned int flags) {
  OCELOT_FORWARD(cuMemAllocManaged, address, bytes, flags);
  if (address == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  void* allocated = nullptr;
  cudaError_t error = runtimeCalls().cudaMallocManaged(&allocated, bytes, flags);
  *address = reinterpret_cast<uintptr_t>(allocated);
  return DriverShim::result(error);
}

CUresult CUDAAPI cuMemcpy(CUdeviceptr destination, CUdeviceptr source, size_t bytes) {
  OCELOT_FORWARD(cuMemcpy, destination, source, bytes);
  return DriverShim::result(
      runtimeCalls().cudaMemcpy(pointer(destination), pointer(source), bytes, cudaMemcpyDefault));
}

CUresult CUDAAPI cuMemcpyAsync(CUdeviceptr destination, CUdeviceptr source, size_t bytes,
                               CUstream queue) {
  OCELOT_FORWARD(cuMemcpyAsync, destination, source, bytes, queue);
  return DriverShim::result(runtimeCalls().cudaMemcpyAsync(
      pointer(destination), pointer(source), bytes, cudaMemcpyDefault, stream(queue)));
}

CUresult CUDAAPI cuMemcpyHtoD(CUdeviceptr destination, const void* source, size_t bytes) {
  OCELOT_FORWARD(cuMemcpyHtoD, destination, source, bytes);
  return DriverShim::result(
      runtimeCalls().cudaMemcpy(pointer(destination), source, bytes, cudaMemcpyHostToDevice));
}

CUresult CUDAAPI cuMemcpyDtoH(void* destination, CUdeviceptr source, size_t bytes) {
  OCELOT_FORWARD(cuMemcpyDtoH, destination, source, bytes);
  return DriverShim::result(
      runtimeCalls().cudaMemcpy(destination, pointer(source), bytes, cudaMemcpyDeviceToHost));
}

CUresult CUDAAPI cuMemcpyDtoD(CUdeviceptr destination, CUdeviceptr source, size_t bytes) {
  OCELOT_FORWARD(cuMemcpyDtoD, destination, source, bytes);
  return DriverShim::result(runtimeCalls().cudaMemcpy(pointer(destination), pointer(source), bytes,
                                                      cudaMemcpyDeviceToDevice));
}

CUresult CUDAAPI cuMemcpyHtoDAsync(CUdeviceptr destination, const void* source, size_t bytes,
                                   CUstream queue) {
  OCELOT_FORWARD(cuMemcpyHtoDAsync, destination, source, bytes, queue);
  return DriverShim::result(runtimeCalls().cudaMemcpyAsync(pointer(destination), source, bytes,
                                                           cudaMemcpyHostToDevice, stream(queue)));
}

CUresult CUDAAPI cuMemcpyDtoHAsync(void* destination, CUdeviceptr source, size_t bytes,
                                   CUstream queue) {
  OCELOT_FORWARD(cuMemcpyDtoHAsync, destination, source, bytes, queue);
  return DriverShim::result(runtimeCalls().cudaMemcpyAsync(destination, pointer(source), bytes,
                                                           cudaMemcpyDeviceToHost, stream(queue)));
}

CUresult CUDAAPI cuMemcpyDtoDAsync(CUdeviceptr destination, CUdeviceptr source, size_t bytes,
                                   CUstream queue) {
  OCELOT_FORWARD(cuMemcpyDtoDAsync, destination, source, bytes, queue);
  return DriverShim::result(runtimeCalls().cudaMemcpyAsync(
      pointer(destination), pointer(source), bytes, cudaMemcpyDeviceToDevice, stream(queue)));
}

CUresult CUDAAPI cuMemsetD8(CUdeviceptr destination, unsigned char value, size_t count) {
  OCELOT_FORWARD(cuMemsetD8, destination, value, count);
  return fill(destination, value, count, nullptr, false);
}

CUresult CUDAAPI cuMemsetD16(CUdeviceptr destination, unsigned short value, size_t count) {
  OCELOT_FORWARD(cuMemsetD16, destination, value, count);
  return fill(destination, value, count, nullptr, false);
}

CUresult CUDAAPI cuMemsetD32(CUdeviceptr destination, unsigned int value, size_t count) {
  OCELOT_FORWARD(cuMemsetD32, destination, value, count);
  return fill(destination, value, count, nullptr, false);
}

CUresult CUDAAPI cuMemsetD8Async(CUdeviceptr destination, unsigned char value, size_t count,
                                 CUstream queue) {
  OCELOT_FORWARD(cuMemsetD8Async, destination, value, count, queue);
  return fill(destination, value, count, queue, true);
}

CUresult CUDAAPI cuMemsetD16Async(CUdeviceptr destination, unsigned short value, size_t count,
                                  CUstream queue) {
  OCELOT_FORWARD(cuMemsetD16Async, destination, value, count, queue);
  return fill(destination, value, count, queue, true);
}

CUresult CUDAAPI cuMemsetD32Async(CUdeviceptr destination, unsigned int value, size_t count,
                                  CUstream queue) {
  OCELOT_FORWARD(cuMemsetD32Async, destination, value, count, queue);
  return fill(destination, value, count, queue, true);
}

} // extern "C"
