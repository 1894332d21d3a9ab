// The pass manager: the coalescing order of the paper's Figure 3, analyses computed once and
// recomputed after a pass that does not preserve them, builder changes invalidating as they
// happen, failures reported instead of thrown.

#include "passes/PassManager.h"

#include "PassTestSupport.h"
#include "ir/Emitter.h"
#include "ir/IRBuilder.h"
#include "passes/DominatorTree.h"
#include "passes/Liveness.h"
#include "passes/LoopInfo.h"

namespace ocelot::test {
namespace {

using passes::AnalysisManager;
using passes::PreservedAnalyses;

/// Two kernels with three blocks each.
std::string twoKernels() {
  std::string body = R"(
{
	.reg .pred %p<2>;
	.reg .b32 %r<4>;
	setp.eq.s32 %p1, %r1, 0;
	@%p1 bra $L_x;
	mov.u32 %r2, 1;
$L_x:
	ret;
})";
  return ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k1()" + body +
         "\n.visible .entry k2()" + body + "\n";
}

using Log = std::vector<std::string>;

class RecordingModulePass final : public passes::ModulePass {
public:
  RecordingModulePass(std::string name, Log& log) : name_(std::move(name)), log_(log) {}
  std::string_view name() const override { return name_; }
  PreservedAnalyses run(ir::Module&, AnalysisManager&) override {
    log_.push_back(name_);
    return PreservedAnalyses::all();
  }

private:
  std::string name_;
  Log& log_;
};

class RecordingKernelPass final : public passes::KernelPass {
public:
  RecordingKernelPass(std::string name, Log& log) : name_(std::move(name)), log_(log) {}
  std::string_view name() const override { return name_; }
  PreservedAnalyses run(ir::Function& f, AnalysisManager&) override {
    log_.push_back(name_ + ":" + std::string(f.name()));
    return PreservedAnalyses::all();
  }

private:
  std::string name_;
  Log& log_;
};

class RecordingBlockPass final : public passes::BasicBlockPass {
public:
  RecordingBlockPass(std::string name, Log& log) : name_(std::move(name)), log_(log) {}
  std::string_view name() const override { return name_; }
  PreservedAnalyses runOnBlock(ir::BasicBlock& block, AnalysisManager&) override {
    size_t index = 0;
    while (block.parent().blocks()[index].get() != &block)
      ++index;
    log_.push_back(name_ + ":" + std::string(block.parent().name()) + ":B" + std::to_string(index));
    return PreservedAnalyses::all();
  }

private:
  std::string name_;
  Log& log_;
};

TEST(PassManager, CoalescesLikeFigure3) {
  // Figure 3: module passes, then kernel and basic-block passes; consecutive basic-block passes
  // (pass3, pass4) visit each block together before the next block.
  Log log;
  passes::PassManager manager;
  manager.add<RecordingModulePass>("pass1", log);
  manager.add<RecordingKernelPass>("pass2", log);
  manager.add<RecordingBlockPass>("pass3", log);
  manager.add<RecordingBlockPass>("pass4", log);
  manager.add<RecordingKernelPass>("pass5", log);
  manager.add<RecordingModulePass>("pass6", log);
  EXPECT_EQ(manager.describeSchedule(),
            "module pass1\n"
            "per function { kernel pass2; per block { pass3, pass4 }; kernel pass5 }\n"
            "module pass6\n");
  auto module = parseOrFail(twoKernels());
  ASSERT_TRUE(module);
  AnalysisManager analyses;
  auto result = manager.run(*module, analyses);
  ASSERT_TRUE(result.ok) << result.error;
  // clang-format off
  EXPECT_EQ(log, (Log{
      "pass1",
      "pass2:k1",
      "pass3:k1:B0", "pass4:k1:B0", "pass3:k1:B1", "pass4:k1:B1", "pass3:k1:B2", "pass4:k1:B2",
      "pass5:k1",
      "pass2:k2",
      "pass3:k2:B0", "pass4:k2:B0", "pass3:k2:B1", "pass4:k2:B1", "pass3:k2:B2", "pass4:k2:B2",
      "pass5:k2",
      "pass6"}));
  // clang-format on
}

TEST(PassManager, FunctionsAreFinishedAfterTheirLastPass) {
  // A final run of function passes finishes each function as soon as it is done with it.
  Log log;
  passes::PassManagerOptions options;
  options.functionFinished = [&](ir::Function& f) -> std::optional<std::string> {
    log.push_back("finished:" + std::string(f.name()));
    return std::nullopt;
  };
  passes::PassManager manager(options);
  manager.add<RecordingModulePass>("pass1", log);
  manager.add<RecordingKernelPass>("pass2", log);
  manager.add<RecordingBlockPass>("pass3", log);
  auto module = parseOrFail(twoKernels());
  ASSERT_TRUE(module);
  AnalysisManager analyses;
  ASSERT_TRUE(manager.run(*module, analyses).ok);
  // clang-format off
  EXPECT_EQ(log, (Log{
      "pass1",
      "pass2:k1", "pass3:k1:B0", "pass3:k1:B1", "pass3:k1:B2", "finished:k1",
      "pass2:k2", "pass3:k2:B0", "pass3:k2:B1", "pass3:k2:B2", "finished:k2"}));
  // clang-format on

  // A module pass at the end may still touch every function: they are finished after it.
  log.clear();
  passes::PassManager trailing(options);
  trailing.add<RecordingKernelPass>("pass2", log);
  trailing.add<RecordingModulePass>("pass6", log);
  ASSERT_TRUE(trailing.run(*module, analyses).ok);
  EXPECT_EQ(log, (Log{"pass2:k1", "pass2:k2", "pass6", "finished:k1", "finished:k2"}));

  // A message ends the run.
  options.functionFinished = [](ir::Function& f) -> std::optional<std::string> {
    return f.name() == "k1" ? std::optional<std::string>("no room") : std::nullopt;
  };
  passes::PassManager failing(options);
  failing.add<RecordingKernelPass>("pass2", log);
  auto result = failing.run(*module, analyses);
  EXPECT_FALSE(result.ok);
  EXPECT_EQ(result.error, "after the passes, function 'k1': no room");
}

/// A pass that needs the dominator tree and says whether it keeps it.
class DominatorUser final : public passes::KernelPass {
public:
  DominatorUser(std::string name, bool preserves) : name_(std::move(name)), preserves_(preserves) {}
  std::string_view name() const override { return name_; }
  void declareUsage(passes::AnalysisUsage& usage) const override {
    usage.require<passes::DominatorTreeAnalysis>();
  }
  PreservedAnalyses run(ir::Function& f, AnalysisManager& analyses) override {
    // Required analyses are ready: reading one computes nothing.
    EXPECT_TRUE(analyses.isCached(&f, passes::DominatorTreeAnalysis::Key));
    analyses.getResult<passes::DominatorTreeAnalysis>(f);
    return preserves_ ? PreservedAnalyses::controlFlow() : PreservedAnalyses::none();
  }

private:
  std::string name_;
  bool preserves_;
};

TEST(PassManager, AnalysesAreComputedOnceAndRecomputedWhenNotPreserved) {
  auto module = parseOrFail(twoKernels());
  ASSERT_TRUE(module);
  AnalysisManager analyses;
  {
    passes::PassManager manager;
    manager.add<DominatorUser>("a", true);
    manager.add<DominatorUser>("b", true);
    manager.add<DominatorUser>("c", true);
    ASSERT_TRUE(manager.run(*module, analyses).ok);
  }
  // Three passes need it, for two kernels: computed once per kernel.
  EXPECT_EQ(analyses.computations(passes::DominatorTreeAnalysis::Key), 2u);
  EXPECT_EQ(analyses.computations(passes::ControlFlowGraphAnalysis::Key), 2u);
  {
    passes::PassManager manager;
    manager.add<DominatorUser>("d", false); // changes control flow: preserves nothing
    manager.add<DominatorUser>("e", true);
    ASSERT_TRUE(manager.run(*module, analyses).ok);
  }
  // "d" found it cached (no computation); "e" needed it again after "d".
  EXPECT_EQ(analyses.computations(passes::DominatorTreeAnalysis::Key), 4u);
  EXPECT_EQ(analyses.computations(passes::ControlFlowGraphAnalysis::Key), 4u);
}

TEST(AnalysisManager, DependentsAreDroppedWithTheirInputs) {
  auto module = parseOrFail(twoKernels());
  ASSERT_TRUE(module);
  ir::Function& f = *module->functions()[0];
  AnalysisManager analyses;
  analyses.getResult<passes::LoopAnalysis>(f);
  analyses.getResult<passes::LivenessAnalysis>(f);
  ASSERT_TRUE(analyses.isCached(&f, passes::DominatorTreeAnalysis::Key));
  // Keeping the loops but not the CFG they were computed from keeps nothing.
  analyses.invalidate(f, PreservedAnalyses::none().preserve<passes::LoopAnalysis>());
  EXPECT_FALSE(analyses.isCached(&f, passes::LoopAnalysis::Key));
  EXPECT_FALSE(analyses.isCached(&f, passes::ControlFlowGraphAnalysis::Key));
  EXPECT_FALSE(analyses.isCached(&f, passes::LivenessAnalysis::Key));
  // Straight-line changes keep the CFG family and drop liveness.
  analyses.getResult<passes::LoopAnalysis>(f);
  analyses.getResult<passes::LivenessAnalysis>(f);
  analyses.invalidate(f, PreservedAnalyses::controlFlow());
  EXPECT_TRUE(analyses.isCached(&f, passes::LoopAnalysis::Key));
  EXPECT_FALSE(analyses.isCached(&f, passes::LivenessAnalysis::Key));
  EXPECT_FALSE(analyses.isCached(&f, passes::RegisterNumberingAnalysis::Key));
  // Other functions are untouched.
  ir::Function& g = *module->functions()[1];
  analyses.getResult<passes::LivenessAnalysis>(g);
  analyses.invalidate(f, PreservedAnalyses::none());
  EXPECT_TRUE(analyses.isCached(&g, passes::LivenessAnalysis::Key));
}

TEST(AnalysisManager, BuilderChangesInvalidateAsTheyHappen) {
  auto module = parseOrFail(twoKernels());
  ASSERT_TRUE(module);
  ir::Function& f = *module->functions()[0];
  AnalysisManager analyses;
  const passes::Liveness* before = &analyses.getResult<passes::LivenessAnalysis>(f);
  analyses.getResult<passes::DominatorTreeAnalysis>(f);
  ir::IRBuilder builder(*f.blocks()[1], &analyses);
  ir::RegisterRef r = builder.readSpecial("%clock");
  EXPECT_TRUE(analyses.isCached(&f, passes::DominatorTreeAnalysis::Key));
  EXPECT_FALSE(analyses.isCached(&f, passes::LivenessAnalysis::Key));
  EXPECT_EQ(before->numbering().id(r), passes::RegisterNumbering::kNone); // stale, not dangling
  // Recomputed on demand, the analysis knows the new register.
  const auto& after = analyses.getResult<passes::LivenessAnalysis>(f);
  EXPECT_NE(after.numbering().id(r), passes::RegisterNumbering::kNone);
  // A branch changes the control flow: the dominator tree goes too.
  builder.atEnd(*f.blocks()[2]);
  builder.insertLabel("x");
  EXPECT_FALSE(analyses.isCached(&f, passes::DominatorTreeAnalysis::Key));
}

// --- An instrumentor written as passes: the paper's basic-block counters ------------------------

/// Adds `.global .align 8 .u64 __ocelot_counters;` before the first function.
class AddCounterBase final : public passes::ModulePass {
public:
  std::string_view name() const override { return "add-counter-base"; }
  PreservedAnalyses run(ir::Module& module, AnalysisManager&) override {
    ir::DeclarationSpec spec;
    spec.words = {{module.intern(".global"), std::nullopt, {}},
                  {module.intern(".align"), 8, {}},
                  {module.intern(".u64"), std::nullopt, {}}};
    ir::Declarator d;
    d.name = module.intern("__ocelot_counters");
    spec.declarators.push_back(d);
    size_t first = 0;
    while (first < module.items().size() && !ir::isa<ir::Function>(module.items()[first].get()))
      ++first;
    module.insert(first, std::make_unique<ir::GlobalVariable>(std::move(spec)));
    return PreservedAnalyses::all(); // no function changed
  }
};

/// Listing 1: counters[block][thread] += 1 at the start of every block, non-atomically.
class CountBlocks final : public passes::BasicBlockPass {
public:
  std::string_view name() const override { return "count-blocks"; }
  void declareUsage(passes::AnalysisUsage& usage) const override {
    usage.require<passes::ControlFlowGraphAnalysis>();
  }
  PreservedAnalyses runOnBlock(ir::BasicBlock& block, AnalysisManager& analyses) override {
    using ir::ScalarType;
    using ir::StateSpace;
    auto node = analyses.getResult<passes::ControlFlowGraphAnalysis>(block.parent()).node(block);
    ir::IRBuilder b(block, &analyses);
    auto base = b.load(StateSpace::Global, ScalarType::U64, b.symbol("__ocelot_counters"));
    auto row = b.add(ScalarType::U64, b.reg(base), b.imm(int64_t{node} * 1024 * 8));
    auto slot = b.elementAddress(b.reg(row), b.special("%tid", ir::VectorComponent::X), 8);
    auto count = b.load(StateSpace::Global, ScalarType::U64, b.reg(slot));
    b.store(StateSpace::Global, ScalarType::U64, b.reg(slot),
            b.reg(b.add(ScalarType::U64, b.reg(count), b.imm(1))));
    return PreservedAnalyses::controlFlow();
  }
};

TEST(PassManager, InstrumentorPassesVerifyAndAssemble) {
  auto module = parseOrFail(twoKernels());
  ASSERT_TRUE(module);
  passes::PassManagerOptions options;
  options.verifyEach = true;
  passes::PassManager manager(options);
  manager.add<AddCounterBase>();
  manager.add<CountBlocks>();
  AnalysisManager analyses;
  auto result = manager.run(*module, analyses);
  ASSERT_TRUE(result.ok) << result.error;
  std::string text = ir::emitPtx(*module);
  // Two kernels of three blocks, each block with its counter update.
  size_t updates = 0;
  for (size_t at = text.find("st.global.u64"); at != std::string::npos;
       at = text.find("st.global.u64", at + 1))
    ++updates;
  EXPECT_EQ(updates, 6u);
  auto ptxas = runPtxas(text, "sm_90");
  EXPECT_TRUE(ptxas.ok()) << ptxas.output << text;
}

class Thrower final : public passes::KernelPass {
public:
  std::string_view name() const override { return "thrower"; }
  PreservedAnalyses run(ir::Function&, AnalysisManager&) override {
    throw std::runtime_error("out of ideas");
  }
};

class Breaker final : public passes::BasicBlockPass {
public:
  std::string_view name() const override { return "breaker"; }
  PreservedAnalyses runOnBlock(ir::BasicBlock& block, AnalysisManager& analyses) override {
    // Reads a register that is not in the table.
    ir::IRBuilder(block, &analyses)
        .insert("mov.u32", {ir::RegisterOperand{{0, 99}}, ir::ImmediateOperand::integer(1)});
    return PreservedAnalyses::controlFlow();
  }
};

TEST(PassManager, FailuresAreReportedNotThrown) {
  auto module = parseOrFail(twoKernels());
  ASSERT_TRUE(module);
  AnalysisManager analyses;
  passes::PassManager throwing;
  throwing.add<Thrower>();
  auto result = throwing.run(*module, analyses);
  EXPECT_FALSE(result.ok);
  EXPECT_EQ(result.error, "pass 'thrower' failed on function 'k1': out of ideas");

  passes::PassManagerOptions options;
  options.verifyEach = true;
  passes::PassManager breaking(options);
  breaking.add<Breaker>();
  result = breaking.run(*module, analyses);
  EXPECT_FALSE(result.ok);
  EXPECT_EQ(result.error, "the IR is malformed after pass 'breaker'");
  ASSERT_FALSE(result.verifierMessages.empty());
  EXPECT_NE(result.verifierMessages[0].find("is not declared"), std::string::npos)
      << result.verifierMessages[0];
}

} // namespace
} // namespace ocelot::test
