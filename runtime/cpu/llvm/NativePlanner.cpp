#include "runtime/cpu/llvm/NativePlanner.h"

#include "runtime/cpu/DeviceMemory.h"
#include "runtime/cpu/NativeCode.h"
#include "runtime/cpu/SupportHandlers.h"
#include "runtime/cpu/llvm/ConstantRegisters.h"
#include "runtime/cpu/llvm/InstructionPlanner.h"

#include <algorithm>
#include <cstddef>
#include <memory>

namespace ocelot::runtime::cpu::native {

bool RunTimeRanges::contains(uint64_t value) const {
  return value - arenaBase < arenaSize || value - sharedWindow < windowSize ||
         value - localWindow < windowSize;
}

RunTimeRanges RunTimeRanges::of(const DeviceMemory& memory) {
  RunTimeRanges ranges;
  ranges.arenaBase = memory.arenaBase();
  ranges.arenaSize = memory.arenaSize();
  ranges.sharedWindow = memory.sharedWindow();
  ranges.localWindow = memory.localWindow();
  ranges.windowSize = DeviceMemory::kWindowSize;
  return ranges;
}

namespace {

Instruction planInstruction(const DecodedKernel& k, uint32_t pc, const RunTimeRanges& ranges,
                            const Plan& plan, const ConstantRegisters* constants) {
  const DecodedInstruction& in = k.code[pc];
  Instruction out;
  out.guard = in.guard;
  out.guardNegated = in.guardNegated;
  out.target = in.target;
  out.reconverge = in.reconverge;
  out.imm = in.imm;
  for (size_t i = 0; i < in.op.size(); ++i)
    out.operands[i] = in.op[i];
  switch (in.control) {
  case Control::None:
    break;
  case Control::FallThrough:
    out.op = Op::Nop;
    out.control = ControlKind::FallThrough;
    return out;
  case Control::Branch:
    out.op = Op::Branch;
    out.control = ControlKind::Branch;
    return out;
  case Control::Exit:
    out.op = Op::Exit;
    out.control = ControlKind::Exit;
    return out;
  case Control::Return:
    // The kernel's own `ret` (function 0: no call frame can be open there) ends its lanes as
    // `exit` does (the interpreter's Control::Return with no calls), so native code ends the warp
    // itself. Device functions' returns stay the interpreter's.
    if (pc < k.sources.size() && k.sources[pc].function == 0) {
      out.op = Op::Exit;
      out.control = ControlKind::Exit;
      return out;
    }
    [[fallthrough]];
  default: {
    out.op = Op::Interpret;
    out.control = static_cast<ControlKind>(in.control);
    auto useRow = [&](uint32_t row) {
      if (row != kNone)
        out.rowUses.push_back(row);
    };
    switch (in.control) {
    case Control::Call: {
      const CallSite& site = k.callSites[in.aux];
      for (const CallValue& value : site.arguments)
        useRow(value.row);
      useRow(site.targetRow);
      break;
    }
    case Control::Return: {
      const DecodedFunction& function = k.functions[k.sources[pc].function];
      for (uint32_t row : function.returnRows)
        useRow(row);
      break;
    }
    case Control::Barrier:
      useRow(in.op[0]);
      useRow(in.op[1]);
      if ((in.aux & kBarrierReduce) && in.op[3] != kNone)
        out.predicateUses.push_back(in.op[3]);
      // bar.sync / barrier.sync of a constant barrier without a thread count: native code
      // arrives itself (the interpreter keeps the others, and a warp that arrives divided).
      if ((in.aux & kBarrierWait) && !(in.aux & kBarrierReduce) && in.op[1] == kNone &&
          in.op[0] < plan.rows.size() && plan.rows[in.op[0]].kind == RowKind::Constant &&
          plan.rows[in.op[0]].value < 16) {
        out.op = Op::Barrier;
        out.imm = static_cast<int64_t>(plan.rows[in.op[0]].value);
        out.flags = (in.aux & kBarrierAligned) ? kAligned : 0u;
      }
      break;
    case Control::IndexedBranch:
      useRow(in.op[0]);
      out.targets = k.branchTables[in.aux].targets;
      break;
    default:
      break;
    }
    return out;
  }
  }
  out.op = Op::Handler;
  if (in.execute == &executeNop) {
    out.op = Op::Nop;
    return out;
  }
  if (in.execute == &executeFrameAddress) {
    out.op = Op::FrameAddress;
    out.d[0] = in.op[0];
    out.immRuntime = ranges.contains(static_cast<uint64_t>(in.imm));
    return out;
  }
  if (in.execute == &executeNotPredicate) {
    out.op = Op::PredNot;
    out.d[0] = in.op[0];
    out.s[0] = in.op[1];
    return out;
  }
  const ir::Instruction* instruction = k.sources[pc].instruction;
  if (in.synthetic || instruction == nullptr)
    return out;
  // What the handler touches, from what the decoder resolved its operands as: operands only
  // written are not read (the default for anything unrecorded is read, as row and predicate).
  if (pc < k.accesses.size()) {
    const RegisterAccesses& accesses = k.accesses[pc];
    auto writtenOnly = [](const std::vector<uint32_t>& writes, const std::vector<uint32_t>& reads,
                          uint32_t value) {
      return std::find(writes.begin(), writes.end(), value) != writes.end() &&
             std::find(reads.begin(), reads.end(), value) == reads.end();
    };
    for (uint32_t operand : in.op) {
      if (operand == kNone)
        continue;
      if (!writtenOnly(accesses.writes, accesses.reads, operand))
        out.rowUses.push_back(operand);
      if (!writtenOnly(accesses.predicateWrites, accesses.predicateReads, operand))
        out.predicateUses.push_back(operand);
    }
    // Registers the handler reads that are not among its operands (the fragments of mma and
    // wmma, which the decoder keeps beside the instruction).
    auto addUses = [](std::vector<uint32_t>& uses, const std::vector<uint32_t>& reads) {
      for (uint32_t read : reads)
        if (std::find(uses.begin(), uses.end(), read) == uses.end())
          uses.push_back(read);
    };
    addUses(out.rowUses, accesses.reads);
    addUses(out.predicateUses, accesses.predicateReads);
    out.rowDefs = accesses.writes;
    out.predicateDefs = accesses.predicateWrites;
    out.knownDefs = true;
  }
  Instruction native = out;
  native.rowUses.clear();
  native.predicateUses.clear();
  native.rowDefs.clear();
  native.predicateDefs.clear();
  native.knownDefs = false;
  if (planNativeOperation(k, ranges, plan, in, *instruction, constants, native))
    return native;
  return out;
}

RowKind specialKind(SpecialRegister kind) {
  using S = SpecialRegister;
  switch (kind) {
  case S::TidX:
  case S::TidY:
  case S::TidZ:
  case S::LaneId:
  case S::LaneMaskEq:
  case S::LaneMaskLt:
  case S::LaneMaskLe:
  case S::LaneMaskGt:
  case S::LaneMaskGe:
    return RowKind::Lanes;
  default:
    return RowKind::Uniform;
  }
}

} // namespace

Plan makePlan(const DecodedKernel& k, const RunTimeRanges& ranges) {
  Plan plan;
  plan.name = k.name;
  plan.layout.instructionSize = sizeof(DecodedInstruction);
  plan.layout.executeOffset = offsetof(DecodedInstruction, execute);
  plan.layout.immOffset = offsetof(DecodedInstruction, imm);
  plan.layout.stateSize = sizeof(NativeWarpState);
  plan.layout.stackCapacity = kNativeStackCapacity;
  plan.layout.windowSize = DeviceMemory::kWindowSize;
  plan.predicateCount = k.predicateCount;
  plan.truePredicate = k.truePredicate;
  plan.falsePredicate = k.falsePredicate;
  plan.rows.resize(k.rowCount);
  for (uint32_t row = 0; row < k.rowCount; ++row)
    plan.rows[row].bytes = row < k.rowBytes.size() ? k.rowBytes[row] : 8;
  for (const ConstantRow& constant : k.constants) {
    Row& row = plan.rows[constant.row];
    row.bytes = 8;
    if (constant.kind == ConstantRow::Kind::Value && !ranges.contains(constant.value)) {
      row.kind = RowKind::Constant;
      row.value = constant.value;
    } else {
      row.kind = RowKind::Uniform;
    }
  }
  for (const SpecialRow& special : k.specials) {
    plan.rows[special.row].kind = specialKind(special.kind);
    plan.rows[special.row].bytes = 8;
  }
  plan.code.reserve(k.code.size());
  std::vector<std::unique_ptr<ConstantRegisters>> constants(k.functions.size());
  for (size_t f = 0; f < k.functions.size(); ++f)
    if (k.functions[f].ir != nullptr)
      constants[f] = std::make_unique<ConstantRegisters>(*k.functions[f].ir);
  for (uint32_t pc = 0; pc < k.code.size(); ++pc) {
    const uint32_t function = k.sources[pc].function;
    plan.code.push_back(planInstruction(
        k, pc, ranges, plan, function < constants.size() ? constants[function].get() : nullptr));
  }
  // Native blocks start at the program's blocks and after every instruction native code leaves to
  // the interpreter (where the interpreter hands the warp back).
  for (uint32_t pc = 0; pc < plan.code.size(); ++pc) {
    Instruction& instruction = plan.code[pc];
    // (Native barriers and exits resume at the next pc too.)
    instruction.leader =
        k.code[pc].block != kNone || pc == 0 ||
        (pc > 0 && (plan.code[pc - 1].op == Op::Interpret || plan.code[pc - 1].op == Op::Barrier ||
                    plan.code[pc - 1].op == Op::Exit));
  }
  for (const DecodedFunction& function : k.functions)
    if (function.entryPc < plan.code.size())
      plan.code[function.entryPc].leader = true;
  return plan;
}

bool onlyNativeReads(const Plan& plan, const std::vector<uint32_t>& rows) {
  auto listed = [&](uint32_t row) {
    return std::find(rows.begin(), rows.end(), row) != rows.end();
  };
  for (const Instruction& in : plan.code) {
    // Handlers (including the slow paths of native memory accesses and shuffles) and the
    // interpreter read whole rows.
    const bool wholeRows = in.op == Op::Handler || in.op == Op::Interpret || in.op == Op::Load ||
                           in.op == Op::Store || in.op == Op::Atomic || in.op == Op::Shuffle;
    if (!wholeRows)
      continue;
    for (uint32_t operand : in.operands)
      if (operand != kNoRow && listed(operand))
        return false;
    for (uint32_t row : in.rowUses)
      if (listed(row))
        return false;
  }
  return true;
}

PlanStatistics statistics(const Plan& plan) {
  PlanStatistics result;
  for (const Instruction& instruction : plan.code) {
    if (instruction.op == Op::Interpret)
      ++result.interpreted;
    else if (instruction.op == Op::Handler)
      ++result.handlers;
    else
      ++result.native;
  }
  return result;
}

} // namespace ocelot::runtime::cpu::native
