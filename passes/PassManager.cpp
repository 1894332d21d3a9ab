#include "passes/PassManager.h"

#include "ir/Verifier.h"

#include <exception>

namespace ocelot::passes {

Pass& PassManager::add(std::unique_ptr<Pass> pass) {
  passes_.push_back(std::move(pass));
  return *passes_.back();
}

std::vector<PassManager::Step> PassManager::schedule() const {
  std::vector<Step> steps;
  for (const auto& owned : passes_) {
    Pass* pass = owned.get();
    if (pass->kind() == Pass::Kind::Module) {
      steps.push_back(Step{Step::Kind::Module, {{pass}}});
      continue;
    }
    if (steps.empty() || steps.back().kind != Step::Kind::Functions)
      steps.push_back(Step{Step::Kind::Functions, {}});
    auto& groups = steps.back().groups;
    bool extendsBlockGroup = pass->kind() == Pass::Kind::BasicBlock && !groups.empty() &&
                             groups.back().front()->kind() == Pass::Kind::BasicBlock;
    if (extendsBlockGroup)
      groups.back().push_back(pass);
    else
      groups.push_back({pass});
  }
  return steps;
}

std::string PassManager::describeSchedule() const {
  std::string text;
  for (const Step& step : schedule()) {
    if (step.kind == Step::Kind::Module) {
      Pass* pass = step.groups.front().front();
      text += "module " + std::string(pass->name()) + "\n";
      continue;
    }
    text += "per function {";
    for (size_t g = 0; g < step.groups.size(); ++g) {
      const auto& group = step.groups[g];
      text += g == 0 ? " " : "; ";
      if (group.front()->kind() == Pass::Kind::Kernel) {
        text += "kernel " + std::string(group.front()->name());
        continue;
      }
      text += "per block {";
      for (size_t i = 0; i < group.size(); ++i)
        text += (i == 0 ? " " : ", ") + std::string(group[i]->name());
      text += " }";
    }
    text += " }\n";
  }
  return text;
}

PassManagerResult PassManager::run(ir::Module& module, AnalysisManager& analyses) {
  PassManagerResult result;
  const std::vector<Step> steps = schedule();
  // With a final run of function passes, functions are finished one by one inside it.
  const bool finishInLastStep = !steps.empty() && steps.back().kind == Step::Kind::Functions;
  for (size_t i = 0; i < steps.size(); ++i) {
    const Step& step = steps[i];
    bool ok = step.kind == Step::Kind::Module
                  ? runModulePass(*step.groups.front().front(), module, analyses, result)
                  : runFunctionStep(step, module, analyses,
                                    finishInLastStep && i + 1 == steps.size(), result);
    analyses.releaseRetired();
    if (!ok)
      return result;
  }
  if (!finishInLastStep)
    for (ir::Function* function : std::vector<ir::Function*>(module.functions()))
      if (function->hasBody() && !finished(*function, result))
        return result;
  return result;
}

bool PassManager::finished(ir::Function& function, PassManagerResult& result) {
  if (!options_.functionFinished)
    return true;
  if (std::optional<std::string> error = options_.functionFinished(function)) {
    result.ok = false;
    result.error = "after the passes, function '" + std::string(function.name()) + "': " + *error;
    return false;
  }
  return true;
}

namespace {

std::string failure(const Pass& pass, const ir::Function* function, const std::string& what) {
  std::string text = "pass '" + std::string(pass.name()) + "' failed";
  if (function != nullptr)
    text += " on function '" + std::string(function->name()) + "'";
  return text + ": " + what;
}

} // namespace

bool PassManager::runModulePass(Pass& pass, ir::Module& module, AnalysisManager& analyses,
                                PassManagerResult& result) {
  try {
    AnalysisUsage usage;
    pass.declareUsage(usage);
    usage.computeFor(module, analyses);
    for (ir::Function* function : module.functions())
      if (function->hasBody())
        usage.computeFor(*function, analyses);
    PreservedAnalyses preserved = static_cast<ModulePass&>(pass).run(module, analyses);
    analyses.invalidate(module, preserved, true);
  } catch (const std::exception& e) {
    result.ok = false;
    result.error = failure(pass, nullptr, e.what());
    return false;
  }
  return verify(std::string(pass.name()), module, nullptr, result);
}

bool PassManager::runFunctionStep(const Step& step, ir::Module& module, AnalysisManager& analyses,
                                  bool last, PassManagerResult& result) {
  const std::vector<ir::Function*> functions = module.functions();
  for (ir::Function* function : functions) {
    if (!function->hasBody())
      continue;
    for (const auto& group : step.groups) {
      if (group.front()->kind() == Pass::Kind::BasicBlock) {
        if (!runBlockGroup(group, *function, analyses, result))
          return false;
        continue;
      }
      auto& pass = static_cast<KernelPass&>(*group.front());
      if (!pass.appliesTo(*function))
        continue;
      try {
        AnalysisUsage usage;
        pass.declareUsage(usage);
        usage.computeFor(module, analyses);
        usage.computeFor(*function, analyses);
        PreservedAnalyses preserved = pass.run(*function, analyses);
        analyses.invalidate(*function, preserved);
        analyses.invalidate(module, preserved, false);
      } catch (const std::exception& e) {
        result.ok = false;
        result.error = failure(pass, function, e.what());
        return false;
      }
      analyses.releaseRetired();
      if (!verify(std::string(pass.name()), module, function, result))
        return false;
    }
    if (last && !finished(*function, result))
      return false;
  }
  return true;
}

bool PassManager::runBlockGroup(const std::vector<Pass*>& group, ir::Function& function,
                                AnalysisManager& analyses, PassManagerResult& result) {
  std::vector<BasicBlockPass*> active;
  for (Pass* pass : group)
    if (static_cast<BasicBlockPass*>(pass)->appliesTo(function))
      active.push_back(static_cast<BasicBlockPass*>(pass));
  if (active.empty())
    return true;
  BasicBlockPass* current = active.front();
  auto apply = [&](const PreservedAnalyses& preserved) {
    analyses.invalidate(function, preserved);
    analyses.invalidate(function.module(), preserved, false);
  };
  try {
    for (BasicBlockPass* pass : active) {
      current = pass;
      AnalysisUsage usage;
      pass->declareUsage(usage);
      usage.computeFor(function.module(), analyses);
      usage.computeFor(function, analyses);
      pass->beginFunction(function, analyses);
    }
    // The blocks as they are now: blocks the passes add are not visited.
    std::vector<ir::BasicBlock*> blocks;
    for (auto& block : function.blocks())
      blocks.push_back(block.get());
    for (ir::BasicBlock* block : blocks)
      for (BasicBlockPass* pass : active) {
        current = pass;
        apply(pass->runOnBlock(*block, analyses));
      }
    for (BasicBlockPass* pass : active) {
      current = pass;
      apply(pass->endFunction(function, analyses));
    }
  } catch (const std::exception& e) {
    result.ok = false;
    result.error = failure(*current, &function, e.what());
    return false;
  }
  analyses.releaseRetired();
  std::string names;
  for (BasicBlockPass* pass : active)
    names += (names.empty() ? "" : ", ") + std::string(pass->name());
  return verify(names, function.module(), &function, result);
}

bool PassManager::verify(const std::string& after, ir::Module& module, const ir::Function* function,
                         PassManagerResult& result) {
  if (!options_.verifyEach)
    return true;
  auto diagnostics = function ? ir::verifyFunction(*function) : ir::verifyModule(module);
  if (!ir::hasErrors(diagnostics))
    return true;
  result.ok = false;
  result.error = "the IR is malformed after pass '" + after + "'";
  for (const auto& d : diagnostics)
    if (d.severity == ir::VerifierDiagnostic::Severity::Error)
      result.verifierMessages.push_back(d.format());
  return false;
}

} // namespace ocelot::passes
