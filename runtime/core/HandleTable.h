#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <type_traits>
#include <unordered_map>
#include <vector>

namespace ocelot::runtime {

/// One thread's last hit in a HandleTable. It stays valid while the table's generation is the one
/// it saw: every removal gives the table a new generation, and generations come from one counter
/// for all tables, so a generation also names its table. A repeated lookup costs two compares and
/// no lock: the launch path resolves its stream this way.
struct HandleCache {
  const void* handle = nullptr;
  uint64_t generation = 0;
  void* object = nullptr;
};

/// Where every HandleTable takes its generations from (see HandleCache). Zero is never handed out,
/// so an empty cache never matches.
inline std::atomic<uint64_t> gHandleGenerations{1};

/// The objects of one kind (streams, events, graphs, ...) that a device handed out, by the handle
/// the application holds: the object's own address for Ocelot's objects, the driver's handle
/// (CUstream, CUevent, ...) for the driver's. The table owns its objects.
///
/// Lookups take a shared lock, insertions and removals an exclusive one. An object stays valid
/// until it is removed; using an object while another thread destroys its handle is the
/// application's race, as in CUDA.
template <class Object> class HandleTable {
public:
  /// A handle of any kind (pointer or 64-bit integer, as for texture objects) as the table's key.
  template <class Handle> static const void* key(Handle handle) {
    if constexpr (std::is_pointer_v<Handle>)
      return static_cast<const void*>(handle);
    else
      return reinterpret_cast<const void*>(static_cast<uintptr_t>(handle));
  }

  /// Adds `object` under `handle`, replacing what was there (the driver reuses the handles of
  /// destroyed objects), and returns it.
  template <class Handle, class Derived>
  Derived* insert(Handle handle, std::unique_ptr<Derived> object) {
    Derived* inserted = object.get();
    std::unique_ptr<Object> replaced;
    {
      std::unique_lock lock(mutex_);
      std::unique_ptr<Object>& slot = objects_[key(handle)];
      replaced = std::move(slot);
      slot = std::move(object);
      if (replaced != nullptr)
        renew();
    }
    return inserted;
  }

  /// The object of `handle`, or the one `make()` returns, added under it, when there is none (for
  /// handles a device sees for the first time: the driver's objects made outside Ocelot).
  template <class Handle, class Make> Object* findOrInsert(Handle handle, Make make) {
    if (Object* found = find(handle))
      return found;
    std::unique_lock lock(mutex_);
    std::unique_ptr<Object>& slot = objects_[key(handle)];
    if (slot == nullptr)
      slot = make();
    return slot.get();
  }

  /// Takes the object of `handle` out of the table (null when there is none).
  template <class Handle> std::unique_ptr<Object> remove(Handle handle) {
    std::unique_lock lock(mutex_);
    auto it = objects_.find(key(handle));
    if (it == objects_.end())
      return nullptr;
    std::unique_ptr<Object> removed = std::move(it->second);
    objects_.erase(it);
    renew();
    return removed;
  }

  template <class Handle> Object* find(Handle handle) const {
    std::shared_lock lock(mutex_);
    auto it = objects_.find(key(handle));
    return it != objects_.end() ? it->second.get() : nullptr;
  }

  /// What a cached lookup of this table is valid for (see HandleCache).
  uint64_t generation() const { return generation_.load(std::memory_order_acquire); }
  /// find() that also remembers the answer in the calling thread's cache.
  template <class Handle> Object* findAndRemember(Handle handle, HandleCache& cache) const {
    const void* wanted = key(handle);
    std::shared_lock lock(mutex_);
    // Read under the lock: a removal renews the generation while holding it exclusively, so the
    // object found belongs to the generation remembered.
    const uint64_t generation = generation_.load(std::memory_order_acquire);
    auto it = objects_.find(wanted);
    if (it == objects_.end())
      return nullptr;
    cache = {wanted, generation, it->second.get()};
    return it->second.get();
  }
  /// Remembers `object` (not one of the table's: a device's special object) for `handle` in the
  /// calling thread's cache, valid as long as the table's generation lasts.
  template <class Handle> void remember(Handle handle, Object* object, HandleCache& cache) const {
    cache = {key(handle), generation(), object};
  }

  /// Calls `visit(object)` for every object, under the shared lock (`visit` must not change the
  /// table).
  template <class Visit> void forEach(Visit visit) const {
    std::shared_lock lock(mutex_);
    for (const auto& [handle, object] : objects_)
      visit(*object);
  }

  /// Empties the table; the objects are returned so that the caller destroys them outside the
  /// lock (an object's destructor may wait for work that looks objects up).
  std::vector<std::unique_ptr<Object>> clear() {
    std::vector<std::unique_ptr<Object>> removed;
    std::unique_lock lock(mutex_);
    removed.reserve(objects_.size());
    for (auto& [handle, object] : objects_)
      removed.push_back(std::move(object));
    objects_.clear();
    renew();
    return removed;
  }

private:
  void renew() {
    generation_.store(gHandleGenerations.fetch_add(1, std::memory_order_relaxed) + 1,
                      std::memory_order_release);
  }

  mutable std::shared_mutex mutex_;
  std::unordered_map<const void*, std::unique_ptr<Object>> objects_;
  std::atomic<uint64_t> generation_{gHandleGenerations.fetch_add(1, std::memory_order_relaxed) + 1};
};

} // namespace ocelot::runtime
