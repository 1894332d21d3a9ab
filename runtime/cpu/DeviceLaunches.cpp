#include "runtime/cpu/DeviceLaunches.h"

#include "runtime/cpu/CpuModule.h"
#include "runtime/cpu/DeviceMemory.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <driver_types.h>

namespace ocelot::runtime::cpu {
namespace {

constexpr uint64_t kTailLaunchStream = 0x3;
constexpr uint32_t kDefaultDynamicSharedLimit = 48 * 1024;

uint32_t fail(LaunchState& launch, cudaError_t error) {
  launch.deviceError.store(static_cast<uint32_t>(error), std::memory_order_relaxed);
  return static_cast<uint32_t>(error);
}

/// The decoded kernel at a device-code function address, or null with the device error set.
std::shared_ptr<const DecodedKernel> kernelAt(LaunchState& launch, uint64_t function) {
  CpuModule* module = launch.kernel != nullptr ? launch.kernel->module : nullptr;
  // The address was taken in the launching kernel's module, so it is looked up there.
  const ModuleFunction* target = module != nullptr ? module->functionAt(function) : nullptr;
  if (target == nullptr || !target->function->isEntry()) {
    fail(launch, cudaErrorInvalidDeviceFunction);
    return nullptr;
  }
  auto decoded = module->kernel(target->name);
  if (!decoded) {
    std::fprintf(stderr, "ocelot: a device-side launch cannot run %s\n",
                 decoded.error().message.c_str());
    fail(launch, cudaErrorNotSupported);
    return nullptr;
  }
  return *decoded;
}

bool validConfiguration(const DecodedKernel& kernel, dim3 grid, dim3 block,
                        uint32_t dynamicShared) {
  const uint64_t threads = uint64_t{block.x} * block.y * block.z;
  return threads != 0 && threads <= 1024 && grid.x != 0 && grid.y != 0 && grid.z != 0 &&
         grid.y <= 65535 && grid.z <= 65535 &&
         (kernel.maxThreadsPerBlock == 0 || threads <= kernel.maxThreadsPerBlock) &&
         dynamicShared + kernel.staticSharedSize <= kDefaultDynamicSharedLimit;
}

uint64_t allocateBuffer(LaunchState& launch, uint64_t size) {
  void* buffer =
      launch.memory->allocate(std::max<uint64_t>(size, 8), DeviceMemory::Kind::Parameters);
  if (buffer == nullptr) {
    fail(launch, cudaErrorLaunchOutOfResources);
    return 0;
  }
  std::memset(buffer, 0, std::max<uint64_t>(size, 8));
  return reinterpret_cast<uintptr_t>(buffer);
}

} // namespace

uint64_t deviceParameterBuffer(LaunchState& launch, uint64_t function, dim3 grid, dim3 block,
                               uint32_t dynamicShared) {
  auto kernel = kernelAt(launch, function);
  if (!kernel)
    return 0;
  if (!validConfiguration(*kernel, grid, block, dynamicShared)) {
    fail(launch, cudaErrorInvalidConfiguration);
    return 0;
  }
  const uint64_t buffer = allocateBuffer(launch, kernel->parameterBufferSize);
  if (buffer == 0)
    return 0;
  std::lock_guard lock(launch.deviceLaunchMutex);
  launch.deviceLaunches.push_back(
      {std::move(kernel), grid, block, dynamicShared, buffer, 0, false});
  return buffer;
}

uint64_t deviceParameterBuffer(LaunchState& launch, uint64_t size) {
  const uint64_t buffer = allocateBuffer(launch, std::min<uint64_t>(size, 32 * 1024));
  if (buffer == 0)
    return 0;
  std::lock_guard lock(launch.deviceLaunchMutex);
  launch.deviceLaunches.push_back({nullptr, dim3(), dim3(), 0, buffer, 0, false});
  return buffer;
}

uint32_t deviceLaunch(LaunchState& launch, uint64_t buffer, uint64_t stream) {
  std::lock_guard lock(launch.deviceLaunchMutex);
  for (auto it = launch.deviceLaunches.rbegin(); it != launch.deviceLaunches.rend(); ++it)
    if (it->parameters == buffer && !it->launched && it->kernel) {
      it->launched = true;
      it->stream = stream;
      return cudaSuccess;
    }
  return fail(launch, cudaErrorInvalidValue);
}

uint32_t deviceLaunch(LaunchState& launch, uint64_t function, uint64_t buffer, dim3 grid,
                      dim3 block, uint32_t dynamicShared, uint64_t stream) {
  auto kernel = kernelAt(launch, function);
  if (!kernel)
    return launch.deviceError.load(std::memory_order_relaxed);
  if (!validConfiguration(*kernel, grid, block, dynamicShared))
    return fail(launch, cudaErrorInvalidConfiguration);
  std::lock_guard lock(launch.deviceLaunchMutex);
  for (auto it = launch.deviceLaunches.rbegin(); it != launch.deviceLaunches.rend(); ++it)
    if (it->parameters == buffer && !it->launched) {
      *it = DeviceLaunch{std::move(kernel), grid, block, dynamicShared, buffer, stream, true};
      return cudaSuccess;
    }
  return fail(launch, cudaErrorInvalidValue);
}

void prepareChildLaunch(const LaunchState& parent, const DeviceLaunch& launch, LaunchState* child) {
  child->kernel = launch.kernel.get();
  child->grid = launch.grid;
  child->block = launch.block;
  child->dynamicShared = launch.dynamicShared;
  child->parameters = launch.parameters;
  child->gridId = parent.gridId;
  child->smCount = parent.smCount;
  child->memory = parent.memory;
  child->heap = parent.heap;
  child->tracer = parent.tracer;
  child->textures = parent.textures;
  child->textureCount = parent.textureCount;
  child->options = parent.options;
  child->deadline = parent.deadline;
  child->reportAt = parent.reportAt;
  child->printfRecordsLeft.store(parent.printfRecordsLeft.load());
  child->nestingDepth = parent.nestingDepth + 1;
}

/// Tail launches run after every other grid the parent launched.
bool isTailLaunch(const DeviceLaunch& launch) {
  return launch.stream == kTailLaunchStream;
}

} // namespace ocelot::runtime::cpu
