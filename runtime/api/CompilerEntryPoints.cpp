// The entry points nvcc's generated host code calls: fatbinary, kernel and variable registration
// (run from the application's static constructors) and the lowering of <<<...>>>.

#include "runtime/api/CompilerEntryPoints.h"

#include "runtime/api/ApiBoundary.h"

#include <exception>
#include <string>

using namespace ocelot::runtime::api;
using ocelot::runtime::RegisteredVariable;

namespace {

/// Registration must never throw into the application's static constructors; a failure is logged
/// and the application goes on (its kernels then fail to launch with a clean error).
template <class Body> void registration(const char* entryPoint, Body&& body) noexcept {
  try {
    body();
  } catch (const std::exception& exception) {
    runtime().logger().warn(std::string(entryPoint) + " failed: " + exception.what());
  } catch (...) {
    runtime().logger().warn(std::string(entryPoint) + " failed");
  }
}

RegisteredVariable variable(RegisteredVariable::Kind kind, const void* hostAddress,
                            const char* deviceName, size_t size, int ext) {
  RegisteredVariable record;
  record.kind = kind;
  record.hostAddress = hostAddress;
  record.deviceName = deviceName != nullptr ? deviceName : "";
  record.size = size;
  record.external = ext != 0;
  return record;
}

} // namespace

extern "C" {

void** CUDARTAPI __cudaRegisterFatBinary(void* fatCubin) {
  void** handle = nullptr;
  registration(__func__, [&] { handle = runtime().registerFatBinary(fatCubin); });
  return handle;
}

void CUDARTAPI __cudaRegisterFatBinaryEnd(void** fatCubinHandle) {
  registration(__func__, [&] { runtime().registerFatBinaryEnd(fatCubinHandle); });
}

void CUDARTAPI __cudaUnregisterFatBinary(void** fatCubinHandle) {
  registration(__func__, [&] { runtime().unregisterFatBinary(fatCubinHandle); });
}

void CUDARTAPI __cudaRegisterFunction(void** fatCubinHandle, const char* hostFun,
                                      char* /*deviceFun*/, const char* deviceName,
                                      int /*thread_limit*/, uint3* /*tid*/, uint3* /*bid*/,
                                      dim3* /*bDim*/, dim3* /*gDim*/, int* /*wSize*/) {
  registration(__func__, [&] { runtime().registerFunction(fatCubinHandle, hostFun, deviceName); });
}

void CUDARTAPI __cudaRegisterVar(void** fatCubinHandle, char* hostVar, char* /*deviceAddress*/,
                                 const char* deviceName, int ext, size_t size, int constant,
                                 int /*global*/) {
  auto kind = constant != 0 ? RegisteredVariable::Kind::Constant : RegisteredVariable::Kind::Device;
  registration(__func__, [&] {
    runtime().registerVariable(fatCubinHandle, variable(kind, hostVar, deviceName, size, ext));
  });
}

void CUDARTAPI __cudaRegisterManagedVar(void** fatCubinHandle, void** hostVarPtrAddress,
                                        char* /*deviceAddress*/, const char* deviceName, int ext,
                                        size_t size, int /*constant*/, int /*global*/) {
  registration(__func__, [&] {
    RegisteredVariable managed =
        variable(RegisteredVariable::Kind::Managed, hostVarPtrAddress, deviceName, size, ext);
    managed.managedPointer = hostVarPtrAddress;
    runtime().registerVariable(fatCubinHandle, managed);
  });
}

void CUDARTAPI __cudaRegisterHostVar(void** fatCubinHandle, const char* deviceName, char* hostVar,
                                     size_t size) {
  registration(__func__, [&] {
    runtime().registerVariable(
        fatCubinHandle, variable(RegisteredVariable::Kind::Host, hostVar, deviceName, size, 0));
  });
}

void CUDARTAPI __cudaRegisterUnifiedTable(void* /*first*/, void* /*second*/, void* /*third*/,
                                          void* /*fourth*/, void* /*fifth*/) {
  runtime().logger().debug("__cudaRegisterUnifiedTable: ignored");
}

cudaError_t CUDARTAPI __cudaGetProcAddress(void) {
  return cudaSuccess;
}

char CUDARTAPI __cudaInitModule(void** fatCubinHandle) {
  bool initialized = false;
  registration(__func__, [&] { initialized = runtime().initModule(fatCubinHandle); });
  return initialized ? 1 : 0;
}

unsigned CUDARTAPI __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                               struct CUstream_st* stream) {
  try {
    return runtime().pushCallConfiguration(gridDim, blockDim, sharedMem, stream);
  } catch (...) {
    return 1; // the generated code skips the launch on a non-zero result
  }
}

cudaError_t CUDARTAPI __cudaPopCallConfiguration(dim3* gridDim, dim3* blockDim, size_t* sharedMem,
                                                 void* stream) {
  return call([&] { return runtime().popCallConfiguration(gridDim, blockDim, sharedMem, stream); });
}

cudaError_t CUDARTAPI __cudaGetKernel(cudaKernel_t* kernel, const void* hostFunction) {
  return call([&] { return runtime().getKernel(kernel, hostFunction); });
}

cudaError_t CUDARTAPI __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                         void** args, size_t sharedMem, cudaStream_t stream) {
  return call(
      [&] { return runtime().launchKernel(kernel, gridDim, blockDim, args, sharedMem, stream); });
}

cudaError_t CUDARTAPI __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                              void** args, size_t sharedMem, cudaStream_t stream) {
  return call([&] {
    return runtime().launchKernel(kernel, gridDim, blockDim, args, sharedMem, perThread(stream));
  });
}

} // extern "C"
