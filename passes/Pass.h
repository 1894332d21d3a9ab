#pragma once

#include "ir/Module.h"
#include "passes/AnalysisManager.h"

#include <functional>
#include <string_view>
#include <vector>

namespace ocelot::passes {

/// The analyses a pass needs, declared up front: the pass manager computes them (once, cached)
/// before the pass runs, and a pass reads them with `analyses.getResult<A>(function)`.
class AnalysisUsage {
public:
  template <class A> AnalysisUsage& require() {
    if constexpr (Analysis<A, ir::Function>)
      functionAnalyses_.push_back([](ir::Function& f, AnalysisManager& am) { am.getResult<A>(f); });
    else
      moduleAnalyses_.push_back([](ir::Module& m, AnalysisManager& am) { am.getResult<A>(m); });
    return *this;
  }
  void computeFor(ir::Function& function, AnalysisManager& analyses) const {
    for (const auto& compute : functionAnalyses_)
      compute(function, analyses);
  }
  void computeFor(ir::Module& module, AnalysisManager& analyses) const {
    for (const auto& compute : moduleAnalyses_)
      compute(module, analyses);
  }

private:
  std::vector<std::function<void(ir::Function&, AnalysisManager&)>> functionAnalyses_;
  std::vector<std::function<void(ir::Module&, AnalysisManager&)>> moduleAnalyses_;
};

/// A pass: the kinds of the paper's pass manager that Ocelot uses (seeds/004, section 3.1). A pass
/// says what it keeps valid by the PreservedAnalyses it returns; changes made through an
/// ir::IRBuilder that was given the AnalysisManager are accounted for as they happen.
class Pass {
public:
  enum class Kind : uint8_t { Module, Kernel, BasicBlock };

  virtual ~Pass() = default;
  Pass(const Pass&) = delete;
  Pass& operator=(const Pass&) = delete;

  Kind kind() const { return kind_; }
  virtual std::string_view name() const = 0;
  /// Declares the analyses the pass reads (computed before it runs).
  virtual void declareUsage(AnalysisUsage&) const {}

protected:
  explicit Pass(Kind kind) : kind_(kind) {}

private:
  Kind kind_;
};

/// Changes the module as a whole: adds variables (an instrumentor's counter base), declarations,
/// functions.
class ModulePass : public Pass {
public:
  ModulePass() : Pass(Kind::Module) {}
  virtual PreservedAnalyses run(ir::Module& module, AnalysisManager& analyses) = 0;
};

/// Changes one function at a time, its control structure included.
class KernelPass : public Pass {
public:
  KernelPass() : Pass(Kind::Kernel) {}
  /// Which functions the pass visits; by default every function with a body.
  virtual bool appliesTo(const ir::Function& function) const { return function.hasBody(); }
  virtual PreservedAnalyses run(ir::Function& function, AnalysisManager& analyses) = 0;
};

/// Changes one basic block at a time. Consecutive basic-block passes are coalesced: each block is
/// visited by all of them before the next block (Figure 3). Blocks added during the visit are not
/// visited.
class BasicBlockPass : public Pass {
public:
  BasicBlockPass() : Pass(Kind::BasicBlock) {}
  virtual bool appliesTo(const ir::Function& function) const { return function.hasBody(); }
  /// Before the first block of `function`.
  virtual void beginFunction(ir::Function&, AnalysisManager&) {}
  virtual PreservedAnalyses runOnBlock(ir::BasicBlock& block, AnalysisManager& analyses) = 0;
  /// After the last block of `function`.
  virtual PreservedAnalyses endFunction(ir::Function&, AnalysisManager&) {
    return PreservedAnalyses::all();
  }
};

} // namespace ocelot::passes
