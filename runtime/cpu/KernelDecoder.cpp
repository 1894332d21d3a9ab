#include "runtime/cpu/KernelDecoder.h"

#include "ir/BasicBlock.h"
#include "ir/Casting.h"
#include "ir/InstructionForm.h"
#include "passes/ControlFlowGraph.h"
#include "passes/DominatorTree.h"
#include "runtime/cpu/Contraction.h"
#include "runtime/cpu/DeviceMemory.h"
#include "runtime/cpu/FunctionFrame.h"
#include "runtime/cpu/ImmediateValues.h"
#include "runtime/cpu/InstructionDecoders.h"
#include "runtime/cpu/OperandDecoder.h"
#include "runtime/cpu/ProgramBuilder.h"
#include "runtime/cpu/SupportHandlers.h"

#include <deque>
#include <unordered_map>

namespace ocelot::runtime::cpu {
namespace {

/// Calls fn(symbol) for every symbol an operand names, looking into addresses and lists.
template <class Fn> void forEachSymbol(const ir::Operand& operand, Fn&& fn) {
  if (const auto* symbol = operand.getIf<ir::SymbolOperand>()) {
    fn(*symbol);
  } else if (const auto* address = operand.getIf<ir::AddressOperand>()) {
    if (const auto* base = std::get_if<ir::SymbolOperand>(&address->base))
      fn(*base);
    for (const auto& part : address->extra)
      forEachSymbol(part, fn);
  } else if (const auto* vector = operand.getIf<ir::VectorOperand>()) {
    for (const auto& element : vector->elements)
      forEachSymbol(element, fn);
  } else if (const auto* list = operand.getIf<ir::ArgumentListOperand>()) {
    for (const auto& argument : list->arguments)
      forEachSymbol(argument, fn);
  }
}

size_t callTargetIndex(const ir::Instruction& call) {
  const auto& ops = call.operands();
  return !ops.empty() && ops[0].is<ir::ArgumentListOperand>() ? 1 : 0;
}

/// Why the CPU device does not run `form` yet, or empty: its family's feature, or a `.cluster`
/// modifier (thread-block clusters) on any instruction.
std::string_view notYetSupported(const ir::InstructionForm& form) {
  if (std::string_view feature = laterFeature(form.family()); !feature.empty())
    return feature;
  if (form.hasModifier("cluster"))
    return laterFeature(ir::SemanticFamily::Cluster);
  return {};
}

class Decoder {
public:
  Decoder(CpuModule& module, const ModuleFunction& kernel)
      : module_(module), kernelFunction_(kernel), result_(std::make_shared<DecodedKernel>()),
        builder_(*result_) {
    result_->module = &module;
  }

  support::Expected<std::shared_ptr<const DecodedKernel>, ModuleError> run();

private:
  ModuleError failure(std::string message) const {
    return ModuleError{std::move(message),
                       unknownOpcode_ ? cudaErrorInvalidPtx : cudaErrorNotSupported};
  }
  uint32_t addFunction(const ModuleFunction& function);
  std::string discover();
  std::string decodeFunction(uint32_t index);
  std::string decodeInstruction(uint32_t function, OperandDecoder& operands,
                                const ir::Instruction& instruction, const InstructionSource& source,
                                uint32_t blockIndex);
  bool decodeThreadControl(uint32_t function, DecodeContext& context, bool* branch);
  bool decodeCall(uint32_t function, OperandDecoder& operands, const ir::Instruction& instruction,
                  DecodedInstruction& out, std::string* error);
  std::string where(const ir::Instruction& instruction, const ir::Function& function) const;

  CpuModule& module_;
  const ModuleFunction& kernelFunction_;
  /// The current function's add/sub instructions that run fused with their product's mul.
  std::unordered_map<const ir::Instruction*, Contraction> contractions_;
  std::shared_ptr<DecodedKernel> result_;
  ProgramBuilder builder_;
  KernelSymbols symbols_;
  SharedAllocator shared_;
  std::vector<const ModuleFunction*> functions_;
  std::vector<FunctionFrame> frames_;
  std::unordered_map<uint32_t, uint32_t> indexOfOrdinal_;
  bool indirectCalls_ = false;

  // Per function being decoded.
  struct BranchFixup {
    uint32_t pc;
    ir::LabelId label;
  };
  std::vector<BranchFixup> branchFixups_;
  std::vector<std::pair<uint32_t, uint32_t>> reconvergeFixups_; ///< (pc, IR block)
  /// An instruction no PTX ISA has: the module is invalid PTX, not merely unsupported here.
  bool unknownOpcode_ = false;
  std::vector<std::pair<uint32_t, ir::LabelId>> tableFixups_; ///< (table, label) in order
};

uint32_t Decoder::addFunction(const ModuleFunction& function) {
  auto [it, inserted] =
      indexOfOrdinal_.try_emplace(function.ordinal, static_cast<uint32_t>(functions_.size()));
  if (inserted)
    functions_.push_back(&function);
  return it->second;
}

std::string Decoder::where(const ir::Instruction& instruction, const ir::Function& function) const {
  return "`" + std::string(instruction.form().spelling()) + "` (PTX line " +
         std::to_string(instruction.line()) + ", function " + std::string(function.name()) + ")";
}

/// Finds every function the kernel may reach and lays out every function's frame and the static
/// shared memory of the program, so that the dynamic shared memory's offset is known before any
/// instruction is decoded.
std::string Decoder::discover() {
  addFunction(kernelFunction_);
  for (size_t i = 0; i < functions_.size(); ++i) {
    const ModuleFunction& function = *functions_[i];
    frames_.emplace_back();
    if (function.builtin != Builtin::None || !function.function->hasBody())
      continue;
    const ir::Function& body = *function.function;
    if (std::string error = FunctionFrame::build(body, i == 0, shared_, &frames_.back());
        !error.empty())
      return error;
  }
  std::vector<const ModuleVariable*> sharedVariables;
  for (size_t i = 0; i < functions_.size(); ++i) {
    const ModuleFunction& function = *functions_[i];
    if (function.builtin != Builtin::None || !function.function->hasBody())
      continue;
    // frames_ may grow below: copy what is needed first.
    for (const auto& block : function.function->blocks()) {
      for (const auto& statement : block->statements()) {
        const auto* instruction = ir::dyn_cast<ir::Instruction>(statement.get());
        if (instruction == nullptr)
          continue;
        if (instruction->form().opcode() == ir::Opcode::Call) {
          const size_t target = callTargetIndex(*instruction);
          if (target < instruction->operands().size() &&
              instruction->operands()[target].is<ir::RegisterOperand>())
            indirectCalls_ = true;
        }
        for (const ir::Operand& operand : instruction->operands()) {
          forEachSymbol(operand, [&](const ir::SymbolOperand& symbol) {
            if (frames_[i].find(*function.function, instruction->scope(), symbol.name))
              return;
            if (const ModuleFunction* callee = module_.findFunction(function.unit, symbol.name)) {
              const size_t before = functions_.size();
              addFunction(*callee);
              if (functions_.size() != before)
                frames_.reserve(functions_.size());
              return;
            }
            if (const ModuleVariable* variable = module_.findVariable(function.unit, symbol.name)) {
              if (variable->space == ir::StateSpace::Shared && !variable->dynamicShared &&
                  !symbols_.sharedOffsets.count(variable))
                symbols_.sharedOffsets[variable] =
                    shared_.allocate(variable->size, variable->alignment);
              if (variable->dynamicShared)
                result_->dynamicSharedAlign =
                    std::max(result_->dynamicSharedAlign, variable->alignment);
            }
          });
        }
      }
    }
    if (i + 1 == functions_.size() && indirectCalls_) {
      // An indirect call may reach any function of the module whose address can be taken.
      for (const ModuleFunction& candidate : module_.functions())
        if (!candidate.function->isEntry())
          addFunction(candidate);
      indirectCalls_ = false;
    }
    while (frames_.size() < functions_.size()) {
      const ModuleFunction& next = *functions_[frames_.size()];
      frames_.emplace_back();
      if (next.builtin == Builtin::None && next.function->hasBody())
        if (std::string error =
                FunctionFrame::build(*next.function, false, shared_, &frames_.back());
            !error.empty())
          return error;
    }
  }
  result_->staticSharedSize = shared_.size();
  symbols_.dynamicSharedOffset = result_->dynamicSharedOffset();
  return {};
}

support::Expected<std::shared_ptr<const DecodedKernel>, ModuleError> Decoder::run() {
  DecodedKernel& k = *result_;
  k.name = std::string(kernelFunction_.name);
  symbols_.module = &module_;
  symbols_.sharedWindow = module_.memory().sharedWindow();
  symbols_.localWindow = module_.memory().localWindow();
  if (std::string error = discover(); !error.empty())
    return failure("kernel " + k.name + ": " + error);

  k.functions.resize(functions_.size());
  for (size_t i = 0; i < functions_.size(); ++i) {
    k.functions[i].name = std::string(functions_[i]->name);
    k.functions[i].builtin = functions_[i]->builtin;
    k.functionAtAddress.emplace(module_.functionAddress(functions_[i]->ordinal),
                                static_cast<uint32_t>(i));
  }
  for (uint32_t i = 0; i < 64; ++i) {
    std::string_view file = module_.fileName(kernelFunction_.unit, i);
    k.sourceFiles.emplace_back(file);
  }
  for (uint32_t i = 0; i < functions_.size(); ++i) {
    std::string error = decodeFunction(i);
    if (error.empty())
      continue;
    if (i == 0 || !functions_[i]->function->isEntry()) {
      // A function only an indirect call may reach must not stop the kernel.
      bool direct = i == 0;
      for (const CallSite& site : k.callSites)
        direct = direct || site.callee == i;
      if (direct || i == 0)
        return failure("kernel " + k.name + ": " + error);
      k.functions[i].error = error;
    }
  }
  builder_.finish();
  k.accesses.resize(k.code.size());

  const ir::Function& entry = *kernelFunction_.function;
  const FunctionFrame& frame = frames_[0];
  for (const FrameSymbol& parameter : frame.parameters()) {
    k.parameterOffsets.push_back(parameter.offset);
    k.parameterSizes.push_back(parameter.size);
  }
  k.parameterBufferSize = frame.parameterBufferSize();
  k.kernelFrameSize = frame.frameSize();
  for (const char* name : {".maxntid", ".reqntid"}) {
    if (const ir::FunctionDirective* directive = entry.directive(name)) {
      uint32_t product = 1;
      for (uint64_t value : directive->values)
        product *= static_cast<uint32_t>(value);
      k.maxThreadsPerBlock = product;
    }
  }
  if (const ir::FunctionDirective* directive = entry.directive(".reqnctapercluster")) {
    for (size_t i = 0; i < 3; ++i)
      k.requiredCluster[i] =
          i < directive->values.size() ? static_cast<uint32_t>(directive->values[i]) : 1;
    k.clusterRequired = true;
  }
  if (entry.directive(".explicitcluster") != nullptr)
    k.clusterRequired = true;
  // The deepest call chain's frames, or a fixed stack for recursion (detected by a depth bound).
  std::vector<uint32_t> depth(functions_.size(), 0);
  bool changed = true;
  for (size_t round = 0; changed && round <= functions_.size(); ++round) {
    changed = false;
    for (uint32_t f = 0; f < functions_.size(); ++f) {
      uint32_t deepest = 0;
      for (uint32_t pc = k.functions[f].entryPc; pc < k.code.size(); ++pc) {
        if (k.sources[pc].function != f)
          break;
        if (k.code[pc].control != Control::Call)
          continue;
        const CallSite& site = k.callSites[k.code[pc].aux];
        if (site.callee != kNone)
          deepest = std::max(deepest, depth[site.callee]);
        else if (site.targetRow != kNone)
          for (uint32_t g = 0; g < functions_.size(); ++g)
            deepest = std::max(deepest, depth[g]);
      }
      const uint32_t value = k.functions[f].frameSize + deepest;
      if (value != depth[f]) {
        depth[f] = value;
        changed = true;
      }
    }
  }
  k.recursive = changed;
  k.staticStackSize = depth[0];
  return std::shared_ptr<const DecodedKernel>(result_);
}

std::string Decoder::decodeFunction(uint32_t index) {
  DecodedKernel& k = *result_;
  const ModuleFunction& moduleFunction = *functions_[index];
  DecodedFunction& decoded = k.functions[index];
  decoded.entryPc = builder_.nextPc();
  builder_.beginFunction(index);
  if (moduleFunction.builtin != Builtin::None || !moduleFunction.function->hasBody()) {
    builder_.endFunction(index);
    if (moduleFunction.builtin == Builtin::None)
      return "function " + decoded.name + " has no body";
    return {};
  }
  ir::Function& function = *moduleFunction.function;
  decoded.ir = &function;
  const bool isKernel = index == 0;
  const FunctionFrame& frame = frames_[index];
  decoded.frameSize = frame.frameSize();
  OperandDecoder operands(builder_, symbols_, moduleFunction.unit, function, frame, isKernel);

  passes::ControlFlowGraph cfg(function);
  passes::DominatorTree postDominators(cfg, passes::DominatorTree::Direction::Post);
  contractions_ = planContractions(function);
  std::unordered_map<ir::LabelId, uint32_t> labelBlock;
  const auto& blocks = function.blocks();
  for (uint32_t b = 0; b < blocks.size(); ++b)
    for (const auto& statement : blocks[b]->statements())
      if (const auto* label = ir::dyn_cast<ir::Label>(statement.get()))
        labelBlock[label->id()] = b;
  branchFixups_.clear();
  reconvergeFixups_.clear();
  tableFixups_.clear();
  std::vector<uint32_t> blockPc(blocks.size(), kNone);

  for (uint32_t b = 0; b < blocks.size(); ++b) {
    const uint32_t start = builder_.nextPc();
    blockPc[b] = start;
    const auto blockIndex = static_cast<uint32_t>(k.blocks.size());
    uint32_t count = 0;
    for (const auto& statement : blocks[b]->statements()) {
      if (const auto* targets = ir::dyn_cast<ir::BranchTargets>(statement.get())) {
        (void)targets; // tables are resolved where brx.idx names them
        continue;
      }
      const auto* instruction = ir::dyn_cast<ir::Instruction>(statement.get());
      if (instruction == nullptr)
        continue;
      InstructionSource source;
      source.instruction = instruction;
      source.ptxLine = instruction->line();
      source.sourceFile = instruction->sourceLoc().file;
      source.sourceLine = instruction->sourceLoc().line;
      source.function = index;
      source.text = instruction->form().spelling();
      if (std::string error = decodeInstruction(index, operands, *instruction, source, b);
          !error.empty())
        return error;
      ++count;
    }
    if (builder_.nextPc() == start) {
      DecodedInstruction nop;
      nop.execute = &executeNop;
      nop.synthetic = true;
      InstructionSource source;
      source.function = index;
      source.text = "(empty block)";
      builder_.emit(nop, source);
    }
    k.code[start].block = blockIndex;
    k.blocks.push_back(ProgramBlock{index, b, start, count});
  }
  // Falling off the end of a function returns from it.
  DecodedInstruction end;
  end.control = isKernel ? Control::Exit : Control::Return;
  end.synthetic = true;
  InstructionSource endSource;
  endSource.function = index;
  endSource.ptxLine = function.bodyEndLine();
  endSource.text = "(end of function)";
  builder_.emit(end, endSource);

  for (const BranchFixup& fixup : branchFixups_) {
    auto it = labelBlock.find(fixup.label);
    if (it == labelBlock.end())
      return "a branch in " + decoded.name + " targets an unknown label";
    k.code[fixup.pc].target = blockPc[it->second];
  }
  for (const auto& [table, label] : tableFixups_) {
    auto it = labelBlock.find(label);
    if (it == labelBlock.end())
      return "a branch table in " + decoded.name + " names an unknown label";
    k.branchTables[table].targets.push_back(blockPc[it->second]);
  }
  for (const auto& [pc, block] : reconvergeFixups_) {
    const auto node = postDominators.idom(block);
    k.code[pc].reconverge =
        node == passes::DominatorTree::kNone || cfg.isVirtual(node) ? kNone : blockPc[node];
  }
  // Formal parameters: frame offsets, or the rows of `.reg` formals.
  for (const FrameSymbol& parameter : frame.parameters()) {
    decoded.parameterOffsets.push_back(parameter.offset);
    decoded.parameterSizes.push_back(parameter.size);
    decoded.parameterRows.push_back(parameter.kind == FrameSymbol::Kind::RegisterFormal
                                        ? operands.registerRow(parameter.reg)
                                        : kNone);
  }
  for (const FrameSymbol& value : frame.returns()) {
    decoded.returnOffsets.push_back(value.offset);
    decoded.returnSizes.push_back(value.size);
    decoded.returnRows.push_back(
        value.kind == FrameSymbol::Kind::RegisterFormal ? operands.registerRow(value.reg) : kNone);
  }
  builder_.endFunction(index);
  if (!operands.ok())
    return operands.error();
  return {};
}

bool Decoder::decodeCall(uint32_t function, OperandDecoder& operands,
                         const ir::Instruction& instruction, DecodedInstruction& out,
                         std::string* error) {
  const ModuleFunction& caller = *functions_[function];
  const auto& ops = instruction.operands();
  const size_t target = callTargetIndex(instruction);
  if (target >= ops.size()) {
    *error = "call without a target";
    return false;
  }
  CallSite site;
  auto value = [&](const ir::Operand& operand, bool destination) -> std::optional<CallValue> {
    CallValue result;
    if (const auto* symbol = operand.getIf<ir::SymbolOperand>()) {
      if (const FrameSymbol* local =
              frames_[function].find(*caller.function, instruction.scope(), symbol->name)) {
        if (local->kind == FrameSymbol::Kind::Frame) {
          result.frameOffset = local->offset;
          result.size = local->size;
          return result;
        }
        if (local->kind == FrameSymbol::Kind::RegisterFormal) {
          result.row = operands.registerRow(local->reg);
          result.size = 8;
          return result;
        }
      }
    }
    if (destination) {
      result.row = operands.destination(operand);
    } else {
      result.row = operands.source(operand, ir::ScalarType::B64);
    }
    result.size = 8;
    if (result.row == kNone)
      return std::nullopt;
    return result;
  };
  if (target == 1) {
    for (const ir::Operand& operand : ops[0].as<ir::ArgumentListOperand>().arguments) {
      auto result = value(operand, true);
      if (!result) {
        *error = "unsupported call return operand";
        return false;
      }
      site.results.push_back(*result);
    }
  }
  if (const auto* symbol = ops[target].getIf<ir::SymbolOperand>()) {
    const ModuleFunction* callee = module_.findFunction(caller.unit, symbol->name);
    if (callee == nullptr) {
      *error = "call to " + std::string(symbol->name) +
               ", a function that is neither defined nor provided by the CPU device";
      return false;
    }
    site.builtin = callee->builtin;
    auto it = indexOfOrdinal_.find(callee->ordinal);
    site.callee = it == indexOfOrdinal_.end() ? kNone : it->second;
  } else if (ops[target].is<ir::RegisterOperand>()) {
    site.targetRow = operands.source(ops[target], ir::ScalarType::B64);
  } else {
    *error = "unsupported call target";
    return false;
  }
  if (target + 1 < ops.size()) {
    if (const auto* list = ops[target + 1].getIf<ir::ArgumentListOperand>()) {
      for (const ir::Operand& operand : list->arguments) {
        auto argument = value(operand, false);
        if (!argument) {
          *error = "unsupported call argument";
          return false;
        }
        site.arguments.push_back(*argument);
      }
    }
  }
  out.control = Control::Call;
  out.aux = static_cast<uint32_t>(result_->callSites.size());
  result_->callSites.push_back(std::move(site));
  return operands.ok();
}

bool Decoder::decodeThreadControl(uint32_t function, DecodeContext& c, bool* branch) {
  const ir::Instruction& instruction = c.instruction;
  DecodedInstruction& out = c.out;
  switch (c.opcode()) {
  case ir::Opcode::Bra: {
    const auto* label = instruction.operands().empty()
                            ? nullptr
                            : instruction.operands()[0].getIf<ir::LabelOperand>();
    if (label == nullptr)
      return c.fail("branch without a label");
    out.control = Control::Branch;
    branchFixups_.push_back({builder_.nextPc(), label->label});
    *branch = true;
    return true;
  }
  case ir::Opcode::Brx: {
    if (instruction.operands().size() != 2)
      return c.fail("brx.idx needs an index and a table");
    out.op[0] = c.source(0, ir::ScalarType::U32);
    const auto* table = instruction.operands()[1].getIf<ir::SymbolOperand>();
    const ir::BranchTargets* found = nullptr;
    for (const auto& block : functions_[function]->function->blocks())
      for (const auto& statement : block->statements())
        if (const auto* targets = ir::dyn_cast<ir::BranchTargets>(statement.get()))
          if (table != nullptr && targets->name() == table->name)
            found = targets;
    if (found == nullptr)
      return c.fail("brx.idx names no .branchtargets table");
    out.aux = static_cast<uint32_t>(result_->branchTables.size());
    result_->branchTables.emplace_back();
    for (const ir::Operand& target : found->targets())
      if (const auto* label = target.getIf<ir::LabelOperand>())
        tableFixups_.push_back({out.aux, label->label});
    out.control = Control::IndexedBranch;
    *branch = true;
    return true;
  }
  case ir::Opcode::Call: {
    std::string error;
    if (decodeCall(function, c.operands, instruction, out, &error))
      return true;
    if (!error.empty())
      c.fail(error);
    return false;
  }
  case ir::Opcode::Ret:
    out.control = function == 0 ? Control::Exit : Control::Return;
    return true;
  case ir::Opcode::Exit:
    out.control = Control::Exit;
    return true;
  case ir::Opcode::Trap:
  case ir::Opcode::Brkpt:
    out.control = Control::Trap;
    return true;
  case ir::Opcode::Nanosleep:
    out.control = Control::Sleep;
    return true;
  default:
    return c.fail("not supported by the CPU device");
  }
}

std::string Decoder::decodeInstruction(uint32_t function, OperandDecoder& operands,
                                       const ir::Instruction& instruction,
                                       const InstructionSource& source, uint32_t blockIndex) {
  const ir::Function& irFunction = *functions_[function]->function;
  const ir::InstructionForm& form = instruction.form();
  operands.beginInstruction(instruction, source);
  DecodedInstruction out;
  if (const auto& guard = instruction.guard()) {
    out.guard = operands.registerPredicate(guard->predicate);
    out.guardNegated = guard->negated;
  }
  out.memoryAccess = form.accessesMemory();
  DecodeContext context{instruction, form, operands, out, {}};
  bool ok = true;
  bool branch = false;
  if (form.opcode() == ir::Opcode::Unknown) {
    unknownOpcode_ = true;
    ok = context.fail("not supported by the CPU device: no PTX ISA has this instruction (ptxas "
                      "refuses it too)");
  } else if (std::string_view feature = notYetSupported(form); !feature.empty()) {
    ok = context.fail("not supported by the CPU device yet (" + std::string(feature) + ")");
  } else if (form.family() == ir::SemanticFamily::ThreadControl) {
    ok = decodeThreadControl(function, context, &branch);
  } else if (auto fused = contractions_.find(&instruction); fused != contractions_.end()) {
    ok = decodeContractedAdd(context, *fused->second.multiply, fused->second.productOperand);
  } else if (FamilyDecoder decoder = familyDecoder(form.family())) {
    ok = decoder(context);
    if (ok && out.execute == nullptr && out.control == Control::None)
      ok = context.fail("decoder produced nothing");
  } else {
    ok = context.fail("not supported by the CPU device");
  }
  if (!ok || !context.ok()) {
    std::string why = !context.error.empty() ? context.error : operands.error();
    return "instruction " + where(instruction, irFunction) + ": " + why;
  }
  if (out.control == Control::None && out.execute == nullptr)
    return "instruction " + where(instruction, irFunction) + ": no handler";
  const uint32_t pc = builder_.emit(out, source);
  result_->accesses.resize(pc + 1);
  result_->accesses[pc] = operands.accesses();
  if (branch)
    reconvergeFixups_.push_back({pc, blockIndex});
  return {};
}

} // namespace

support::Expected<std::shared_ptr<const DecodedKernel>, ModuleError>
decodeKernel(CpuModule& module, const ModuleFunction& kernel) {
  return Decoder(module, kernel).run();
}

} // namespace ocelot::runtime::cpu
