#pragma once

#include "passes/Pass.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ocelot::passes {

/// Options of a pass-manager run.
struct PassManagerOptions {
  /// Run the IR verifier after every pass and fail the run on errors. On in debug builds.
#ifdef NDEBUG
  bool verifyEach = false;
#else
  bool verifyEach = true;
#endif
  /// Called once for each function with a body, in the module's order, as soon as no pass of the
  /// run will touch it again: right after the last run of kernel and basic-block passes is done
  /// with it when no module pass follows, else when the run ends. Callers that write functions
  /// out and drop them (large modules) use it. A message returned ends the run as a failure.
  std::function<std::optional<std::string>(ir::Function&)> functionFinished;
};

/// The outcome of a run: success, or the first failure (a pass that threw, or IR the verifier
/// rejected) as a message that names the pass. A failed run leaves the module half transformed;
/// callers fall back to their copy of the original PTX.
struct PassManagerResult {
  bool ok = true;
  std::string error;
  std::vector<std::string> verifierMessages;
};

/// Runs passes over a module in the order they were added, coalescing consecutive passes of the
/// same scope (seeds/004, Figure 3):
///  * module passes run on the module, one after another;
///  * a run of consecutive kernel and basic-block passes runs function by function: for each
///    function, each pass of the run in order; consecutive basic-block passes are further
///    coalesced so that each block is visited by all of them before the next block.
/// So for each function the declared order is kept, and each block is visited once by a group.
class PassManager {
public:
  explicit PassManager(PassManagerOptions options = {}) : options_(options) {}

  Pass& add(std::unique_ptr<Pass> pass);
  template <class P, class... Args> P& add(Args&&... args) {
    return static_cast<P&>(add(std::make_unique<P>(std::forward<Args>(args)...)));
  }
  size_t size() const { return passes_.size(); }

  PassManagerResult run(ir::Module& module, AnalysisManager& analyses);

  /// The schedule as text, one step per line: "module M", "function { kernel K; blocks {B3, B4} }".
  std::string describeSchedule() const;

private:
  struct Step {
    enum class Kind : uint8_t { Module, Functions } kind;
    std::vector<std::vector<Pass*>> groups; ///< Functions: runs of one kernel or of block passes
  };
  std::vector<Step> schedule() const;
  bool runModulePass(Pass& pass, ir::Module& module, AnalysisManager& analyses,
                     PassManagerResult& result);
  bool finished(ir::Function& function, PassManagerResult& result);
  bool runFunctionStep(const Step& step, ir::Module& module, AnalysisManager& analyses, bool last,
                       PassManagerResult& result);
  bool runBlockGroup(const std::vector<Pass*>& group, ir::Function& function,
                     AnalysisManager& analyses, PassManagerResult& result);
  bool verify(const std::string& after, ir::Module& module, const ir::Function* function,
              PassManagerResult& result);

  PassManagerOptions options_;
  std::vector<std::unique_ptr<Pass>> passes_;
};

} // namespace ocelot::passes
