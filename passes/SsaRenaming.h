#pragma once

#include "passes/DominanceFrontier.h"
#include "passes/Liveness.h"

#include <functional>
#include <span>
#include <unordered_map>
#include <vector>

namespace ocelot::passes {

/// The static single assignment form of a function, computed beside it without changing it
/// (Cytron, Ferrante, Rosen, Wegman and Zadeck, 1991): φ-functions are placed on the iterated
/// dominance frontier of each register's definitions, pruned to where the register is live, and a
/// walk over the dominator tree names every value. Def-use chains read the result; toSsa() turns
/// it into renamed registers.
///
/// A write that does not kill (`@%p mov %r1, 0`, `%v.x`, an unknown opcode) makes a new value that
/// merges with the previous one: `previous` names it, so a guarded definition is a definition and
/// a use of the old value. Instructions in unreachable blocks get no values.
class SsaRenaming {
public:
  using Node = ControlFlowGraph::Node;
  using ValueId = uint32_t;
  static constexpr ValueId kNoValue = UINT32_MAX;

  enum class ValueKind : uint8_t {
    Entry,      ///< the register's value when the function starts (a parameter, or undefined)
    Definition, ///< written by an instruction
    Phi,        ///< merged at the start of a block
  };
  struct Value {
    ValueKind kind;
    uint32_t variable;    ///< RegisterNumbering id
    Node node;            ///< block of the definition or φ (entry for Entry)
    uint32_t instruction; ///< Definition: index into instructions()
    ValueId previous;     ///< Definition that does not kill: the value it merges with
  };
  struct Phi {
    uint32_t variable;
    ValueId value;
    std::vector<ValueId> incoming; ///< one per cfg.predecessors(node), in that order
  };
  /// One register access of an instruction, in ir::forEachRegisterAccess order.
  struct Occurrence {
    ValueId use = kNoValue; ///< the value read (kNoValue: not read, or not renamed)
    ValueId def = kNoValue; ///< the value written
  };

  struct Options {
    /// Registers (RegisterNumbering ids) to rename; empty: all.
    std::vector<bool> variables;
    /// Where a φ may go; a register that needs a φ elsewhere is left out entirely.
    std::function<bool(Node)> canPlacePhi;
  };

  SsaRenaming(const ControlFlowGraph& cfg, const DominatorTree& dominators,
              const DominanceFrontier& frontier, const Liveness& liveness, Options options);

  const ControlFlowGraph& cfg() const { return *cfg_; }
  const RegisterNumbering& numbering() const { return *numbering_; }
  /// Whether register `id` was renamed.
  bool isRenamed(uint32_t id) const { return id < renamed_.size() && renamed_[id]; }

  /// Every instruction of the function in layout order, and where each one is.
  const std::vector<const ir::Instruction*>& instructions() const { return instructions_; }
  Node nodeOf(uint32_t instruction) const { return instructionNode_[instruction]; }
  /// Index of `instruction` in instructions(), or UINT32_MAX.
  uint32_t indexOf(const ir::Instruction& instruction) const;
  std::span<const Occurrence> occurrences(uint32_t instruction) const {
    return {occurrences_.data() + occurrenceStart_[instruction],
            occurrences_.data() + occurrenceStart_[instruction + 1]};
  }

  std::span<const Phi> phis(Node node) const {
    return {phis_.data() + phiStart_[node], phis_.data() + phiStart_[node + 1]};
  }
  size_t phiCount() const { return phis_.size(); }
  const Value& value(ValueId id) const { return values_[id]; }
  size_t valueCount() const { return values_.size(); }

private:
  void placePhis(const DominanceFrontier& frontier, const Liveness& liveness,
                 const std::function<bool(Node)>& canPlacePhi);
  void rename(const DominatorTree& dominators);

  const ControlFlowGraph* cfg_;
  const RegisterNumbering* numbering_;
  std::vector<bool> renamed_;
  std::vector<const ir::Instruction*> instructions_;
  std::vector<Node> instructionNode_;
  std::unordered_map<const ir::Instruction*, uint32_t> instructionIndex_;
  std::vector<uint32_t> occurrenceStart_;
  std::vector<Occurrence> occurrences_;
  std::vector<uint32_t> phiStart_;
  std::vector<Phi> phis_;
  std::vector<Value> values_;
};

} // namespace ocelot::passes
