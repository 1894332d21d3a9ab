#pragma once

#include "runtime/core/Registration.h"

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

  const RegisteredFunction* findFunction(const void* hostFunction) const;
  /// The kernel behind a cudaKernel_t that __cudaGetKernel handed out, or null.
  const RegisteredFunction* findKernel(const void* kernelHandle) const;
  /// The kernel an application names in a launch: a host stub or a kernel handle. This is the
  /// launch path's lookup: it answers from a per-thread cache without taking the lock (the cache
  /// is dropped whenever a fatbinary is unregistered).
  const RegisteredFunction* findLaunchable(const void* function) const;
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
  const RegisteredFunction* findLaunchableLocked(const void* function) const;

  mutable std::shared_mutex mutex_;
  /// Bumped by every unregistration: per-thread lookup caches of an older generation are stale.
  std::atomic<uint64_t> generation_{0};
  const uint64_t instance_; ///< tells registries apart in the per-thread lookup caches
  uint64_t nextId_ = 1;
  std::vector<std::unique_ptr<FatbinaryRegistration>> fatbinaries_;
  std::unordered_map<void**, FatbinaryRegistration*> byHandle_;
  std::unordered_map<const void*, RegisteredFunction*> functions_;
  std::unordered_map<const void*, RegisteredFunction*> kernels_;
  std::unordered_map<const void*, RegisteredVariable*> variables_;
};

} // namespace ocelot::runtime
