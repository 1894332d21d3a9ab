#pragma once

// The entry points nvcc's generated host code calls (registration and the lowering of <<<...>>>).
// NVIDIA declares them in internal headers (crt/host_runtime.h, crt/device_functions.h) that only
// compile inside nvcc's own compilation; these declarations repeat them exactly.
// tests/runtime/programs/prototype_check.cu includes this file in an nvcc compilation, next to
// NVIDIA's declarations, so any difference is a compile error there.
//
// __cudaRegisterHostVar, __cudaRegisterUnifiedTable and __cudaGetProcAddress have no header at all;
// their prototypes follow what NVIDIA's 13.0 library does with its arguments.

#include <cuda_runtime_api.h>

#include <cstddef>

extern "C" {

void** CUDARTAPI __cudaRegisterFatBinary(void* fatCubin);
void CUDARTAPI __cudaRegisterFatBinaryEnd(void** fatCubinHandle);
void CUDARTAPI __cudaUnregisterFatBinary(void** fatCubinHandle);
void CUDARTAPI __cudaRegisterVar(void** fatCubinHandle, char* hostVar, char* deviceAddress,
                                 const char* deviceName, int ext, size_t size, int constant,
                                 int global);
void CUDARTAPI __cudaRegisterManagedVar(void** fatCubinHandle, void** hostVarPtrAddress,
                                        char* deviceAddress, const char* deviceName, int ext,
                                        size_t size, int constant, int global);
char CUDARTAPI __cudaInitModule(void** fatCubinHandle);
void CUDARTAPI __cudaRegisterFunction(void** fatCubinHandle, const char* hostFun, char* deviceFun,
                                      const char* deviceName, int thread_limit, uint3* tid,
                                      uint3* bid, dim3* bDim, dim3* gDim, int* wSize);
/// A host variable that device code refers to (flang's CUDA runtime calls it with these
/// arguments).
void CUDARTAPI __cudaRegisterHostVar(void** fatCubinHandle, const char* deviceName, char* hostVar,
                                     size_t size);
/// Takes five pointer-sized arguments in NVIDIA's 13.0 library, which forwards them to an
/// internal function; nvcc 13.0 never emits a call. Ocelot accepts and ignores it.
void CUDARTAPI __cudaRegisterUnifiedTable(void* first, void* second, void* third, void* fourth,
                                          void* fifth);
/// Returns 0 without reading an argument in NVIDIA's 13.0 library.
cudaError_t CUDARTAPI __cudaGetProcAddress(void);

unsigned CUDARTAPI __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                               struct CUstream_st* stream);
cudaError_t CUDARTAPI __cudaPopCallConfiguration(dim3* gridDim, dim3* blockDim, size_t* sharedMem,
                                                 void* stream);
cudaError_t CUDARTAPI __cudaGetKernel(cudaKernel_t* kernel, const void* hostFunction);
cudaError_t CUDARTAPI __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                         void** args, size_t sharedMem, cudaStream_t stream);
cudaError_t CUDARTAPI __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                              void** args, size_t sharedMem, cudaStream_t stream);

} // extern "C"
