#pragma once

#include "passes/SsaRenaming.h"

#include <memory>
#include <vector>

namespace ocelot::passes {

/// Where a register gets its value: an instruction, or (instruction == nullptr) the function's
/// entry: a parameter, or an undefined value.
struct DefinitionSite {
  const ir::Instruction* instruction = nullptr;
  ir::RegisterRef reg;
  friend bool operator==(const DefinitionSite&, const DefinitionSite&) = default;
};

/// Where a register's value is read.
struct UseSite {
  const ir::Instruction* instruction = nullptr;
  ir::RegisterRef reg;
  friend bool operator==(const UseSite&, const UseSite&) = default;
};

/// Def-use and use-def chains for every register: which writes a read may see, and which reads a
/// write may reach. A write that does not kill (guarded, partial, unknown opcode) reaches on
/// together with the writes before it. Built from the SSA renaming: a read sees the definitions
/// its SSA value stands for, following φs and non-killing writes. Reads in unreachable blocks have
/// no chains.
class DefUseChains {
public:
  explicit DefUseChains(std::unique_ptr<SsaRenaming> renaming);

  /// The definitions a read of `reg` by `instruction` may see (empty when it does not read it).
  std::vector<DefinitionSite> reachingDefinitions(const ir::Instruction& instruction,
                                                  ir::RegisterRef reg) const;
  /// The reads that a write of `reg` by `instruction` may reach (empty when it does not write it).
  std::vector<UseSite> uses(const ir::Instruction& instruction, ir::RegisterRef reg) const;
  /// The reads of the value `reg` holds on entry (parameters, or undefined values).
  std::vector<UseSite> usesOfEntryValue(ir::RegisterRef reg) const;

  const SsaRenaming& renaming() const { return *renaming_; }

private:
  using ValueId = SsaRenaming::ValueId;
  /// The Definition and Entry values a value stands for.
  const std::vector<ValueId>& reaching(ValueId value) const { return reach_[component_[value]]; }
  std::vector<UseSite> usesOf(ValueId definition) const;

  std::unique_ptr<SsaRenaming> renaming_;
  std::vector<uint32_t> component_;         ///< value -> strongly connected component
  std::vector<std::vector<ValueId>> reach_; ///< per component, sorted
  std::vector<uint32_t> useStart_;          ///< per value: its uses in useList_
  std::vector<std::pair<uint32_t, ir::RegisterRef>> useList_; ///< (instruction, register)
};

struct DefUseAnalysis {
  static AnalysisKey Key;
  static constexpr std::string_view Name = "def-use chains";
  using Result = DefUseChains;
  Result run(ir::Function& function, AnalysisManager& am);
};

} // namespace ocelot::passes
