#pragma once

#include "ir/Function.h"
#include "passes/PreservedAnalyses.h"

#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ocelot::passes {

class AnalysisManager;

/// Dense numbers 0..size()-1 for the registers of a function, the index space of every dataflow
/// set. A range `%r<N>` takes N consecutive numbers, so a register's number is one addition away.
/// Functions that declare absurdly many registers (`%r<100000000>`) would make those sets huge;
/// above kDirectLimit declared registers only the registers the body mentions are numbered,
/// through a hash map.
class RegisterNumbering {
public:
  static constexpr uint32_t kNone = UINT32_MAX;
  static constexpr uint64_t kDirectLimit = uint64_t{1} << 22;

  explicit RegisterNumbering(const ir::Function& function);

  uint32_t size() const { return size_; }
  /// The number of `ref`, or kNone for a reference outside the register table.
  uint32_t id(ir::RegisterRef ref) const {
    if (ref.declarator >= offsets_.size())
      return kNone;
    const uint32_t count = counts_[ref.declarator];
    if (ref.index >= count)
      return kNone;
    if (!compacted_)
      return offsets_[ref.declarator] + ref.index;
    auto it = compact_.find(key(ref));
    return it == compact_.end() ? kNone : it->second;
  }
  ir::RegisterRef ref(uint32_t id) const;
  /// Register-file cost of register `id` in 32-bit units (a .b64 is 2, a .v4 .b32 is 4), 0 for
  /// predicates.
  unsigned units(uint32_t id) const;
  bool isPredicate(uint32_t id) const;

private:
  static uint64_t key(ir::RegisterRef ref) { return (uint64_t{ref.declarator} << 32) | ref.index; }

  const ir::Function* function_;
  uint32_t size_ = 0;
  bool compacted_ = false;
  std::vector<uint32_t> offsets_; ///< per declarator (direct numbering)
  std::vector<uint32_t> counts_;  ///< registers per declarator (1 for a named register)
  std::unordered_map<uint64_t, uint32_t> compact_;
  std::vector<ir::RegisterRef> compactRefs_;
};

struct RegisterNumberingAnalysis {
  static AnalysisKey Key;
  static constexpr std::string_view Name = "register numbering";
  using Result = RegisterNumbering;
  Result run(ir::Function& function, AnalysisManager&) { return RegisterNumbering(function); }
};

} // namespace ocelot::passes
