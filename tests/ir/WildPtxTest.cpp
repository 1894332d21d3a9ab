// The hand-written module tests/ir/data/wild.ptx holds every construct of PTX_IN_THE_WILD.md.
// These tests check that each one lands in the IR as what it is, and that emission is lossless.

#include "TestPtx.h"
#include "ir/Emitter.h"
#include "ir/InstructionForm.h"

#include <algorithm>

namespace ocelot::test {
namespace {

using namespace ocelot::ir;

class WildPtxTest : public ::testing::Test {
protected:
  void SetUp() override {
    text_ = readTextFile(irDataPath("wild.ptx"));
    ASSERT_FALSE(text_.empty());
    module_ = parseOrFail(text_, "wild.ptx");
    ASSERT_NE(module_, nullptr);
    kernel_ = module_->findFunction("wild_kernel");
    ASSERT_NE(kernel_, nullptr);
  }

  /// The n-th instruction (0-based) of the kernel whose spelling is `spelling`.
  const Instruction& instruction(std::string_view spelling, size_t nth = 0) const {
    for (const Instruction* inst : instructionsOf(*kernel_))
      if (inst->form().spelling() == spelling && nth-- == 0)
        return *inst;
    ADD_FAILURE() << "no instruction " << spelling;
    static const Instruction* none = nullptr;
    return *none;
  }

  const Initializer& initializerOf(std::string_view name) const {
    const GlobalVariable* global = module_->findGlobal(name);
    EXPECT_NE(global, nullptr) << name;
    for (const auto& d : global->spec().declarators)
      if (d.name == name && d.initializer)
        return *d.initializer;
    ADD_FAILURE() << name << " has no initializer";
    static const Initializer* none = nullptr;
    return *none;
  }

  std::string text_;
  std::unique_ptr<Module> module_;
  const Function* kernel_ = nullptr;
};

TEST_F(WildPtxTest, HeaderIsKeptAsWritten) {
  EXPECT_EQ(module_->version(), "9.0");
  ASSERT_EQ(module_->targets().size(), 1u);
  EXPECT_EQ(module_->targets()[0], "sm_90a");
  EXPECT_EQ(module_->architecture(), "sm_90a");
  EXPECT_FALSE(module_->hasDebugTarget());
  EXPECT_EQ(module_->addressSize(), 64u);
}

TEST_F(WildPtxTest, FunctionsDeclarationsAndLinkage) {
  const Function* vprintf = module_->findFunction("vprintf");
  ASSERT_NE(vprintf, nullptr);
  EXPECT_FALSE(vprintf->hasBody());
  EXPECT_EQ(vprintf->linkage(), Linkage::Extern);
  EXPECT_TRUE(vprintf->signature().hasReturnList);
  ASSERT_EQ(vprintf->signature().parameters.size(), 2u);
  EXPECT_EQ(vprintf->signature().parameters[1].declarators[0].name, "vprintf_param_1");

  EXPECT_TRUE(module_->findFunction("__assertfail")->isNoReturn());
  EXPECT_TRUE(module_->findFunction("no_return_here")->isNoReturn());
  EXPECT_EQ(module_->findFunction("weak_helper")->linkage(), Linkage::Weak);

  const Function* noParams = module_->findFunction("no_params");
  ASSERT_NE(noParams, nullptr);
  EXPECT_TRUE(noParams->isEntry());
  EXPECT_TRUE(noParams->signature().hasParameterList);
  EXPECT_TRUE(noParams->signature().parameters.empty());

  EXPECT_TRUE(kernel_->isEntry());
  EXPECT_EQ(kernel_->linkage(), Linkage::Visible);
}

TEST_F(WildPtxTest, ParametersKeepAllTheirWords) {
  const auto& params = kernel_->signature().parameters;
  ASSERT_EQ(params.size(), 4u);
  // .param .u64 .ptr .global .align 4 p: the first state space is the parameter's own.
  EXPECT_EQ(params[0].stateSpace(), StateSpace::Param);
  EXPECT_TRUE(params[0].hasWord(".ptr"));
  EXPECT_TRUE(params[0].hasWord(".global"));
  EXPECT_EQ(params[0].alignment(), 4u);
  EXPECT_EQ(params[0].type(), ScalarType::U64);
  // .param .align 8 .b8 p[24]: an aggregate.
  EXPECT_EQ(params[1].alignment(), 8u);
  ASSERT_EQ(params[1].declarators[0].dimensions.size(), 1u);
  EXPECT_EQ(params[1].declarators[0].dimensions[0], 24u);
}

TEST_F(WildPtxTest, PerformanceDirectivesInOrder) {
  ASSERT_EQ(kernel_->directives().size(), 2u);
  EXPECT_EQ(kernel_->directives()[0].name, ".maxntid");
  EXPECT_EQ(kernel_->directives()[0].values, (std::vector<uint64_t>{256, 1, 1}));
  EXPECT_EQ(kernel_->directive(".minnctapersm")->values, (std::vector<uint64_t>{2}));
}

TEST_F(WildPtxTest, InitializersKeepValuesAndSpellings) {
  const Initializer& str = initializerOf("$str");
  ASSERT_EQ(str.kind(), Initializer::Kind::IntegerList);
  EXPECT_EQ(str.integerValues(), (std::vector<int64_t>{104, 105, 32, 37, 100, 0}));

  const Initializer& negatives = initializerOf("negatives");
  ASSERT_EQ(negatives.kind(), Initializer::Kind::IntegerList);
  EXPECT_EQ(negatives.integerValues(), (std::vector<int64_t>{-1, -2147483648LL, 7}));

  const Initializer& pointer = initializerOf("pointer_to_str");
  ASSERT_EQ(pointer.kind(), Initializer::Kind::Value);
  const auto& sym = pointer.scalar().as<SymbolOperand>();
  EXPECT_TRUE(sym.generic);
  EXPECT_EQ(sym.name, "$str");
  const auto& into = initializerOf("pointer_into_str").scalar().as<SymbolOperand>();
  EXPECT_TRUE(into.generic);
  EXPECT_EQ(into.offset, 2);

  const Initializer& table = initializerOf("table");
  ASSERT_EQ(table.kind(), Initializer::Kind::List);
  const auto& one = table.elements()[0].scalar().as<ImmediateOperand>();
  EXPECT_EQ(one.format, ImmediateOperand::Format::Float32Bits);
  EXPECT_EQ(one.magnitude, 0x3F800000u);
  EXPECT_EQ(table.elements()[2].scalar().as<ImmediateOperand>().magnitude, 0xBF800000u);
  const auto& dbl = initializerOf("dtable").elements()[1].scalar().as<ImmediateOperand>();
  EXPECT_EQ(dbl.format, ImmediateOperand::Format::Float64Bits);
  EXPECT_EQ(dbl.magnitude, 0xC000000000000000ull);

  // Non-decimal spellings are kept: the list is not packed.
  const Initializer& constants = initializerOf("constants");
  ASSERT_EQ(constants.kind(), Initializer::Kind::List);
  EXPECT_EQ(constants.elements()[0].scalar().as<ImmediateOperand>().format,
            ImmediateOperand::Format::Hexadecimal);
  EXPECT_EQ(constants.elements()[1].scalar().as<ImmediateOperand>().magnitude, 15u);
  EXPECT_EQ(constants.elements()[2].scalar().as<ImmediateOperand>().format,
            ImmediateOperand::Format::Binary);

  const Initializer& matrix = initializerOf("matrix");
  ASSERT_EQ(matrix.kind(), Initializer::Kind::List);
  ASSERT_EQ(matrix.elements().size(), 2u);
  EXPECT_EQ(matrix.elements()[1].integerValues(), (std::vector<int64_t>{4, 5, 6}));
}

TEST_F(WildPtxTest, VariableDeclarationWords) {
  const GlobalVariable* managed = module_->findGlobal("managedCounter");
  ASSERT_NE(managed, nullptr);
  const auto& words = managed->spec().words;
  auto attribute = std::find_if(words.begin(), words.end(),
                                [](const DeclarationWord& w) { return w.word == ".attribute"; });
  ASSERT_NE(attribute, words.end());
  EXPECT_EQ(attribute->arguments, (std::vector<std::string_view>{".managed"}));

  const GlobalVariable* dynamic = module_->findGlobal("dynamicSmem");
  ASSERT_NE(dynamic, nullptr);
  EXPECT_EQ(dynamic->spec().linkage(), Linkage::Extern);
  EXPECT_EQ(dynamic->spec().stateSpace(), StateSpace::Shared);
  ASSERT_EQ(dynamic->spec().declarators[0].dimensions.size(), 1u);
  EXPECT_FALSE(dynamic->spec().declarators[0].dimensions[0].has_value()); // unsized []
}

TEST_F(WildPtxTest, InstructionFormsSplitModifiersGenerically) {
  const Instruction& load = instruction("ld.global.nc.L1::no_allocate.v4.f32");
  const InstructionForm& form = load.form();
  EXPECT_EQ(form.opcode(), Opcode::Ld);
  EXPECT_EQ(form.opcodeName(), "ld");
  EXPECT_EQ(form.modifiers(),
            (std::vector<std::string_view>{"global", "nc", "L1::no_allocate", "v4", "f32"}));
  EXPECT_EQ(form.vectorWidth(), 4u);
  EXPECT_EQ(form.stateSpace(), StateSpace::Global);
  EXPECT_EQ(form.lastType(), ScalarType::F32);
  EXPECT_TRUE(form.has(kMemoryRead));
  ASSERT_TRUE(load.operands()[0].is<VectorOperand>());
  EXPECT_EQ(load.operands()[0].as<VectorOperand>().elements.size(), 4u);
  const auto& address = load.operands()[1].as<AddressOperand>();
  EXPECT_EQ(address.offset, 16);

  EXPECT_EQ(instruction("cvt.rn.f16.f32").form().firstType(), ScalarType::F16);
  EXPECT_EQ(instruction("cvt.rn.f16.f32").form().lastType(), ScalarType::F32);
  EXPECT_EQ(instruction("atom.add.acq_rel.gpu.u64").form().stateSpace(), StateSpace::Generic);
  EXPECT_TRUE(instruction("bar.sync").form().has(kCtaBarrier));
  EXPECT_TRUE(instruction("bar.warp.sync").form().has(kWarpCollective));
  EXPECT_FALSE(instruction("bar.warp.sync").form().has(kCtaBarrier));
  EXPECT_TRUE(instruction("brx.idx").form().isTerminator());
  EXPECT_TRUE(instruction("exit").form().isTerminator());
  EXPECT_FALSE(instruction("call.uni").form().isTerminator());
}

TEST_F(WildPtxTest, OperandKinds) {
  const auto& shfl = instruction("shfl.sync.bfly.b32");
  ASSERT_TRUE(shfl.operands()[0].is<DualOperand>());
  EXPECT_TRUE(shfl.operands()[0].as<DualOperand>().parts[1].is<RegisterOperand>());
  EXPECT_EQ(shfl.operands()[4].as<ImmediateOperand>().integerValue(), -1);

  const auto& elect = instruction("elect.sync", 1);
  EXPECT_TRUE(elect.operands()[0].as<DualOperand>().parts[0].is<SinkOperand>());
  EXPECT_TRUE(instruction("mbarrier.arrive.shared.b64", 1).operands()[0].is<SinkOperand>());

  const auto& vote = instruction("vote.sync.all.pred");
  EXPECT_TRUE(vote.operands()[1].as<RegisterOperand>().negated);

  const auto& negativeStore = instruction("st.global.f32");
  EXPECT_EQ(negativeStore.operands()[0].as<AddressOperand>().offset, -4);
  const auto& spStore = instruction("st.local.u32");
  EXPECT_TRUE(spStore.operands()[0].as<AddressOperand>().explicitOffset); // [%SP+0]
  EXPECT_EQ(spStore.operands()[0].as<AddressOperand>().offset, 0);

  const auto& minusFive = instruction("mov.u32", 3).operands()[1].as<ImmediateOperand>();
  EXPECT_TRUE(minusFive.negative);
  EXPECT_EQ(minusFive.integerValue(), -5);
  EXPECT_EQ(instruction("mov.u32", 4).operands()[1].as<ImmediateOperand>().format,
            ImmediateOperand::Format::Hexadecimal);
  EXPECT_TRUE(instruction("add.u32").operands()[2].as<ImmediateOperand>().unsignedSuffix);
  const auto& one = instruction("mov.f64").operands()[1].as<ImmediateOperand>();
  EXPECT_EQ(one.format, ImmediateOperand::Format::Float64Bits);
  EXPECT_EQ(one.magnitude, 0x3FF0000000000000ull);

  const Operand* clusterCtaPtr = nullptr;
  for (const Instruction* inst : instructionsOf(*kernel_))
    if (inst->operands().size() == 2)
      if (const auto* special = inst->operands()[1].getIf<SpecialRegisterOperand>();
          special && special->name == "%cluster_ctaid")
        clusterCtaPtr = &inst->operands()[1];
  ASSERT_NE(clusterCtaPtr, nullptr);
  const Operand& clusterCta = *clusterCtaPtr;
  ASSERT_TRUE(clusterCta.is<SpecialRegisterOperand>());
  EXPECT_EQ(clusterCta.as<SpecialRegisterOperand>().name, "%cluster_ctaid");
  EXPECT_EQ(clusterCta.as<SpecialRegisterOperand>().component, VectorComponent::X);

  const auto& symbolLoad = instruction("ld.global.f32");
  const auto& base = std::get<SymbolOperand>(symbolLoad.operands()[1].as<AddressOperand>().base);
  EXPECT_EQ(base.name, "table");
  EXPECT_EQ(symbolLoad.operands()[1].as<AddressOperand>().offset, 4);

  const auto& tex = instruction("tex.2d.v4.f32.f32");
  const auto& texAddress = tex.operands()[1].as<AddressOperand>();
  EXPECT_FALSE(texAddress.explicitOffset);
  ASSERT_EQ(texAddress.extra.size(), 1u);
  EXPECT_EQ(texAddress.extra[0].as<VectorOperand>().elements.size(), 2u);
}

TEST_F(WildPtxTest, CallsKeepTheirParameterListsAndLayout) {
  const auto& direct = instruction("call.uni");
  ASSERT_EQ(direct.operands().size(), 3u);
  EXPECT_EQ(direct.operands()[0].as<ArgumentListOperand>().arguments.size(), 1u);
  EXPECT_EQ(direct.operands()[1].as<SymbolOperand>().name, "vprintf");
  EXPECT_EQ(direct.operands()[2].as<ArgumentListOperand>().arguments.size(), 2u);
  EXPECT_EQ(direct.operandLineOffset(), 0u); // `call.uni (retval0),` is on one line
  EXPECT_TRUE(direct.form().has(kCall));

  const auto& indirect = instruction("call");
  ASSERT_EQ(indirect.operands().size(), 4u);
  EXPECT_TRUE(indirect.operands()[1].is<RegisterOperand>());
  EXPECT_EQ(indirect.operands()[3].as<SymbolOperand>().name, "prototype_1");
}

TEST_F(WildPtxTest, InlineAsmScopesResolveRegistersAndLabelsLocally) {
  // Two scopes each declare `p` and define `DONE`: four different entities.
  std::vector<const Instruction*> branches;
  for (const Instruction* inst : instructionsOf(*kernel_))
    if (inst->form().opcode() == Opcode::Bra && inst->guard() && inst->scope() != 0)
      branches.push_back(inst);
  ASSERT_EQ(branches.size(), 2u);
  EXPECT_NE(branches[0]->scope(), branches[1]->scope());
  EXPECT_NE(branches[0]->guard()->predicate, branches[1]->guard()->predicate);
  EXPECT_EQ(kernel_->registerName(branches[0]->guard()->predicate), "p");
  EXPECT_FALSE(branches[0]->guard()->negated);
  EXPECT_TRUE(branches[1]->guard()->negated);
  LabelId first = branches[0]->operands()[0].as<LabelOperand>().label;
  LabelId second = branches[1]->operands()[0].as<LabelOperand>().label;
  EXPECT_NE(first, second);
  EXPECT_EQ(kernel_->labels()[first].name, "DONE");
  EXPECT_EQ(kernel_->labels()[second].name, "DONE");
  EXPECT_EQ(kernel_->labels()[first].scope, branches[0]->scope());
  EXPECT_EQ(kernel_->labels()[second].scope, branches[1]->scope());

  // `low` is a register named without '%', visible only in its scope.
  const auto& add = instruction("add.u32", 1);
  EXPECT_EQ(kernel_->registerName(add.operands()[2].as<RegisterOperand>().reg), "low");
}

TEST_F(WildPtxTest, BranchTargetTablesResolveToLabels) {
  const BranchTargets* table = nullptr;
  for (const auto& block : kernel_->blocks())
    for (const auto& s : block->statements())
      if (auto* t = dyn_cast<BranchTargets>(s.get()))
        table = t;
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->name(), "ts");
  ASSERT_EQ(table->targets().size(), 2u);
  EXPECT_EQ(kernel_->labels()[table->targets()[0].as<LabelOperand>().label].name, "$L__BB0_2");
  EXPECT_EQ(kernel_->labels()[table->targets()[1].as<LabelOperand>().label].name, "$L__BB0_3");
}

TEST_F(WildPtxTest, BlocksStartAtLabelsAndEndAtTerminators) {
  for (const auto& block : kernel_->blocks()) {
    // A terminator is always the last instruction of its block.
    bool seenTerminator = false;
    for (const auto& s : block->statements()) {
      if (const auto* inst = dyn_cast<Instruction>(s.get())) {
        EXPECT_FALSE(seenTerminator) << "instruction after a terminator in one block";
        seenTerminator = inst->form().isTerminator();
      }
      if (isa<Label>(s.get())) {
        EXPECT_FALSE(seenTerminator);
      }
    }
  }
  // The guarded `@%p1 bra $L__BB0_4` ends the entry block.
  const Instruction* entryTerminator = kernel_->blocks().front()->terminator();
  ASSERT_NE(entryTerminator, nullptr);
  EXPECT_EQ(entryTerminator->form().opcode(), Opcode::Bra);
  EXPECT_TRUE(entryTerminator->guard().has_value());
  // Two consecutive labels: the first one's block is empty apart from it.
  size_t labelOnly = 0;
  for (const auto& block : kernel_->blocks())
    if (block->label() && block->label()->name() == "$L__BB0_2")
      labelOnly = block->statements().size();
  EXPECT_EQ(labelOnly, 1u);
}

TEST_F(WildPtxTest, LocationsAttachToInstructions) {
  const auto& load = instruction("ld.global.nc.f32");
  EXPECT_EQ(load.sourceLoc(), (SourceLoc{1, 14, 3}));
  bool sawInlined = false;
  for (const auto& block : kernel_->blocks())
    for (const auto& s : block->statements())
      if (const auto* loc = dyn_cast<LocDirective>(s.get()); loc && loc->inlinedAt()) {
        sawInlined = true;
        EXPECT_EQ(loc->inlinedAt()->functionName, "$L__info_string0");
        EXPECT_EQ(loc->inlinedAt()->location, (SourceLoc{1, 20, 7}));
      }
  EXPECT_TRUE(sawInlined);
}

TEST_F(WildPtxTest, FileTableAndDebugSectionsAtTheEnd) {
  const auto& items = module_->items();
  ASSERT_GE(items.size(), 2u);
  const auto* file = dyn_cast<FileDirective>(items[items.size() - 2].get());
  ASSERT_NE(file, nullptr);
  EXPECT_EQ(file->index(), 1u);
  EXPECT_EQ(file->path(), "/home/ocelot/wild.cu");
  EXPECT_EQ(file->timestamp(), 1700000000u);
  EXPECT_EQ(file->size(), 1234u);

  const auto* section = dyn_cast<DebugSection>(items.back().get());
  ASSERT_NE(section, nullptr);
  EXPECT_EQ(section->name(), ".debug_str");
  const auto& entries = section->items();
  ASSERT_EQ(entries.size(), 9u);
  EXPECT_EQ(entries[0].kind, SectionItem::Kind::Label);
  EXPECT_EQ(section->text(entries[1].directive), ".b8");
  EXPECT_EQ(entries[1].value, 119u);
  EXPECT_TRUE(entries[2].continuation);
  EXPECT_EQ(section->text(entries[7].symbol), "$L__tmp3");
  EXPECT_EQ(section->text(entries[8].symbol), ".debug_str");
  EXPECT_EQ(entries[8].value, 2u);
}

TEST_F(WildPtxTest, RoundTripIsStructurallyEqual) {
  for (bool preserveLines : {true, false}) {
    std::string emitted = emitPtx(*module_, EmitOptions{preserveLines});
    auto reparsed = parseOrFail(emitted, "emitted.ptx");
    ASSERT_NE(reparsed, nullptr);
    EXPECT_TRUE(reparsed->equals(*module_)) << "preserveLines=" << preserveLines;
    // Emission is a fixed point.
    EXPECT_EQ(emitPtx(*reparsed, EmitOptions{preserveLines}), emitted);
  }
}

TEST_F(WildPtxTest, PreservedLinesPutEveryInstructionOnItsSourceLine) {
  std::string emitted = emitPtx(*module_);
  std::vector<std::string_view> lines;
  for (size_t start = 0; start <= emitted.size();) {
    size_t end = emitted.find('\n', start);
    if (end == std::string::npos)
      end = emitted.size();
    lines.emplace_back(emitted.data() + start, end - start);
    start = end + 1;
  }
  size_t checked = 0;
  for (const Function* f : module_->functions())
    for (const auto& block : f->blocks())
      block->forEachInstruction([&](const Instruction& inst) {
        ASSERT_LE(inst.line(), lines.size());
        std::string_view line = lines[inst.line() - 1];
        EXPECT_NE(line.find(inst.form().spelling()), std::string_view::npos)
            << "line " << inst.line() << ": '" << line << "'";
        ++checked;
      });
  EXPECT_GT(checked, 100u);
}

} // namespace
} // namespace ocelot::test
