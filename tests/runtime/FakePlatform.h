#pragma once

// A device in host memory for testing the runtime core without a GPU: it records what the runtime
// asks of it (modules with their images, launches) and can be told to refuse Ocelot's modules or
// to fail launches.

#include "runtime/core/Device.h"
#include "runtime/core/Event.h"
#include "runtime/core/Functions.h"
#include "runtime/core/HostMemory.h"
#include "runtime/core/PlatformResult.h"
#include "runtime/core/Stream.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_set>
#include <vector>

namespace ocelot::runtime::testing {

/// Streams and events whose work is done at once (no host functions); elapsed times are 1.5 ms.
class FakeStream final : public Stream {
public:
  /// `queryResult`: what query() answers (null: cudaSuccess).
  explicit FakeStream(cudaStream_t handle, const std::atomic<cudaError_t>* queryResult = nullptr)
      : Stream(handle), queryResult_(queryResult) {}
  cudaError_t synchronize() override { return cudaSuccess; }
  cudaError_t query() override {
    return queryResult_ != nullptr ? queryResult_->load() : cudaSuccess;
  }
  cudaError_t waitEvent(Event&, unsigned int) override { return cudaSuccess; }
  cudaError_t launchHostFunction(cudaHostFn_t, void*) override { return cudaErrorNotSupported; }
  cudaError_t flags(unsigned int* flags) override {
    *flags = 0;
    return cudaSuccess;
  }
  cudaError_t priority(int* priority) override {
    *priority = 0;
    return cudaSuccess;
  }
  cudaError_t id(unsigned long long* id) override {
    *id = reinterpret_cast<uintptr_t>(handle());
    return cudaSuccess;
  }
  cudaError_t device(int* ordinal) override {
    *ordinal = 0;
    return cudaSuccess;
  }
  cudaError_t attribute(cudaLaunchAttributeID, cudaLaunchAttributeValue*) override {
    return cudaSuccess;
  }
  cudaError_t setAttribute(cudaLaunchAttributeID, const cudaLaunchAttributeValue*) override {
    return cudaSuccess;
  }

private:
  const std::atomic<cudaError_t>* queryResult_;
};

/// Stream queries answer what the device's `streamQueryResult` holds.
class FakeStreams final : public Streams {
public:
  explicit FakeStreams(const std::atomic<cudaError_t>& queryResult)
      : queryResult_(queryResult), null_{nullptr, &queryResult},
        legacy_{cudaStreamLegacy, &queryResult}, perThread_{cudaStreamPerThread, &queryResult} {
    nullStream_ = &null_;
    legacyStream_ = &legacy_;
  }
  cudaError_t create(unsigned int, int, Stream** stream) override {
    auto handle = reinterpret_cast<cudaStream_t>(uintptr_t{0x100} + 16 * next_++);
    *stream = created_.insert(handle, std::make_unique<FakeStream>(handle, &queryResult_));
    return cudaSuccess;
  }
  cudaError_t destroy(Stream& stream) override {
    return created_.remove(stream.handle()) != nullptr ? cudaSuccess
                                                       : cudaErrorInvalidResourceHandle;
  }

protected:
  Stream& perThreadStream() override { return perThread_; }

private:
  const std::atomic<cudaError_t>& queryResult_;
  FakeStream null_, legacy_, perThread_;
  uintptr_t next_ = 0;
};

/// A query answers what the device's `queryResult` holds.
class FakeEvent final : public Event {
public:
  FakeEvent(const std::atomic<cudaError_t>& queryResult, std::atomic<int>& records,
            unsigned int flags)
      : Event(reinterpret_cast<cudaEvent_t>(this)), createdWith(flags), queryResult_(queryResult),
        records_(records) {}
  cudaError_t record(Stream&, unsigned int) override {
    ++records_;
    return cudaSuccess;
  }
  cudaError_t synchronize() override { return cudaSuccess; }
  cudaError_t query() override { return queryResult_.load(); }
  cudaError_t elapsedSince(Event&, float* milliseconds) override {
    *milliseconds = 1.5f;
    return cudaSuccess;
  }
  const unsigned int createdWith; ///< cudaEventCreateWithFlags' flags

private:
  const std::atomic<cudaError_t>& queryResult_;
  std::atomic<int>& records_;
};

class FakeEvents final : public Events {
public:
  FakeEvents(const std::atomic<cudaError_t>& queryResult, std::atomic<int>& records)
      : queryResult_(queryResult), records_(records) {}
  cudaError_t create(unsigned int flags, Event** event) override {
    auto created = std::make_unique<FakeEvent>(queryResult_, records_, flags);
    const cudaEvent_t handle = created->handle();
    *event = table_.insert(handle, std::move(created));
    return cudaSuccess;
  }
  cudaError_t destroy(Event& event) override {
    return table_.remove(event.handle()) != nullptr ? cudaSuccess : cudaErrorInvalidResourceHandle;
  }

private:
  const std::atomic<cudaError_t>& queryResult_;
  std::atomic<int>& records_;
};

class FakeDevice;

/// Page-locked host memory, only when a test opts in (FakeDevice::hostMemory; other tests expect a
/// device without).
class FakeHostMemory final : public HostMemory {
public:
  explicit FakeHostMemory(FakeDevice& device) : device_(device) {}
  cudaError_t allocate(void** pointer, size_t bytes, unsigned int) override;
  cudaError_t free(void* pointer) override;
  cudaError_t registerRange(void* pointer, size_t bytes, unsigned int) override;
  cudaError_t unregisterRange(void* pointer) override;
  cudaError_t devicePointer(void* host, void** device) override;
  cudaError_t flags(void*, unsigned int*) override { return cudaErrorNotSupported; }

private:
  FakeDevice& device_;
};

/// Occupancy from registers alone (an sm_90 multiprocessor: 64 K registers in units of 256 per
/// warp, 2048 threads, 32 CTAs), when a test sets FakeDevice::originalRegisters; the other calls
/// are not supported.
class FakeFunctions final : public Functions {
public:
  explicit FakeFunctions(FakeDevice& device) : device_(device) {}
  cudaError_t attributes(DeviceFunction function, cudaFuncAttributes* attributes) override;
  cudaError_t setAttribute(DeviceFunction, cudaFuncAttribute, int) override {
    return cudaErrorNotSupported;
  }
  cudaError_t setCacheConfig(DeviceFunction, cudaFuncCache) override {
    return cudaErrorNotSupported;
  }
  cudaError_t parameter(DeviceFunction, size_t, size_t*, size_t*) override {
    return cudaErrorNotSupported;
  }
  cudaError_t maxActiveBlocks(DeviceFunction function, int blockSize, size_t, unsigned int,
                              int* blocks) override;
  cudaError_t availableDynamicSharedMemory(DeviceFunction, int, int, size_t*) override {
    return cudaErrorNotSupported;
  }

private:
  FakeDevice& device_;
};

class FakeDevice final : public Device {
public:
  FakeDevice() {
    areas_.streams = &streams_;
    areas_.events = &events_;
    areas_.hostMemory = &hostMemory_;
    areas_.functions = &functions_;
  }

  struct Launch {
    std::string kernel;
    dim3 grid, block;
    const Stream* stream = nullptr;
  };

  fatbin::ComputeCapability capability{9, 0};
  bool refuseOcelotModules = false;
  bool refuseCappedModules = false; ///< refuse modules with `.maxnreg`
  std::atomic<int> loadAttempts{0};
  cudaError_t launchResult = cudaSuccess;
  /// What event queries answer (cudaErrorNotReady: work stays in flight; an error: it failed).
  std::atomic<cudaError_t> queryResult{cudaSuccess};
  /// What stream queries answer (an error: the context has a sticky fault).
  std::atomic<cudaError_t> streamQueryResult{cudaSuccess};
  std::atomic<int> eventRecords{0}; ///< event records in any stream
  /// Called by launch() with each launch's parameters (an instrumented kernel's hidden parameter
  /// is the last argument: a test plays the kernel writing its completion word).
  std::function<void(const LaunchParams&)> onLaunch;
  /// Runs inside reset(), as another thread's calls would while a reset runs.
  std::function<void()> duringReset;

  std::string name() const override { return "fake device"; }
  fatbin::ComputeCapability computeCapability() const override { return capability; }
  cudaError_t attribute(cudaDeviceAttr attribute, int* value) override {
    switch (attribute) {
    case cudaDevAttrMaxRegistersPerMultiprocessor:
    case cudaDevAttrMaxRegistersPerBlock:
      *value = 65536;
      break;
    case cudaDevAttrMaxThreadsPerBlock:
    case cudaDevAttrMaxBlockDimX:
      *value = 1024;
      break;
    default:
      *value = 42;
    }
    return cudaSuccess;
  }
  cudaError_t memoryInfo(size_t* free, size_t* total) override {
    *free = 1 << 20;
    *total = 2 << 20;
    return cudaSuccess;
  }
  cudaError_t activate() override {
    ++activations;
    return cudaSuccess;
  }
  cudaError_t synchronize() override { return cudaSuccess; }
  cudaError_t reset() override {
    ++resets;
    if (duringReset)
      duringReset();
    ++epoch; // what was loaded until now, also while the reset ran, is gone
    // Like a GPU's reset: every allocation of the device is gone.
    std::lock_guard lock(allocationsMutex_);
    for (void* pointer : allocations_)
      std::free(pointer);
    allocations_.clear();
    return cudaSuccess;
  }
  cudaError_t allocate(void** pointer, size_t bytes) override {
    *pointer = std::calloc(1, bytes);
    if (*pointer == nullptr)
      return cudaErrorMemoryAllocation;
    std::lock_guard lock(allocationsMutex_);
    allocations_.insert(*pointer);
    return cudaSuccess;
  }
  cudaError_t free(void* pointer) override {
    std::lock_guard lock(allocationsMutex_);
    if (allocations_.erase(pointer) != 0)
      std::free(pointer);
    return cudaSuccess;
  }
  cudaError_t copy(void* destination, const void* source, size_t bytes, Stream& stream,
                   bool) override {
    std::memcpy(destination, source, bytes);
    std::lock_guard lock(mutex);
    copyStreams.push_back(&stream);
    return cudaSuccess;
  }
  cudaError_t fill(void* destination, unsigned char value, size_t bytes, Stream& stream,
                   bool) override {
    std::memset(destination, value, bytes);
    std::lock_guard lock(mutex);
    fillStreams.push_back(&stream);
    return cudaSuccess;
  }
  cudaError_t loadModule(const ModuleImage& image, DeviceModule* module,
                         std::string* log) override {
    std::lock_guard lock(mutex);
    ++loadAttempts;
    if (refuseCappedModules && !image.ptx.empty() &&
        image.ptx[0].find(".maxnreg") != std::string::npos) {
      *log = "fake JIT error: .maxnreg";
      return cudaErrorInvalidPtx;
    }
    if (refuseOcelotModules && image.form != ModuleImage::Form::Original) {
      *log = "fake JIT error";
      return cudaErrorInvalidPtx;
    }
    loaded.push_back(image);
    *module = reinterpret_cast<DeviceModule>(loaded.size());
    moduleEpochs[*module] = epoch.load();
    return cudaSuccess;
  }
  cudaError_t unloadModule(DeviceModule) override {
    ++unloads;
    return cudaSuccess;
  }
  cudaError_t function(DeviceModule module, const char* name, DeviceFunction* function) override {
    std::lock_guard lock(mutex);
    names.push_back(std::make_unique<std::string>(name));
    *function = names.back().get();
    functionEpochs[*function] = moduleEpochs[module];
    if (originalRegisters != 0) {
      size_t index = reinterpret_cast<size_t>(module);
      const std::string ptx = index >= 1 && index <= loaded.size() && !loaded[index - 1].ptx.empty()
                                  ? loaded[index - 1].ptx[0]
                                  : std::string();
      int registers = originalRegisters;
      if (ptx.find("__ocelot_instrumentation") != std::string::npos) {
        registers = instrumentedRegisters;
        if (size_t cap = ptx.find(".maxnreg "); cap != std::string::npos)
          registers = std::min(registers, std::atoi(ptx.c_str() + cap + 9));
      }
      functionRegisters[*function] = registers;
    }
    return cudaSuccess;
  }
  cudaError_t global(DeviceModule, const char* name, void** address, size_t* bytes) override {
    std::lock_guard lock(mutex);
    auto& storage = globals[name];
    if (storage.empty())
      storage.resize(16);
    if (address != nullptr)
      *address = storage.data();
    if (bytes != nullptr)
      *bytes = storage.size();
    return cudaSuccess;
  }
  cudaError_t launch(const LaunchParams& params) override {
    std::lock_guard lock(mutex);
    if (staleFunctionsFail)
      if (auto it = functionEpochs.find(params.function);
          it != functionEpochs.end() && it->second != epoch.load())
        return cudaErrorInvalidResourceHandle; // a function of a destroyed context
    ++launchCount;
    if (recordLaunches)
      launches.push_back(
          {*static_cast<std::string*>(params.function), params.grid, params.block, params.stream});
    if (onLaunch && launchResult == cudaSuccess)
      onLaunch(params);
    return launchResult;
  }
  std::mutex mutex;
  std::vector<ModuleImage> loaded;
  std::vector<Launch> launches;
  bool recordLaunches = true; ///< false: only launchCount (a launch then allocates nothing)
  std::atomic<uint64_t> launchCount{0};
  std::vector<const Stream*> copyStreams, fillStreams; ///< the stream of each copy and fill
  /// Like a GPU: launching a function of a module loaded before the last reset ended (also one
  /// loaded while it ran) fails. Off by default.
  bool staleFunctionsFail = false;
  std::atomic<int> epoch{0}; ///< resets completed
  std::map<DeviceModule, int> moduleEpochs;
  std::map<DeviceFunction, int> functionEpochs;
  std::vector<std::unique_ptr<std::string>> names;
  std::map<std::string, std::vector<char>> globals;
  std::atomic<int> activations{0}, resets{0}, unloads{0};
  /// Registers per thread of the application's kernels and of instrumented ones (lowered by a
  /// `.maxnreg` in their module); 0: occupancy queries are not supported.
  int originalRegisters = 0, instrumentedRegisters = 0;
  std::map<DeviceFunction, int> functionRegisters; ///< guarded by `mutex`
  bool hostMemory = false;                         ///< allocateHost/registerHost supported
  bool mappedHost = false;             ///< registered host memory has a device address (its own)
  std::atomic<int> hostAllocations{0}; ///< allocateHost calls
  std::map<void*, size_t> registered;  ///< registerHost ranges (guarded by `mutex`)

private:
  FakeStreams streams_{streamQueryResult};
  FakeEvents events_{queryResult, eventRecords};
  FakeHostMemory hostMemory_{*this};
  FakeFunctions functions_{*this};
  std::mutex allocationsMutex_;
  std::unordered_set<void*> allocations_;

public:
};

inline cudaError_t FakeHostMemory::allocate(void** pointer, size_t bytes, unsigned int) {
  if (!device_.hostMemory)
    return cudaErrorNotSupported;
  ++device_.hostAllocations;
  *pointer = std::malloc(bytes);
  return *pointer != nullptr ? cudaSuccess : cudaErrorMemoryAllocation;
}

inline cudaError_t FakeHostMemory::free(void* pointer) {
  std::free(pointer);
  return device_.hostMemory ? cudaSuccess : cudaErrorNotSupported;
}

inline cudaError_t FakeHostMemory::registerRange(void* pointer, size_t bytes, unsigned int) {
  if (!device_.hostMemory)
    return cudaErrorNotSupported;
  std::lock_guard lock(device_.mutex);
  return device_.registered.emplace(pointer, bytes).second ? cudaSuccess
                                                           : cudaErrorHostMemoryAlreadyRegistered;
}

inline cudaError_t FakeHostMemory::devicePointer(void* host, void** device) {
  if (!device_.hostMemory || !device_.mappedHost)
    return cudaErrorNotSupported;
  *device = host;
  return cudaSuccess;
}

inline cudaError_t FakeHostMemory::unregisterRange(void* pointer) {
  std::lock_guard lock(device_.mutex);
  return device_.registered.erase(pointer) != 0 ? cudaSuccess : cudaErrorHostMemoryNotRegistered;
}

inline cudaError_t FakeFunctions::attributes(DeviceFunction function,
                                             cudaFuncAttributes* attributes) {
  std::lock_guard lock(device_.mutex);
  auto it = device_.functionRegisters.find(function);
  if (it == device_.functionRegisters.end())
    return cudaErrorNotSupported;
  *attributes = cudaFuncAttributes{};
  attributes->numRegs = it->second;
  return cudaSuccess;
}

inline cudaError_t FakeFunctions::maxActiveBlocks(DeviceFunction function, int blockSize, size_t,
                                                  unsigned int, int* blocks) {
  std::lock_guard lock(device_.mutex);
  auto it = device_.functionRegisters.find(function);
  if (it == device_.functionRegisters.end() || blockSize <= 0)
    return cudaErrorNotSupported;
  const int warps = (blockSize + 31) / 32;
  const int perWarp = (it->second + 7) / 8 * 8 * 32;
  *blocks = std::min({65536 / (perWarp * warps), 2048 / blockSize, 32});
  return cudaSuccess;
}

class FakePlatform final : public Platform {
public:
  explicit FakePlatform(FakeDevice& device) : device_(device) {}
  std::string name() const override { return "fake platform"; }
  int driverVersion() const override { return 13000; }
  int deviceCount() const override { return 1; }
  Device& device(int) override { return device_; }

private:
  FakeDevice& device_;
};

/// The platform factory of a Runtime over `device` (driver 13.0): `Runtime runtime{
/// fakePlatformOf(device), LogLevel::Off, nullptr};`.
inline std::function<PlatformResult()> fakePlatformOf(FakeDevice& device) {
  return [&device] {
    return PlatformResult{std::make_unique<FakePlatform>(device), cudaSuccess, 13000, {}};
  };
}

} // namespace ocelot::runtime::testing
