#pragma once

#include "runtime/core/Device.h"
#include "runtime/cpu/CpuArray.h"
#include "runtime/cpu/CpuCopies.h"
#include "runtime/cpu/CpuEvent.h"
#include "runtime/cpu/CpuGraph.h"
#include "runtime/cpu/CpuHostMemory.h"
#include "runtime/cpu/CpuIpc.h"
#include "runtime/cpu/CpuKernelFunctions.h"
#include "runtime/cpu/CpuLibraries.h"
#include "runtime/cpu/CpuManagedMemory.h"
#include "runtime/cpu/CpuMemoryPool.h"
#include "runtime/cpu/CpuModule.h"
#include "runtime/cpu/CpuStream.h"
#include "runtime/cpu/CpuTexture.h"
#include "runtime/cpu/DeviceMemory.h"
#include "runtime/cpu/LaunchRunner.h"
#include "runtime/cpu/LaunchServices.h"
#include "runtime/cpu/StreamQueue.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace ocelot::runtime::cpu {

class ExecutionTracer;

/// Ocelot's CPU back end as a Device: device memory is host memory from one reserved arena,
/// modules are PTX parsed by Ocelot and decoded per kernel, launches run on a pool of host worker
/// threads (CtaExecutor).
///
/// Streams are asynchronous and in order, as on a GPU: every stream-ordered call (launch, copy,
/// fill, host function, event record and wait, stream-ordered free, graph launch) is validated on
/// the calling thread and queued on its stream (StreamQueue), whose own host thread runs it once
/// the work it follows is done. The legacy default stream waits for and blocks every blocking
/// stream; per-thread default streams are ordinary streams, one per host thread; synchronous calls
/// queue their work and wait for it. Events are the completion of a record in a stream, so
/// queries answer cudaErrorNotReady while work is pending and timing measures when the preceding
/// work finished. Launches use the worker pool one at a time; a launch that finds it busy for
/// long (a kernel spinning on a host flag) runs on its stream's thread alone instead, so no stream
/// can hold up another.
///
/// Graphs (CpuGraph, GraphExec) are built by hand or by stream capture (CaptureRegistry: every
/// stream-ordered call on a capturing stream adds a node instead of running) and launched as one
/// stream operation that runs the nodes in dependency order on the stream's thread.
///
/// Like a GPU context, a kernel fault (illegal address, trap, assert, watchdog) makes the device
/// unusable: the launch itself succeeds (as an asynchronous launch does), later work in every
/// stream is skipped, and every later call reports the fault until reset(). Device printf output
/// is buffered and written at the next synchronization point, as CUDA does.
///
/// A later LLVM-JIT back end would be a second executor behind the same device: only
/// loadModule/launch would change (see docs/cpu-backend.md).
class CpuDevice final : public Device {
public:
  /// Fails (returns null with `error`) only when no address space can be reserved. `ordinal` is
  /// the device's number among the platform's CPU devices (OCELOT_CPU_DEVICES): its pointers'
  /// attributes and its UUID carry it.
  static std::unique_ptr<CpuDevice> create(std::string* error, int ordinal = 0);
  ~CpuDevice() override;

  // --- Identity and properties ----------------------------------------------------------------
  std::string name() const override;
  fatbin::ComputeCapability computeCapability() const override { return {9, 0}; }
  cudaError_t attribute(cudaDeviceAttr attribute, int* value) override;
  cudaError_t memoryInfo(size_t* free, size_t* total) override;
  cudaError_t uuid(cudaUUID_t* uuid) override;
  cudaError_t totalMemory(size_t* bytes) override;

  // --- Context ----------------------------------------------------------------------------------
  cudaError_t activate() override { return cudaSuccess; }
  cudaError_t synchronize() override;
  cudaError_t reset() override;
  cudaError_t setFlags(unsigned int flags) override;
  cudaError_t flags(unsigned int* flags) override;
  cudaError_t limit(cudaLimit limit, size_t* value) override;
  cudaError_t setLimit(cudaLimit limit, size_t value) override;
  cudaError_t cacheConfig(cudaFuncCache* config) override;
  cudaError_t setCacheConfig(cudaFuncCache config) override;

  // --- Memory -----------------------------------------------------------------------------------
  cudaError_t allocate(void** pointer, size_t bytes) override;
  cudaError_t free(void* pointer) override;
  cudaError_t copy(void* destination, const void* source, size_t bytes, Stream& stream,
                   bool async) override;
  cudaError_t checkCopyKind(const void* destination, const void* source, int kind) override;
  cudaError_t fill(void* destination, unsigned char value, size_t bytes, Stream& stream,
                   bool async) override;
  cudaError_t allocatePitch(void** pointer, size_t* pitch, size_t width, size_t height) override;
  cudaError_t pointerAttributes(cudaPointerAttributes* attributes, const void* pointer) override;
  // --- Modules ----------------------------------------------------------------------------------
  bool runsIr() const override { return true; }
  cudaError_t loadModule(const ModuleImage& image, DeviceModule* module, std::string* log) override;
  cudaError_t unloadModule(DeviceModule module) override;
  cudaError_t function(DeviceModule module, const char* name, DeviceFunction* function) override;
  cudaError_t global(DeviceModule module, const char* name, void** address, size_t* bytes) override;

  // --- Execution --------------------------------------------------------------------------------
  cudaError_t launch(const LaunchParams& params) override;

  cudaError_t profilerControl(bool) override { return cudaSuccess; }

  // --- CPU-device specific (tests, benchmarks, tools) -------------------------------------------
  /// Attaches a tracer to later launches (null detaches). Not owned.
  void setTracer(ExecutionTracer* tracer) { tracer_ = tracer; }
  ExecutionOptions& options() { return options_; }
  /// The message of the fault that made the device unusable, "" when none.
  std::string faultMessage() const;
  uint32_t workers() const { return runner_->workers(); }
  uint64_t threadInstructions() const { return runner_->threadInstructions(); }
  DeviceMemory& memory() { return *memory_; }
  /// Replaces the worker pool (benchmarks compare worker counts in one process).
  void setWorkers(uint32_t workers);

  // --- What the device's objects share (the back end's own use) ----------------------------------
  CpuStreams& cpuStreams() { return streams_; }
  CpuEvents& cpuEvents() { return events_; }
  CpuCopies& cpuCopies() { return copies_; }
  CpuArrays& cpuArrays() { return arrays_; }
  /// The sticky fault, or success.
  cudaError_t sticky() const { return stickyError_.load(std::memory_order_acquire); }
  bool faulted() const { return sticky() != cudaSuccess; }
  /// Writes pending device printf output (at synchronization points).
  void flushOutput();
  /// A capturing stream goes away: its capture is invalidated (and ended when it began it).
  void forgetCapture(CpuStream& stream);
  /// The capture-mode check of potentially unsafe calls (cudaMalloc, cudaFree, synchronization):
  /// cudaErrorStreamCaptureUnsupported when a capture prohibits it.
  cudaError_t checkUnsafeCall();

  /// Host memory the device does not know (neither in the arena nor registered).
  bool isPageable(const void* pointer) const;
  CpuGraphs& cpuGraphs() { return graphs_; }

  // --- Launches (CpuDevice.cpp) ------------------------------------------------------------------
  /// A validated launch, with its parameters copied: what runs later on a stream's thread.
  struct PreparedLaunch {
    std::shared_ptr<const DecodedKernel> kernel;
    dim3 grid, block;
    uint32_t dynamicShared = 0;
    bool cooperative = false;
    std::vector<std::byte> parameters; ///< the parameter buffer's bytes
    ExecutionTracer* tracer = nullptr;
    uint64_t ticket = 0; ///< deterministic mode: the launch's place in issue order (0: none)
  };
  cudaError_t prepareLaunch(DeviceFunction function, dim3 grid, dim3 block, size_t sharedMem,
                            void** args, const cudaLaunchAttribute* attributes,
                            unsigned int attributeCount, bool cooperative,
                            PreparedLaunch* prepared);
  void runLaunch(const PreparedLaunch& launch, ConditionalValues* conditionals);
  /// A kernel's parameter layout (offsets and sizes), for copying graph-node arguments.
  cudaError_t parameterLayout(DeviceFunction function, std::vector<size_t>* offsets,
                              std::vector<size_t>* sizes);

private:
  // The kernel-function and library areas read the module and function tables below.
  friend class CpuKernelFunctions;
  friend class CpuLibraries;

  struct Function {
    CpuModule* module = nullptr;
    std::string name;
    int maxDynamicShared = -1; ///< -1: 48 KiB less the static shared memory
    int carveout = -1;
  };

  CpuDevice();
  int ordinal_ = 0;

  std::unique_ptr<DeviceMemory> memory_;
  std::unique_ptr<LaunchRunner> runner_;
  std::unique_ptr<DeviceHeap> heap_;
  ExecutionOptions options_;
  ExecutionTracer* tracer_ = nullptr;
  std::unique_ptr<ExecutionTracer> blockTrace_; ///< OCELOT_CPU_TRACE_OUTPUT

  /// Destroys what earlier resets set aside once no launch can use it, else keeps it for later.
  void destroyRetired(std::vector<std::unique_ptr<CpuModule>> modules,
                      std::vector<std::unique_ptr<Function>> functions);
  /// The function of a handle this device made, or null (takes mutex_).
  Function* findFunction(DeviceFunction function) const;

  mutable std::mutex mutex_; ///< the tables below
  /// The worker pool runs one launch at a time (launches are whole-device work).
  std::timed_mutex launchMutex_;
  std::map<CpuModule*, std::unique_ptr<CpuModule>> modules_;
  std::map<void*, std::unique_ptr<Function>> functions_;
  /// What resets took out of the tables, until no launch can still use it (see reset()).
  std::vector<std::unique_ptr<CpuModule>> retiredModules_;
  std::vector<std::unique_ptr<Function>> retiredFunctions_;
  /// launch() calls between finding their function and enqueueing their work.
  std::atomic<int> launchesPreparing_{0};
  /// Libraries whose image is no PTX: loading succeeds (the driver loads lazily too) and every use
  /// fails; the handle only has to be unique.
  std::map<void*, std::unique_ptr<char>> unusableLibraries_;
  unsigned int flags_ = 0;
  cudaFuncCache cacheConfig_ = cudaFuncCachePreferNone;
  size_t printfFifoSize_ = 1 << 20;

  std::atomic<uint64_t> nextGridId_{0};
  /// CTAs of the launch holding the worker pool (whether it leaves workers idle).
  std::atomic<uint64_t> poolCtas_{0};
  /// Deterministic mode: launches take the pool in the order they were issued, whatever stream
  /// threads become ready first (so that traces and interleavings repeat run after run).
  std::mutex turnMutex_;
  std::condition_variable turnChanged_;
  uint64_t nextTicket_ = 0, turn_ = 0;

  std::atomic<cudaError_t> stickyError_{cudaSuccess};
  std::string faultMessage_;
  std::mutex outputMutex_;
  std::string pendingOutput_;

  CpuHostMemory hostMemory_{*this};
  CpuMemoryPools memoryPools_{*this};
  CpuManagedMemory managedMemory_{*this};
  CpuCopies copies_{*this};
  CpuIpc ipc_{*this};
  CpuGraphs graphs_{*this};
  CpuArrays arrays_{*this};
  CpuTextures textures_{*this};
  CpuKernelFunctions kernelFunctions_{*this};
  CpuLibraries libraries_{*this};
  // Declared last: destroyed first, their threads finish before the state above goes.
  CpuEvents events_{*this};
  CpuStreams streams_{*this};
};

} // namespace ocelot::runtime::cpu
