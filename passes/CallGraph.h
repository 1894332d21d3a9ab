#pragma once

#include "ir/Module.h"
#include "passes/PreservedAnalyses.h"

#include <span>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace ocelot::passes {

class AnalysisManager;

/// Who calls whom in a module, for calling-context attribution. Nodes are the module's functions
/// (definitions and `.extern` declarations such as vprintf). Call sites:
///  * `call f, (...)`: one Direct edge to f;
///  * `call %rd, (...), targets` with a `.calltargets` list: an Indirect edge to each listed one;
///  * `call %rd, (...), prototype` with a `.callprototype`: an Indirect edge to every function
///    of the module whose address is taken (used as a value: `mov.u64 %rd, f`, or in a variable's
///    initializer) and whose parameter and return lists match the prototype's types.
class CallGraph {
public:
  enum class CallKind : uint8_t { Direct, Indirect };
  struct CallSite {
    const ir::Function* caller;
    const ir::Instruction* instruction;
    const ir::Function* callee; ///< nullptr: an indirect call no function matches
    CallKind kind;
  };

  explicit CallGraph(const ir::Module& module);

  /// Calls made by `function`, in program order (an indirect call appears once per candidate).
  std::span<const CallSite> callsFrom(const ir::Function& function) const;
  /// Calls that may reach `function`, in the order of callsFrom over the module's functions.
  std::vector<CallSite> callsTo(const ir::Function& function) const;
  /// Functions whose address is taken.
  const std::vector<const ir::Function*>& addressTaken() const { return addressTaken_; }
  /// Whether `function` can reach itself through calls. O(1) (strongly connected components are
  /// found once, when the graph is built).
  bool isRecursive(const ir::Function& function) const;
  /// Functions with a body reachable from `root` through calls, `root` included.
  std::vector<const ir::Function*> reachableFrom(const ir::Function& root) const;

private:
  const ir::Module* module_;
  std::vector<CallSite> sites_;
  std::unordered_map<const ir::Function*, std::pair<uint32_t, uint32_t>> ranges_;
  /// Sites by callee: callers_[calleeRanges_[f].first .. second) index sites_.
  std::unordered_map<const ir::Function*, std::pair<uint32_t, uint32_t>> calleeRanges_;
  std::vector<uint32_t> callers_;
  std::unordered_set<const ir::Function*> recursive_;
  std::vector<const ir::Function*> addressTaken_;
};

struct CallGraphAnalysis {
  static AnalysisKey Key;
  static constexpr std::string_view Name = "call graph";
  using Result = CallGraph;
  Result run(ir::Module& module, AnalysisManager&) { return CallGraph(module); }
};

} // namespace ocelot::passes
