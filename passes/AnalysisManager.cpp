#include "passes/AnalysisManager.h"

#include <algorithm>
#include <string>

namespace ocelot::passes {

AnalysisManager::ComputationScope::ComputationScope(AnalysisManager& am, Key key,
                                                    std::string_view name)
    : am_(am) {
  // An analysis that (indirectly) asks for itself would recurse forever: a programming error in
  // the analyses, reported as an exception the pass manager turns into a failed run.
  if (std::find(am.computing_.begin(), am.computing_.end(), key) != am.computing_.end())
    throw std::logic_error("analysis '" + std::string(name) + "' depends on itself");
  am.computing_.push_back(key);
}

AnalysisManager::ComputationScope::~ComputationScope() {
  if (active_)
    am_.computing_.pop_back();
}

void AnalysisManager::ComputationScope::finish() {
  am_.computing_.pop_back();
  active_ = false;
}

AnalysisManager::Entry* AnalysisManager::find(const Key& key) {
  auto it = cache_.find(key.unit);
  if (it == cache_.end())
    return nullptr;
  for (Entry& entry : it->second)
    if (entry.analysis == key.analysis)
      return &entry;
  return nullptr;
}

const AnalysisManager::Entry* AnalysisManager::find(const Key& key) const {
  return const_cast<AnalysisManager*>(this)->find(key);
}

AnalysisManager::Entry& AnalysisManager::insert(const Key& key, std::unique_ptr<Concept> result,
                                                bool controlFlowOnly) {
  ++computations_[key.analysis];
  auto& entries = cache_[key.unit];
  entries.push_back(Entry{key.analysis, std::move(result), controlFlowOnly, {}});
  return entries.back();
}

void AnalysisManager::recordDependent(Entry& dependency) {
  if (computing_.empty())
    return;
  const Key& dependent = computing_.back();
  if (std::find(dependency.dependents.begin(), dependency.dependents.end(), dependent) ==
      dependency.dependents.end())
    dependency.dependents.push_back(dependent);
}

void AnalysisManager::drop(const Key& key) {
  std::vector<Key> work{key};
  while (!work.empty()) {
    Key current = work.back();
    work.pop_back();
    auto it = cache_.find(current.unit);
    if (it == cache_.end())
      continue;
    auto& entries = it->second;
    auto entry = std::find_if(entries.begin(), entries.end(),
                              [&](const Entry& e) { return e.analysis == current.analysis; });
    if (entry == entries.end())
      continue;
    work.insert(work.end(), entry->dependents.begin(), entry->dependents.end());
    retired_.push_back(std::move(entry->result));
    entries.erase(entry);
  }
}

void AnalysisManager::dropUnlessPreserved(const void* unit, const PreservedAnalyses& preserved) {
  if (preserved.areAllPreserved())
    return;
  auto it = cache_.find(unit);
  if (it == cache_.end())
    return;
  std::vector<Key> doomed;
  for (const Entry& entry : it->second)
    if (!preserved.preserves(*entry.analysis, entry.controlFlowOnly))
      doomed.push_back(Key{unit, entry.analysis});
  for (const Key& key : doomed)
    drop(key);
}

void AnalysisManager::invalidate(ir::Function& function, const PreservedAnalyses& preserved) {
  dropUnlessPreserved(&function, preserved);
}

void AnalysisManager::invalidate(ir::Module& module, const PreservedAnalyses& preserved,
                                 bool andFunctions) {
  dropUnlessPreserved(&module, preserved);
  if (andFunctions)
    for (ir::Function* function : module.functions())
      dropUnlessPreserved(function, preserved);
}

void AnalysisManager::clear(const void* unit) {
  auto it = cache_.find(unit);
  if (it == cache_.end())
    return;
  std::vector<Key> doomed;
  for (const Entry& entry : it->second)
    doomed.push_back(Key{unit, entry.analysis});
  for (const Key& key : doomed)
    drop(key);
}

void AnalysisManager::clear() {
  for (auto& [unit, entries] : cache_)
    for (Entry& entry : entries)
      retired_.push_back(std::move(entry.result));
  cache_.clear();
}

void AnalysisManager::irChanged(ir::Function& function, ir::IRChange change) {
  // New registers or instructions leave the blocks and edges alone; anything else may not.
  PreservedAnalyses preserved = change == ir::IRChange::ControlFlow
                                    ? PreservedAnalyses::none()
                                    : PreservedAnalyses::controlFlow();
  dropUnlessPreserved(&function, preserved);
  // Module-level results (the call graph) read instructions too.
  if (change != ir::IRChange::Registers)
    dropUnlessPreserved(&function.module(), preserved);
}

size_t AnalysisManager::computations(const AnalysisKey& key) const {
  auto it = computations_.find(&key);
  return it == computations_.end() ? 0 : it->second;
}

bool AnalysisManager::isCached(const void* unit, const AnalysisKey& key) const {
  return find(Key{unit, &key}) != nullptr;
}

} // namespace ocelot::passes
