#include "runtime/core/Registry.h"

#include <algorithm>
#include <mutex>

namespace ocelot::runtime {
namespace {

/// Registries are told apart by a number that is never reused (a test may create a registry at the
/// address of a destroyed one, whose entries a thread's lookup cache must not return).
uint64_t nextRegistryInstance() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

} // namespace

Registry::Registry() : instance_(nextRegistryInstance()) {}

FatbinaryRegistration& Registry::addFatbinary(std::unique_ptr<FatbinaryRegistration> registration) {
  std::unique_lock lock(mutex_);
  registration->id = nextId_++;
  FatbinaryRegistration& added = *registration;
  byHandle_.emplace(added.handle(), &added);
  fatbinaries_.push_back(std::move(registration));
  return added;
}

FatbinaryRegistration* Registry::findFatbinary(void** handle) const {
  std::shared_lock lock(mutex_);
  auto it = byHandle_.find(handle);
  return it != byHandle_.end() ? it->second : nullptr;
}

std::unique_ptr<FatbinaryRegistration> Registry::removeFatbinary(void** handle) {
  std::unique_lock lock(mutex_);
  auto found = byHandle_.find(handle);
  if (found == byHandle_.end())
    return nullptr;
  FatbinaryRegistration* registration = found->second;
  byHandle_.erase(found);
  auto owner = std::find_if(fatbinaries_.begin(), fatbinaries_.end(),
                            [&](const auto& entry) { return entry.get() == registration; });
  std::unique_ptr<FatbinaryRegistration> removed = std::move(*owner);
  fatbinaries_.erase(owner);

  for (const auto& function : removed->functions) {
    kernels_.erase(kernelHandle(*function));
    auto indexed = functions_.find(function->hostFunction);
    if (indexed == functions_.end() || indexed->second != function.get())
      continue;
    functions_.erase(indexed);
    // A host function registered by another fatbinary too now resolves to that one. (Happens at
    // exit or dlclose only, so a scan is fine.)
    for (const auto& other : fatbinaries_)
      for (const auto& candidate : other->functions)
        if (candidate->hostFunction == function->hostFunction)
          functions_.try_emplace(function->hostFunction, candidate.get());
  }
  // Per-thread launch caches may hold the removed kernels.
  generation_.fetch_add(1, std::memory_order_acq_rel);
  for (const auto& variable : removed->variables) {
    auto indexed = variables_.find(variable->hostAddress);
    if (indexed != variables_.end() && indexed->second == variable.get())
      variables_.erase(indexed);
  }
  return removed;
}

bool Registry::addFunction(void** handle, const void* hostFunction, std::string deviceName) {
  std::unique_lock lock(mutex_);
  auto found = byHandle_.find(handle);
  if (found == byHandle_.end())
    return false;
  FatbinaryRegistration& owner = *found->second;
  auto function = std::make_unique<RegisteredFunction>();
  function->owner = &owner;
  function->hostFunction = hostFunction;
  function->deviceName = std::move(deviceName);
  functions_.try_emplace(hostFunction, function.get());
  kernels_.emplace(kernelHandle(*function), function.get());
  owner.functions.push_back(std::move(function));
  return true;
}

bool Registry::addVariable(void** handle, RegisteredVariable variable) {
  std::unique_lock lock(mutex_);
  auto found = byHandle_.find(handle);
  if (found == byHandle_.end())
    return false;
  FatbinaryRegistration& owner = *found->second;
  auto record = std::make_unique<RegisteredVariable>(std::move(variable));
  record->owner = &owner;
  variables_.try_emplace(record->hostAddress, record.get());
  owner.variables.push_back(std::move(record));
  return true;
}

const RegisteredFunction* Registry::findFunction(const void* hostFunction) const {
  std::shared_lock lock(mutex_);
  auto it = functions_.find(hostFunction);
  return it != functions_.end() ? it->second : nullptr;
}

const RegisteredFunction* Registry::findKernel(const void* kernelHandle) const {
  std::shared_lock lock(mutex_);
  auto it = kernels_.find(kernelHandle);
  return it != kernels_.end() ? it->second : nullptr;
}

const RegisteredFunction* Registry::findLaunchableLocked(const void* function) const {
  std::shared_lock lock(mutex_);
  if (auto it = functions_.find(function); it != functions_.end())
    return it->second;
  auto it = kernels_.find(function);
  return it != kernels_.end() ? it->second : nullptr;
}

const RegisteredFunction* Registry::findLaunchable(const void* function) const {
  // Launches of the same few kernels from a thread hit the cache without touching the registry's
  // lock (whose reader count is shared by all threads).
  thread_local LaunchCache cache;
  return findLaunchable(function, cache);
}

const RegisteredFunction* Registry::findLaunchableMiss(const void* function,
                                                       LaunchCache& cache) const {
  // A cache of another registry or of an older generation may hold removed kernels.
  uint64_t generation = generation_.load(std::memory_order_acquire);
  if (cache.owner != instance_ || cache.generation != generation) {
    cache.owner = instance_;
    cache.generation = generation;
    cache.entries.fill({});
  }
  const RegisteredFunction* found = findLaunchableLocked(function);
  if (found != nullptr)
    cache.entries[slot(function)] = {function, found};
  return found;
}

const RegisteredVariable* Registry::findVariable(const void* hostAddress) const {
  std::shared_lock lock(mutex_);
  auto it = variables_.find(hostAddress);
  if (it != variables_.end())
    return it->second;
  // Host code reaches a __managed__ variable through a pointer to its storage, so a symbol API
  // called with the variable (cudaGetSymbolAddress(&p, g_managed)) receives the storage address.
  for (const auto& [address, variable] : variables_)
    if (variable->kind == RegisteredVariable::Kind::Managed &&
        variable->managedPointer != nullptr && *variable->managedPointer == hostAddress &&
        hostAddress != nullptr)
      return variable;
  return nullptr;
}

std::vector<const RegisteredFunction*>
Registry::functionsOf(const FatbinaryRegistration& owner) const {
  std::shared_lock lock(mutex_);
  std::vector<const RegisteredFunction*> list;
  for (const auto& function : owner.functions)
    list.push_back(function.get());
  return list;
}

std::vector<const RegisteredVariable*>
Registry::variablesOf(const FatbinaryRegistration& owner) const {
  std::shared_lock lock(mutex_);
  std::vector<const RegisteredVariable*> list;
  for (const auto& variable : owner.variables)
    list.push_back(variable.get());
  return list;
}

std::vector<FatbinaryRegistration*> Registry::fatbinaries() const {
  std::shared_lock lock(mutex_);
  std::vector<FatbinaryRegistration*> all;
  all.reserve(fatbinaries_.size());
  for (const auto& registration : fatbinaries_)
    all.push_back(registration.get());
  return all;
}

} // namespace ocelot::runtime
