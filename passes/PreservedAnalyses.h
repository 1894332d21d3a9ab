#pragma once

#include <algorithm>
#include <vector>

namespace ocelot::passes {

/// The identity of an analysis: every analysis class has one `static AnalysisKey Key;`, and its
/// address is the key under which results are cached and preserved. No strings, no RTTI.
struct AnalysisKey {
  AnalysisKey() = default;
  AnalysisKey(const AnalysisKey&) = delete;
  AnalysisKey& operator=(const AnalysisKey&) = delete;
};

/// What a pass says it kept valid. The analysis manager drops every cached result that is not
/// preserved (and every result computed from one that is dropped).
class PreservedAnalyses {
public:
  /// Nothing changed.
  static PreservedAnalyses all() {
    PreservedAnalyses pa;
    pa.all_ = true;
    return pa;
  }
  /// Anything may have changed.
  static PreservedAnalyses none() { return PreservedAnalyses(); }
  /// Straight-line code changed, blocks and edges did not: everything computed from the CFG alone
  /// (CFG, dominators, post-dominators, frontiers, loops) stays valid.
  static PreservedAnalyses controlFlow() { return PreservedAnalyses().preserveControlFlow(); }

  template <class Analysis> PreservedAnalyses& preserve() { return preserve(Analysis::Key); }
  PreservedAnalyses& preserve(const AnalysisKey& key) {
    if (!all_ && std::find(keys_.begin(), keys_.end(), &key) == keys_.end())
      keys_.push_back(&key);
    return *this;
  }
  PreservedAnalyses& preserveControlFlow() {
    controlFlow_ = true;
    return *this;
  }

  /// Keeps only what both preserve (the effect of running two passes).
  void intersect(const PreservedAnalyses& other) {
    if (other.all_)
      return;
    if (all_) {
      *this = other;
      return;
    }
    controlFlow_ = controlFlow_ && other.controlFlow_;
    std::erase_if(keys_, [&](const AnalysisKey* key) {
      return std::find(other.keys_.begin(), other.keys_.end(), key) == other.keys_.end();
    });
  }

  bool areAllPreserved() const { return all_; }
  bool isControlFlowPreserved() const { return all_ || controlFlow_; }
  /// Whether a result of analysis `key` survives; `controlFlowOnly`: the analysis depends on the
  /// CFG alone.
  bool preserves(const AnalysisKey& key, bool controlFlowOnly) const {
    if (all_ || (controlFlowOnly && controlFlow_))
      return true;
    return std::find(keys_.begin(), keys_.end(), &key) != keys_.end();
  }

private:
  bool all_ = false;
  bool controlFlow_ = false;
  std::vector<const AnalysisKey*> keys_;
};

} // namespace ocelot::passes
