#pragma once

#include "instrumentors/ModuleInstrumenter.h"
#include "runtime/core/Device.h"
#include "runtime/instrumentation/ModuleCatalog.h"
#include "runtime/instrumentation/OccupancyGuard.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace ocelot::runtime::instrumentation {

/// An active instrumentor with the variant a launch asked of it.
struct SlotChoice {
  uint64_t handle = 0;
  std::shared_ptr<const PTXInstrumentor> instrumentor;
  uint32_t variant = 0;
};

/// A registration's module instrumented for one set of instrumentors (and variants) and loaded
/// on one device, or why it could not be.
class LoadedInstrumentation {
public:
  bool ok() const { return ok_; }
  const std::string& error() const { return error_; }
  DeviceModule module() const { return module_; }
  const std::vector<SlotChoice>& slots() const { return slots_; }
  /// Instrumentor state of `slot` for the unit that defines the kernel.
  const InstrumentorModuleState& state(uint32_t unit, uint32_t slot) const {
    return *states_[unit][slot];
  }
  /// Whether the kernel carries the instrumentation; else `why` says why not.
  bool instrumented(const std::string& kernel, std::string* why) const;
  /// The instrumented kernel's device function (looked up once).
  cudaError_t function(Device& device, const std::string& name, DeviceFunction* function);

  const instrumentors::InstrumentationTimings& timings() const { return timings_; }
  double jitMs() const { return jitMs_; }

private:
  friend class InstrumentedModuleCache;

  bool ok_ = false;
  std::string error_;
  DeviceModule module_ = nullptr;
  std::vector<SlotChoice> slots_;
  std::vector<std::vector<std::unique_ptr<InstrumentorModuleState>>> states_;
  std::unordered_set<std::string> kernels_;
  std::unordered_map<std::string, std::string> excluded_;
  instrumentors::InstrumentationTimings timings_;
  double jitMs_ = 0;
  std::mutex functionsMutex_;
  std::unordered_map<std::string, DeviceFunction> functions_;
};

/// Instrumented modules by (registration, device, instrumentors and variants, register caps), built
/// and JIT-compiled lazily at the first launch that needs them; a failure is remembered (the
/// module's launches run the original code) and not retried. Thread safe; launches that need the
/// same module wait for one build.
class InstrumentedModuleCache {
public:
  using AddressOf = std::function<std::optional<uint64_t>(std::string_view name)>;

  /// `addresses` finds the application module's variables, `functionAddresses` reads its
  /// function-address tables (see instrumentors/FunctionAddressTranslation.h).
  /// `configuration` is key(registration, ordinal, slots).
  std::shared_ptr<LoadedInstrumentation>
  get(const CatalogEntry& catalog, const std::string& configuration, uint64_t registration,
      int ordinal, const std::vector<SlotChoice>& slots, const RegisterCaps& caps, Device& device,
      const AddressOf& addresses, const instrumentors::OriginalFunctionAddresses& functionAddresses,
      bool* built = nullptr);
  /// Forgets a module whose build failed, so that the next launch builds it again (the failure
  /// came from a device reset racing the build, not from the code).
  void forgetFailed(const std::shared_ptr<LoadedInstrumentation>& module);
  /// Forgets (does not unload: the device reset destroyed them) the modules of a device.
  void forgetDevice(int ordinal);
  /// Unloads and forgets the modules of an unregistered fatbinary.
  void forgetRegistration(uint64_t id, const std::function<void(int, DeviceModule)>& unload);

  /// Changes whenever a module is forgotten (a failed build, a device reset, an unregistered
  /// fatbinary): what a caller remembered of get() is stale then.
  uint64_t generation() const { return generation_.load(std::memory_order_acquire); }

  /// What the code depends on, caps aside: the key OccupancyGuard keeps caps under. Computed at
  /// every launch: each instrumentor's part (its type, name and options) is written once.
  std::string key(uint64_t registration, int ordinal, const std::vector<SlotChoice>& slots);

private:
  struct Slot {
    std::mutex building;
    std::shared_ptr<LoadedInstrumentation> module;
    uint64_t registration = 0;
    int ordinal = 0;
  };
  void build(const CatalogEntry& catalog, const std::vector<SlotChoice>& slots,
             const RegisterCaps& caps, Device& device, const AddressOf& addresses,
             const instrumentors::OriginalFunctionAddresses& functionAddresses,
             LoadedInstrumentation& out);

  /// An instrumentor's part of key(): its options are a string built field by field (several
  /// microseconds per launch), and instrumentors are immutable, so it is kept per live
  /// instrumentor (the weak pointer tells a destroyed one from a new one at the same address).
  std::string identity(const std::shared_ptr<const PTXInstrumentor>& instrumentor);

  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<Slot>> entries_;
  std::atomic<uint64_t> generation_{0};
  struct Identity {
    std::weak_ptr<const PTXInstrumentor> instrumentor;
    std::string text;
  };
  std::mutex identitiesMutex_;
  std::unordered_map<const PTXInstrumentor*, Identity> identities_;
};

} // namespace ocelot::runtime::instrumentation
