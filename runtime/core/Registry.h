#pragma once

#include "runtime/core/Registration.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <shared_mutex>
#include <unordered_map>
#include <vector>

namespace ocelot::runtime {

/// Everything the application registered: fatbinaries, kernels and variables, looked up by the
/// handles and host addresses the application uses. Thread-safe: registration takes a writer lock,
/// lookups (every launch and symbol copy) a reader lock. Returned pointers stay valid until the
/// owning fatbinary is unregistered.
class Registry {
public:
  Registry();
  Registry(const Registry&) = delete;
  Registry& operator=(const Registry&) = delete;

  /// Takes ownership and assigns the registration's id; returns the handle for the application.
  FatbinaryRegistration& addFatbinary(std::unique_ptr<FatbinaryRegistration> registration);
  /// The registration behind a handle, or null when `handle` is not one of ours.
  FatbinaryRegistration* findFatbinary(void** handle) const;
  /// Removes the registration with its kernels and variables and gives it back (so that its
  /// modules can be unloaded), or null when `handle` is not one of ours.
  std::unique_ptr<FatbinaryRegistration> removeFatbinary(void** handle);

  /// Registers a kernel; false when `handle` is unknown. A host function registered twice (the
  /// same template instance in two units) keeps its first registration.
  bool addFunction(void** handle, const void* hostFunction, std::string deviceName);
  bool addVariable(void** handle, RegisteredVariable variable);

  /// A thread's cache of findLaunchable's answers: a small direct-mapped table, valid for one
  /// registry (instance) and one generation (bumped by every unregistration).
  struct LaunchCache {
    struct Entry {
      const void* key = nullptr;
      const RegisteredFunction* value = nullptr;
    };
    static constexpr size_t kEntries = 64;
    uint64_t owner = 0;
    uint64_t generation = 0;
    std::array<Entry, kEntries> entries{};
  };

  const RegisteredFunction* findFunction(const void* hostFunction) const;
  /// The kernel behind a cudaKernel_t that __cudaGetKernel handed out, or null.
  const RegisteredFunction* findKernel(const void* kernelHandle) const;
  /// The kernel an application names in a launch: a host stub or a kernel handle. This is the
  /// launch path's lookup: it answers from a per-thread cache without taking the lock (the cache
  /// is dropped whenever a fatbinary is unregistered).
  const RegisteredFunction* findLaunchable(const void* function) const;
  /// The same with the caller's cache (the launch path keeps it in the thread's ThreadState, so
  /// that a launch reaches all of its per-thread state through one thread-local access). Inline:
  /// a hit is a few loads and compares.
  const RegisteredFunction* findLaunchable(const void* function, LaunchCache& cache) const {
    uint64_t generation = generation_.load(std::memory_order_acquire);
    if (cache.owner == instance_ && cache.generation == generation) [[likely]] {
      const LaunchCache::Entry& entry = cache.entries[slot(function)];
      if (entry.key == function && function != nullptr)
        return entry.value;
    }
    return findLaunchableMiss(function, cache);
  }
  /// A variable by its host address (the symbol of cudaMemcpyToSymbol and friends).
  const RegisteredVariable* findVariable(const void* hostAddress) const;

  /// A registration's kernels and variables as they are now (registration may still be going on
  /// in another thread, so callers get copies of the lists, taken under the lock).
  std::vector<const RegisteredFunction*> functionsOf(const FatbinaryRegistration& owner) const;
  std::vector<const RegisteredVariable*> variablesOf(const FatbinaryRegistration& owner) const;

  /// The current registrations, in registration order (for whole-program work such as
  /// loading every module on a device).
  std::vector<FatbinaryRegistration*> fatbinaries() const;

  /// The handle __cudaGetKernel gives out for a kernel.
  static const void* kernelHandle(const RegisteredFunction& function) { return &function; }

private:
  static size_t slot(const void* function) {
    return (reinterpret_cast<uintptr_t>(function) >> 4) % LaunchCache::kEntries;
  }
  const RegisteredFunction* findLaunchableMiss(const void* function, LaunchCache& cache) const;
  const RegisteredFunction* findLaunchableLocked(const void* function) const;

  /// Bumped by every unregistration: per-thread lookup caches of an older generation are stale.
  /// Read by every launch, so kept off the lock's cache line (which readers of the lock write).
  alignas(64) std::atomic<uint64_t> generation_{0};
  const uint64_t instance_; ///< tells registries apart in the per-thread lookup caches
  alignas(64) mutable std::shared_mutex mutex_;
  uint64_t nextId_ = 1;
  std::vector<std::unique_ptr<FatbinaryRegistration>> fatbinaries_;
  std::unordered_map<void**, FatbinaryRegistration*> byHandle_;
  std::unordered_map<const void*, RegisteredFunction*> functions_;
  std::unordered_map<const void*, RegisteredFunction*> kernels_;
  std::unordered_map<const void*, RegisteredVariable*> variables_;
};

} // namespace ocelot::runtime
