// DriverDevice: external memory and semaphores. cudaExternalMemory_t / cudaExternalSemaphore_t are
// the driver's handles; the handle, buffer and semaphore parameter descriptions share their layout
// and numbering with the driver's (checked below); mipmapped arrays get the driver's array format.
#include "runtime/driver/DriverConversions.h"
#include "runtime/driver/DriverDevice.h"

namespace ocelot::runtime::driver {
namespace {

static_assert(sizeof(cudaExternalMemoryHandleDesc) == sizeof(CUDA_EXTERNAL_MEMORY_HANDLE_DESC));
static_assert(sizeof(cudaExternalMemoryBufferDesc) == sizeof(CUDA_EXTERNAL_MEMORY_BUFFER_DESC));
static_assert(sizeof(cudaExternalSemaphoreHandleDesc) ==
              sizeof(CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC));
static_assert(sizeof(cudaExternalSemaphoreSignalParams) ==
              sizeof(CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS));
static_assert(sizeof(cudaExternalSemaphoreWaitParams) ==
              sizeof(CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS));

CUexternalMemory toDriver(cudaExternalMemory_t memory) {
  return reinterpret_cast<CUexternalMemory>(memory);
}

} // namespace

cudaError_t DriverDevice::importExternalMemory(cudaExternalMemory_t* memory,
                                               const cudaExternalMemoryHandleDesc& description) {
  CUexternalMemory imported = nullptr;
  CUresult result = invoke(api_.importExternalMemory, &imported,
                           reinterpret_cast<const CUDA_EXTERNAL_MEMORY_HANDLE_DESC*>(&description));
  if (result == CUDA_SUCCESS)
    *memory = reinterpret_cast<cudaExternalMemory_t>(imported);
  return toCudaError(result);
}

cudaError_t DriverDevice::externalMemoryBuffer(void** pointer, cudaExternalMemory_t memory,
                                               const cudaExternalMemoryBufferDesc& description) {
  CUdeviceptr mapped = 0;
  CUresult result = invoke(api_.externalMemoryGetMappedBuffer, &mapped, toDriver(memory),
                           reinterpret_cast<const CUDA_EXTERNAL_MEMORY_BUFFER_DESC*>(&description));
  if (result == CUDA_SUCCESS)
    *pointer = reinterpret_cast<void*>(mapped);
  return toCudaError(result);
}

cudaError_t DriverDevice::externalMemoryMipmappedArray(
    cudaMipmappedArray_t* array, cudaExternalMemory_t memory,
    const cudaExternalMemoryMipmappedArrayDesc& description) {
  CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC driverDescription{};
  driverDescription.offset = description.offset;
  driverDescription.numLevels = description.numLevels;
  driverDescription.arrayDesc.Width = description.extent.width;
  driverDescription.arrayDesc.Height = description.extent.height;
  driverDescription.arrayDesc.Depth = description.extent.depth;
  driverDescription.arrayDesc.Flags = description.flags;
  if (!toArrayFormat(description.formatDesc, &driverDescription.arrayDesc.Format,
                     &driverDescription.arrayDesc.NumChannels))
    return cudaErrorInvalidChannelDescriptor;
  CUmipmappedArray mapped = nullptr;
  CUresult result = invoke(api_.externalMemoryGetMappedMipmappedArray, &mapped, toDriver(memory),
                           &driverDescription);
  if (result == CUDA_SUCCESS)
    *array = reinterpret_cast<cudaMipmappedArray_t>(mapped);
  return toCudaError(result);
}

cudaError_t DriverDevice::destroyExternalMemory(cudaExternalMemory_t memory) {
  return toCudaError(invoke(api_.destroyExternalMemory, toDriver(memory)));
}

cudaError_t
DriverDevice::importExternalSemaphore(cudaExternalSemaphore_t* semaphore,
                                      const cudaExternalSemaphoreHandleDesc& description) {
  CUexternalSemaphore imported = nullptr;
  CUresult result =
      invoke(api_.importExternalSemaphore, &imported,
             reinterpret_cast<const CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC*>(&description));
  if (result == CUDA_SUCCESS)
    *semaphore = reinterpret_cast<cudaExternalSemaphore_t>(imported);
  return toCudaError(result);
}

cudaError_t DriverDevice::destroyExternalSemaphore(cudaExternalSemaphore_t semaphore) {
  return toCudaError(
      invoke(api_.destroyExternalSemaphore, reinterpret_cast<CUexternalSemaphore>(semaphore)));
}

cudaError_t DriverDevice::signalExternalSemaphores(const cudaExternalSemaphore_t* semaphores,
                                                   const cudaExternalSemaphoreSignalParams* params,
                                                   unsigned int count, Stream& queue) {
  const cudaStream_t stream = queue.handle();
  return toCudaError(invoke(
      api_.signalExternalSemaphoresAsync, reinterpret_cast<const CUexternalSemaphore*>(semaphores),
      reinterpret_cast<const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS*>(params), count, stream));
}

cudaError_t DriverDevice::waitExternalSemaphores(const cudaExternalSemaphore_t* semaphores,
                                                 const cudaExternalSemaphoreWaitParams* params,
                                                 unsigned int count, Stream& queue) {
  const cudaStream_t stream = queue.handle();
  return toCudaError(invoke(
      api_.waitExternalSemaphoresAsync, reinterpret_cast<const CUexternalSemaphore*>(semaphores),
      reinterpret_cast<const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS*>(params), count, stream));
}

} // namespace ocelot::runtime::driver
