// Bad arguments that Ocelot's runtime rejects itself, before anything reaches the driver: null
// pointers, invalid handles and flags, wrong memcpy kinds, impossible launch configurations. Each
// line is "<label> -> <code> <name> | last <name>"; the driver-path test runs it over the fake
// driver and compares every line with what NVIDIA's runtime answered for the same call on an H100
// (tests/e2e/programs/bad_arguments.cu, CUDA 13.0, driver 580).
#include <cuda_runtime.h>

#include <cstdio>

__global__ void kernel(int* p) {
  if (p != nullptr)
    *p = 1;
}
__device__ int symbol[64]; // 256 bytes, also what the fake driver reports for every global

static void report(const char* label, cudaError_t error) {
  cudaError_t last = cudaGetLastError();
  std::printf("%s -> %d %s | last %s\n", label, static_cast<int>(error), cudaGetErrorName(error),
              cudaGetErrorName(last));
}

static void hostFunction() {}

static void CUDART_CB callback(cudaStream_t, cudaError_t, void*) {}

int main() {
  int* device = nullptr;
  if (cudaMalloc(&device, 1024) != cudaSuccess)
    return 1;
  char host[1024] = {};
  void* args[] = {&device};
  const void* function = reinterpret_cast<const void*>(&kernel);
  int value = 0;
  cudaTextureObject_t texture = 0;

  report("cudaMalloc(nullptr)", cudaMalloc(nullptr, 256));
  void* huge = nullptr;
  report("cudaMalloc(1 PiB)", cudaMalloc(&huge, size_t{1} << 50));
  report("cudaMallocHost(1 PiB)", cudaMallocHost(&huge, size_t{1} << 50));
  report("cudaHostAlloc(flags 0xff00)",
         cudaHostAlloc(reinterpret_cast<void**>(&device), 64, 0xff00));
  report("cudaPointerGetAttributes(nullptr)", cudaPointerGetAttributes(nullptr, device));
  report("cudaMemcpy(kind 7)", cudaMemcpy(device, host, 64, static_cast<cudaMemcpyKind>(7)));
  report("cudaMemcpy(kind -1)", cudaMemcpy(device, host, 64, static_cast<cudaMemcpyKind>(-1)));
  report("cudaMemcpy(nullptr destination)", cudaMemcpy(nullptr, host, 64, cudaMemcpyHostToDevice));
  report("cudaMemcpy(nullptr source)", cudaMemcpy(device, nullptr, 64, cudaMemcpyHostToDevice));
  report("cudaMemcpy(0 bytes)", cudaMemcpy(device, host, 0, cudaMemcpyHostToDevice));
  report("cudaMemcpyAsync(kind 9)",
         cudaMemcpyAsync(device, host, 64, static_cast<cudaMemcpyKind>(9), nullptr));
  report("cudaMemset(nullptr)", cudaMemset(nullptr, 0, 64));
  report("cudaMemsetAsync(nullptr)", cudaMemsetAsync(nullptr, 0, 64, nullptr));
  report("cudaMemcpy2D(spitch < width)",
         cudaMemcpy2D(device, 64, host, 16, 32, 4, cudaMemcpyHostToDevice));
  report("cudaMemcpy2D(dpitch < width)",
         cudaMemcpy2D(device, 16, host, 64, 32, 4, cudaMemcpyHostToDevice));
  report("cudaMemset2D(pitch < width)", cudaMemset2D(device, 16, 0, 32, 4));
  report("cudaMemcpy3D(nullptr)", cudaMemcpy3D(nullptr));
  report("cudaMemcpyPeer(device 99)", cudaMemcpyPeer(device, 99, host, 0, 64));
  report("cudaMemcpyToSymbol(size > symbol)", cudaMemcpyToSymbol(symbol, host, 512));
  report("cudaMemcpyFromSymbol(offset past end)", cudaMemcpyFromSymbol(host, symbol, 4, 300));
  report("cudaMemcpyToSymbol(kind DeviceToHost)",
         cudaMemcpyToSymbol(symbol, host, 4, 0, cudaMemcpyDeviceToHost));
  report("cudaGetSymbolSize(nullptr)", cudaGetSymbolSize(nullptr, nullptr));
  report("cudaFreeArray(nullptr)", cudaFreeArray(nullptr));
  cudaArray_t array = nullptr;
  cudaChannelFormatDesc floats = cudaCreateChannelDesc<float>();
  report("cudaMallocArray(0 x 0)", cudaMallocArray(&array, &floats, 0, 0));
  cudaChannelFormatDesc sevenBits = cudaCreateChannelDesc(7, 0, 0, 0, cudaChannelFormatKindSigned);
  report("cudaMallocArray(7-bit channel)", cudaMallocArray(&array, &sevenBits, 16, 0));
  report("cudaMemGetInfo(nullptr, nullptr)", cudaMemGetInfo(nullptr, nullptr));
  report("cudaCreateTextureObject(null resource)",
         cudaCreateTextureObject(&texture, nullptr, nullptr, nullptr));

  report("cudaSetDevice(99)", cudaSetDevice(99));
  report("cudaSetDevice(-1)", cudaSetDevice(-1));
  report("cudaGetDevice(nullptr)", cudaGetDevice(nullptr));
  report("cudaGetDeviceCount(nullptr)", cudaGetDeviceCount(nullptr));
  cudaDeviceProp properties{};
  report("cudaGetDeviceProperties(device 99)", cudaGetDeviceProperties(&properties, 99));
  report("cudaDeviceGetAttribute(attribute 99999)",
         cudaDeviceGetAttribute(&value, static_cast<cudaDeviceAttr>(99999), 0));
  report("cudaDeviceGetAttribute(device 99)",
         cudaDeviceGetAttribute(&value, cudaDevAttrWarpSize, 99));
  report("cudaDeviceCanAccessPeer(peer 99)", cudaDeviceCanAccessPeer(&value, 0, 99));
  report("cudaChooseDevice(nullptr properties)", cudaChooseDevice(&value, nullptr));
  report("cudaDeviceGetByPCIBusId(not a bus id)", cudaDeviceGetByPCIBusId(&value, "not a bus id"));
  report("cudaSetDeviceFlags(0xffff)", cudaSetDeviceFlags(0xffff));
  report("cudaDeviceSetLimit(limit 99)", cudaDeviceSetLimit(static_cast<cudaLimit>(99), 0));
  report("cudaDeviceGetLimit(nullptr)", cudaDeviceGetLimit(nullptr, cudaLimitStackSize));
  report("cudaRuntimeGetVersion(nullptr)", cudaRuntimeGetVersion(nullptr));
  report("cudaDriverGetVersion(nullptr)", cudaDriverGetVersion(nullptr));

  report("cudaStreamCreate(nullptr)", cudaStreamCreate(nullptr));
  cudaStream_t stream = nullptr;
  report("cudaStreamCreateWithFlags(flags 0x10)", cudaStreamCreateWithFlags(&stream, 0x10));
  report("cudaStreamWaitEvent(null event)", cudaStreamWaitEvent(nullptr, nullptr, 0));
  report("cudaStreamAddCallback(flags 1)", cudaStreamAddCallback(nullptr, callback, nullptr, 1));
  cudaEvent_t event = nullptr;
  report("cudaEventCreateWithFlags(flags 0x80)", cudaEventCreateWithFlags(&event, 0x80));
  report("cudaEventRecord(null event)", cudaEventRecord(nullptr, nullptr));
  report("cudaEventQuery(null event)", cudaEventQuery(nullptr));

  report("cudaLaunchKernel(2048 threads)",
         cudaLaunchKernel(function, dim3(1), dim3(2048), args, 0, nullptr));
  report("cudaLaunchKernel(block 32 x 32 x 2)",
         cudaLaunchKernel(function, dim3(1), dim3(32, 32, 2), args, 0, nullptr));
  report("cudaLaunchKernel(blockDim.z 65)",
         cudaLaunchKernel(function, dim3(1), dim3(1, 1, 65), args, 0, nullptr));
  report("cudaLaunchKernel(zero grid)",
         cudaLaunchKernel(function, dim3(0), dim3(1), args, 0, nullptr));
  report("cudaLaunchKernel(zero block)",
         cudaLaunchKernel(function, dim3(1), dim3(0), args, 0, nullptr));
  report("cudaLaunchKernel(gridDim.y 65536)",
         cudaLaunchKernel(function, dim3(1, 65536), dim3(1), args, 0, nullptr));
  report("cudaLaunchKernel(nullptr function)",
         cudaLaunchKernel(nullptr, dim3(1), dim3(1), args, 0, nullptr));
  report("cudaLaunchKernel(host function)",
         cudaLaunchKernel(reinterpret_cast<const void*>(&hostFunction), dim3(1), dim3(1), args, 0,
                          nullptr));
  kernel<<<1, 1025>>>(device);
  report("<<<1, 1025>>>", cudaPeekAtLastError());
  report("cudaFuncSetAttribute(attribute 999)",
         cudaFuncSetAttribute(function, static_cast<cudaFuncAttribute>(999), 0));
  cudaFuncAttributes attributes{};
  report("cudaFuncGetAttributes(nullptr function)", cudaFuncGetAttributes(&attributes, nullptr));
  report("cudaFuncGetAttributes(host function)",
         cudaFuncGetAttributes(&attributes, reinterpret_cast<const void*>(&hostFunction)));
  report("cudaOccupancyMaxActiveBlocksPerMultiprocessor(block 0)",
         cudaOccupancyMaxActiveBlocksPerMultiprocessor(&value, function, 0, 0));
  cudaGraphExec_t exec = nullptr;
  report("cudaGraphInstantiate(null graph)", cudaGraphInstantiate(&exec, nullptr, 0));
  report("cudaGraphLaunch(null exec)", cudaGraphLaunch(nullptr, nullptr));

  // None of the errors above is sticky: a valid launch still works.
  kernel<<<1, 1>>>(device);
  report("valid launch afterwards", cudaGetLastError());
  report("cudaFree", cudaFree(device));
  return 0;
}
