// External memory and semaphores through the driver path: what the application gets back is the
// driver's own handle, and handles Ocelot never saw (imported through the driver API) reach the
// driver unchanged. Each call is one "<label> -> <code> <name>" line, each handle one
// "<name> <pointer>" line; the driver-path test compares them with the fake driver's log.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>

static void report(const char* label, cudaError_t error) {
  std::printf("%s -> %d %s\n", label, static_cast<int>(error), cudaGetErrorName(error));
}

int main() {
  cudaExternalMemoryHandleDesc memoryDescription{};
  memoryDescription.type = cudaExternalMemoryHandleTypeOpaqueFd;
  memoryDescription.handle.fd = 3;
  memoryDescription.size = 1 << 20;
  cudaExternalMemory_t memory = nullptr;
  report("cudaImportExternalMemory(nullptr)",
         cudaImportExternalMemory(nullptr, &memoryDescription));
  report("cudaImportExternalMemory(no description)", cudaImportExternalMemory(&memory, nullptr));
  report("cudaImportExternalMemory", cudaImportExternalMemory(&memory, &memoryDescription));
  std::printf("memory %p\n", static_cast<void*>(memory));

  cudaExternalMemoryBufferDesc bufferDescription{};
  bufferDescription.offset = 0x10;
  bufferDescription.size = 256;
  void* buffer = nullptr;
  report("cudaExternalMemoryGetMappedBuffer(nullptr)",
         cudaExternalMemoryGetMappedBuffer(nullptr, memory, &bufferDescription));
  report("cudaExternalMemoryGetMappedBuffer",
         cudaExternalMemoryGetMappedBuffer(&buffer, memory, &bufferDescription));
  std::printf("buffer %p\n", buffer);

  cudaExternalSemaphoreHandleDesc semaphoreDescription{};
  semaphoreDescription.type = cudaExternalSemaphoreHandleTypeOpaqueFd;
  semaphoreDescription.handle.fd = 4;
  cudaExternalSemaphore_t semaphores[2] = {};
  report("cudaImportExternalSemaphore(nullptr)",
         cudaImportExternalSemaphore(nullptr, &semaphoreDescription));
  report("cudaImportExternalSemaphore",
         cudaImportExternalSemaphore(&semaphores[0], &semaphoreDescription));
  std::printf("semaphore %p\n", static_cast<void*>(semaphores[0]));
  // A semaphore the application imported through the driver API: Ocelot never saw it.
  semaphores[1] = reinterpret_cast<cudaExternalSemaphore_t>(uintptr_t{0x7a7a0});

  cudaExternalSemaphoreSignalParams signalParams[2] = {};
  cudaExternalSemaphoreWaitParams waitParams[2] = {};
  cudaStream_t stream = nullptr;
  cudaStreamCreate(&stream);
  report("cudaSignalExternalSemaphoresAsync(nullptr params)",
         cudaSignalExternalSemaphoresAsync(semaphores, nullptr, 2, stream));
  report("cudaSignalExternalSemaphoresAsync(0 semaphores)",
         cudaSignalExternalSemaphoresAsync(nullptr, nullptr, 0, stream));
  report("cudaSignalExternalSemaphoresAsync",
         cudaSignalExternalSemaphoresAsync(semaphores, signalParams, 2, stream));
  report("cudaWaitExternalSemaphoresAsync",
         cudaWaitExternalSemaphoresAsync(semaphores, waitParams, 2, 0));
  report("cudaDestroyExternalSemaphore(driver's)", cudaDestroyExternalSemaphore(semaphores[1]));
  report("cudaDestroyExternalSemaphore", cudaDestroyExternalSemaphore(semaphores[0]));
  report("cudaDestroyExternalMemory", cudaDestroyExternalMemory(memory));
  cudaStreamDestroy(stream);
  return 0;
}
