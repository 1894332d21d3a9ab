// A GPU's external memory and semaphores. cudaExternalMemory_t / cudaExternalSemaphore_t are the
// driver's handles; the handle, buffer and semaphore parameter descriptions share their layout and
// numbering with the driver's (checked below); mipmapped arrays get the driver's array format.
#include "runtime/driver/DriverExternalResource.h"

#include "runtime/core/Stream.h"
#include "runtime/driver/DriverConversions.h"

#include <memory>

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

} // namespace

cudaError_t DriverExternalMemory::mappedBuffer(const cudaExternalMemoryBufferDesc& description,
                                               void** pointer) {
  CUdeviceptr mapped = 0;
  CUresult result = invoke(api_.externalMemoryGetMappedBuffer, &mapped, driverHandle(),
                           reinterpret_cast<const CUDA_EXTERNAL_MEMORY_BUFFER_DESC*>(&description));
  if (result == CUDA_SUCCESS)
    *pointer = reinterpret_cast<void*>(mapped);
  return toCudaError(result);
}

cudaError_t
DriverExternalMemory::mappedMipmappedArray(const cudaExternalMemoryMipmappedArrayDesc& description,
                                           cudaMipmappedArray_t* array) {
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
  CUresult result = invoke(api_.externalMemoryGetMappedMipmappedArray, &mapped, driverHandle(),
                           &driverDescription);
  if (result == CUDA_SUCCESS)
    *array = reinterpret_cast<cudaMipmappedArray_t>(mapped);
  return toCudaError(result);
}

// --- DriverExternalResources --------------------------------------------------------------------

cudaError_t DriverExternalResources::importMemory(const cudaExternalMemoryHandleDesc& description,
                                                  ExternalMemory** memory) {
  CUexternalMemory imported = nullptr;
  if (CUresult result =
          invoke(api_.importExternalMemory, &imported,
                 reinterpret_cast<const CUDA_EXTERNAL_MEMORY_HANDLE_DESC*>(&description));
      result != CUDA_SUCCESS)
    return toCudaError(result);
  const auto handle = reinterpret_cast<cudaExternalMemory_t>(imported);
  *memory = memories_.insert(handle, std::make_unique<DriverExternalMemory>(api_, handle));
  return cudaSuccess;
}

cudaError_t DriverExternalResources::destroy(ExternalMemory& memory) {
  const cudaExternalMemory_t handle = memory.handle();
  cudaError_t result =
      toCudaError(invoke(api_.destroyExternalMemory, reinterpret_cast<CUexternalMemory>(handle)));
  memories_.remove(handle);
  return result;
}

cudaError_t
DriverExternalResources::importSemaphore(const cudaExternalSemaphoreHandleDesc& description,
                                         ExternalSemaphore** semaphore) {
  CUexternalSemaphore imported = nullptr;
  if (CUresult result =
          invoke(api_.importExternalSemaphore, &imported,
                 reinterpret_cast<const CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC*>(&description));
      result != CUDA_SUCCESS)
    return toCudaError(result);
  const auto handle = reinterpret_cast<cudaExternalSemaphore_t>(imported);
  *semaphore = semaphores_.insert(handle, std::make_unique<DriverExternalSemaphore>(handle));
  return cudaSuccess;
}

cudaError_t DriverExternalResources::destroy(ExternalSemaphore& semaphore) {
  const cudaExternalSemaphore_t handle = semaphore.handle();
  cudaError_t result = toCudaError(
      invoke(api_.destroyExternalSemaphore, reinterpret_cast<CUexternalSemaphore>(handle)));
  semaphores_.remove(handle);
  return result;
}

cudaError_t DriverExternalResources::signal(const cudaExternalSemaphore_t* semaphores,
                                            const cudaExternalSemaphoreSignalParams* params,
                                            unsigned int count, Stream& stream) {
  // The driver checks the semaphores themselves (and makes graph nodes while capturing).
  return toCudaError(invoke(api_.signalExternalSemaphoresAsync,
                            reinterpret_cast<const CUexternalSemaphore*>(semaphores),
                            reinterpret_cast<const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS*>(params),
                            count, stream.handle()));
}

cudaError_t DriverExternalResources::wait(const cudaExternalSemaphore_t* semaphores,
                                          const cudaExternalSemaphoreWaitParams* params,
                                          unsigned int count, Stream& stream) {
  return toCudaError(invoke(api_.waitExternalSemaphoresAsync,
                            reinterpret_cast<const CUexternalSemaphore*>(semaphores),
                            reinterpret_cast<const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS*>(params),
                            count, stream.handle()));
}

ExternalMemory* DriverExternalResources::adopt(cudaExternalMemory_t handle) {
  return memories_.findOrInsert(
      handle, [&] { return std::make_unique<DriverExternalMemory>(api_, handle); });
}

ExternalSemaphore* DriverExternalResources::adopt(cudaExternalSemaphore_t handle) {
  return semaphores_.findOrInsert(
      handle, [&] { return std::make_unique<DriverExternalSemaphore>(handle); });
}

} // namespace ocelot::runtime::driver
