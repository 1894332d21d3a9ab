#pragma once

#include "ir/IRBuilder.h"
#include "ir/Module.h"
#include "passes/PreservedAnalyses.h"

#include <concepts>
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ocelot::passes {

class AnalysisManager;

/// An analysis of IR unit `Unit` (ir::Function or ir::Module): a default-constructible type with
///   static AnalysisKey Key;                        // identity
///   static constexpr std::string_view Name = ...;  // for messages
///   using Result = ...;                            // what run computes; movable
///   Result run(Unit&, AnalysisManager&);           // may ask the manager for other analyses
/// and optionally `static constexpr bool ControlFlowOnly = true;` when the result depends on
/// nothing but blocks, labels and branches (then passes that only change straight-line code keep
/// it).
template <class A, class Unit>
concept Analysis = std::default_initializable<A> && requires(A a, Unit& unit, AnalysisManager& am) {
  { A::Key } -> std::convertible_to<const AnalysisKey&>;
  typename A::Result;
  { a.run(unit, am) } -> std::convertible_to<typename A::Result>;
};

template <class A> constexpr bool isControlFlowOnly() {
  if constexpr (requires { A::ControlFlowOnly; })
    return A::ControlFlowOnly;
  else
    return false;
}

/// Computes analyses on demand and caches their results per IR unit (function or module), keyed
/// by analysis type. A result stays cached until something invalidates it: a pass that does not
/// preserve it, or a change reported by an ir::IRBuilder (the manager is an IRChangeListener).
///
/// Dependencies are tracked automatically: when analysis A asks for B while it is computed, A's
/// result is dropped whenever B's is. Dropped results are kept alive until releaseRetired() (the
/// pass manager calls it between passes), so a reference a pass still holds stays valid for the
/// rest of that pass even if the pass's own edits invalidate it: it is stale, never dangling.
class AnalysisManager final : public ir::IRChangeListener {
public:
  AnalysisManager() = default;
  AnalysisManager(const AnalysisManager&) = delete;
  AnalysisManager& operator=(const AnalysisManager&) = delete;

  /// The result of analysis A for `unit`, computed now if it is not cached.
  template <class A, class Unit>
  requires Analysis<A, Unit>
  typename A::Result& getResult(Unit& unit) {
    using Result = typename A::Result;
    const Key key{&unit, &A::Key};
    if (Entry* entry = find(key)) {
      recordDependent(*entry);
      return static_cast<Model<Result>*>(entry->result.get())->value;
    }
    ComputationScope scope(*this, key, A::Name);
    auto model = std::make_unique<Model<Result>>(A{}.run(unit, *this));
    Result& value = model->value;
    scope.finish();
    Entry& entry = insert(key, std::move(model), isControlFlowOnly<A>());
    recordDependent(entry);
    return value;
  }

  /// The cached result of A for `unit`, or nullptr; never computes.
  template <class A, class Unit> typename A::Result* getCachedResult(Unit& unit) {
    Entry* entry = find(Key{&unit, &A::Key});
    return entry ? &static_cast<Model<typename A::Result>*>(entry->result.get())->value : nullptr;
  }

  /// Drops the results for `function` that `preserved` does not keep.
  void invalidate(ir::Function& function, const PreservedAnalyses& preserved);
  /// Drops the module-level results (the call graph) that `preserved` does not keep; with
  /// `andFunctions`, also the results of every function of the module.
  void invalidate(ir::Module& module, const PreservedAnalyses& preserved, bool andFunctions);
  /// Drops everything cached for `unit`.
  void clear(const void* unit);
  void clear();

  /// IRChangeListener: an IRBuilder changed `function`.
  void irChanged(ir::Function& function, ir::IRChange change) override;

  /// Frees results dropped since the last call.
  void releaseRetired() { retired_.clear(); }

  /// How many times analysis `key` has been computed (for any unit) by this manager.
  size_t computations(const AnalysisKey& key) const;
  /// Whether a result of `key` is cached for `unit`.
  bool isCached(const void* unit, const AnalysisKey& key) const;

private:
  struct Key {
    const void* unit;
    const AnalysisKey* analysis;
    friend bool operator==(const Key&, const Key&) = default;
  };
  struct Concept {
    virtual ~Concept() = default;
  };
  template <class R> struct Model final : Concept {
    explicit Model(R&& r) : value(std::move(r)) {}
    R value;
  };
  struct Entry {
    const AnalysisKey* analysis;
    std::unique_ptr<Concept> result;
    bool controlFlowOnly;
    std::vector<Key> dependents; ///< results computed from this one
  };
  /// Marks `key` as being computed (nested requests become its dependencies) and detects cycles.
  class ComputationScope {
  public:
    ComputationScope(AnalysisManager& am, Key key, std::string_view name);
    ~ComputationScope();
    void finish();

  private:
    AnalysisManager& am_;
    bool active_ = true;
  };

  Entry* find(const Key& key);
  const Entry* find(const Key& key) const;
  Entry& insert(const Key& key, std::unique_ptr<Concept> result, bool controlFlowOnly);
  void recordDependent(Entry& dependency);
  void drop(const Key& key);
  void dropUnlessPreserved(const void* unit, const PreservedAnalyses& preserved);

  std::unordered_map<const void*, std::vector<Entry>> cache_;
  std::vector<Key> computing_;
  std::vector<std::unique_ptr<Concept>> retired_;
  std::unordered_map<const AnalysisKey*, size_t> computations_;
};

} // namespace ocelot::passes
