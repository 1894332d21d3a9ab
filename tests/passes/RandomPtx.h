#pragma once

// Random kernels for property tests, and a tiny interpreter for the instructions they use, so
// that transformations (SSA round trips) can be checked for what the program computes, not only
// for whether ptxas accepts it.

#include "ir/Casting.h"
#include "ir/Function.h"
#include "ir/InstructionForm.h"

#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace ocelot::test {

/// A kernel `k` of `blocks` labelled blocks $B0.. with random straight-line code over %r0..%r5
/// and %p0..%p3 (moves, adds, compares, selects, guarded writes, stores of registers to
/// [%rd1+4*i]) and random control flow (fall-through, bra, guarded bra, ret, guarded ret).
/// Registers are read before they are written on some paths, loops and unreachable blocks are
/// common: the awkward cases of dataflow.
inline std::string randomKernel(unsigned seed, unsigned blocks) {
  std::mt19937 rng(seed);
  auto pick = [&](unsigned n) { return static_cast<unsigned>(rng() % n); };
  auto r = [&] { return "%r" + std::to_string(pick(6)); };
  auto p = [&] { return "%p" + std::to_string(pick(4)); };
  std::string text = ".version 9.0\n.target sm_90\n.address_size 64\n"
                     ".visible .entry k(.param .u64 k_param_0)\n{\n"
                     "\t.reg .pred %p<4>;\n\t.reg .b32 %r<6>;\n\t.reg .b64 %rd<2>;\n"
                     "\tld.param.u64 %rd1, [k_param_0];\n";
  for (unsigned b = 0; b < blocks; ++b) {
    text += "$B" + std::to_string(b) + ":\n";
    unsigned count = 1 + pick(4);
    for (unsigned i = 0; i < count; ++i) {
      switch (pick(9)) {
      case 0:
        text += "\tmov.u32 " + r() + ", " + r() + ";\n";
        break;
      case 1:
        text += "\tmov.u32 " + r() + ", " + std::to_string(pick(10)) + ";\n";
        break;
      case 2:
        text += "\tadd.s32 " + r() + ", " + r() + ", " + r() + ";\n";
        break;
      case 3:
        text += "\tadd.s32 " + r() + ", " + r() + ", " + std::to_string(1 + pick(3)) + ";\n";
        break;
      case 4:
        text += "\tsetp.lt.s32 " + p() + ", " + r() + ", " + r() + ";\n";
        break;
      case 5:
        text += "\t@" + std::string(pick(2) ? "!" : "") + p() + " mov.u32 " + r() + ", " +
                std::to_string(pick(10)) + ";\n";
        break;
      case 6:
        text += "\tselp.b32 " + r() + ", " + r() + ", " + r() + ", " + p() + ";\n";
        break;
      case 7:
        text += "\tst.global.u32 [%rd1+" + std::to_string(4 * pick(4)) + "], " + r() + ";\n";
        break;
      default: {
        std::string a = r();
        text += "\t@" + p() + " add.s32 " + a + ", " + a + ", 1;\n";
        break;
      }
      }
    }
    std::string target = "$B" + std::to_string(pick(blocks));
    if (b + 1 == blocks) {
      text += pick(3) == 0 ? "\t@" + p() + " bra " + target + ";\n\tret;\n" : "\tret;\n";
      continue;
    }
    switch (pick(6)) {
    case 0:
      break; // falls through
    case 1:
      text += "\tbra.uni " + target + ";\n";
      break;
    case 2:
    case 3:
      text += "\t@" + std::string(pick(2) ? "!" : "") + p() + " bra " + target + ";\n";
      break;
    case 4:
      text += "\t@" + p() + " ret;\n";
      break;
    default:
      text += "\tret;\n";
      break;
    }
  }
  return text + "}\n";
}

/// What a run of a random kernel did: the stores in order, and whether it returned.
struct Trace {
  std::vector<std::pair<uint64_t, uint64_t>> stores; ///< (address, value)
  bool returned = false;
  std::string error; ///< an instruction the interpreter does not know
};

/// Runs a function of the random kernels' instruction subset (plus the `mov`s and branches SSA
/// destruction adds). Registers start at 0, the parameter is 0. Stops after `maxSteps`
/// instructions or `maxStores` stores.
inline Trace interpret(const ir::Function& f, size_t maxSteps = 200000, size_t maxStores = 64) {
  Trace trace;
  std::map<std::pair<uint32_t, uint32_t>, uint64_t> registers;
  auto key = [](ir::RegisterRef ref) { return std::make_pair(ref.declarator, ref.index); };
  auto value = [&](const ir::Operand& op) -> uint64_t {
    if (const auto* reg = op.getIf<ir::RegisterOperand>()) {
      uint64_t v = registers[key(reg->reg)];
      return reg->negated ? !v : v;
    }
    if (const auto* imm = op.getIf<ir::ImmediateOperand>())
      return static_cast<uint64_t>(imm->integerValue());
    return 0;
  };
  auto set = [&](const ir::Operand& op, uint64_t v) {
    if (const auto* reg = op.getIf<ir::RegisterOperand>())
      registers[key(reg->reg)] = v;
  };
  // Label -> block index.
  std::map<ir::LabelId, size_t> blockOf;
  for (size_t b = 0; b < f.blocks().size(); ++b)
    for (const auto& s : f.blocks()[b]->statements())
      if (const auto* label = ir::dyn_cast<ir::Label>(s.get()))
        blockOf[label->id()] = b;

  size_t block = 0, statement = 0, steps = 0;
  while (block < f.blocks().size() && steps < maxSteps && trace.stores.size() < maxStores) {
    const auto& statements = f.blocks()[block]->statements();
    if (statement >= statements.size()) {
      ++block;
      statement = 0;
      continue;
    }
    const auto* inst = ir::dyn_cast<ir::Instruction>(statements[statement++].get());
    if (inst == nullptr)
      continue;
    ++steps;
    if (const auto& guard = inst->guard()) {
      bool on = registers[key(guard->predicate)] != 0;
      if (on == guard->negated)
        continue;
    }
    const auto& ops = inst->operands();
    const ir::Opcode opcode = inst->form().opcode();
    if (opcode == ir::Opcode::Mov || opcode == ir::Opcode::Ld) { // ld.param of the zero parameter
      set(ops[0], opcode == ir::Opcode::Ld ? 0 : value(ops[1]));
    } else if (opcode == ir::Opcode::Add) {
      set(ops[0], static_cast<uint32_t>(value(ops[1]) + value(ops[2])));
    } else if (opcode == ir::Opcode::Setp) {
      auto a = static_cast<int32_t>(value(ops[1])), b = static_cast<int32_t>(value(ops[2]));
      set(ops[0], inst->form().hasModifier("lt") ? a < b : a != b);
    } else if (opcode == ir::Opcode::Selp) {
      set(ops[0], value(ops[3]) ? value(ops[1]) : value(ops[2]));
    } else if (opcode == ir::Opcode::St) {
      const auto& address = ops[0].as<ir::AddressOperand>();
      uint64_t base = 0;
      if (const auto* reg = std::get_if<ir::RegisterOperand>(&address.base))
        base = registers[key(reg->reg)];
      trace.stores.emplace_back(base + static_cast<uint64_t>(address.offset), value(ops[1]));
    } else if (opcode == ir::Opcode::Bra) {
      block = blockOf.at(ops[0].as<ir::LabelOperand>().label);
      statement = 0;
    } else if (opcode == ir::Opcode::Ret || opcode == ir::Opcode::Exit) {
      trace.returned = true;
      return trace;
    } else {
      trace.error = "cannot interpret " + std::string(inst->form().spelling());
      return trace;
    }
  }
  trace.returned = block >= f.blocks().size(); // fell off the end
  return trace;
}

} // namespace ocelot::test
