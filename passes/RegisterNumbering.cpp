#include "passes/RegisterNumbering.h"

#include "ir/RegisterAccess.h"

#include <algorithm>

namespace ocelot::passes {

AnalysisKey RegisterNumberingAnalysis::Key;

RegisterNumbering::RegisterNumbering(const ir::Function& function) : function_(&function) {
  const auto& declarators = function.registerDeclarators();
  offsets_.resize(declarators.size());
  counts_.resize(declarators.size());
  uint64_t total = 0;
  for (size_t d = 0; d < declarators.size(); ++d) {
    counts_[d] = declarators[d].parameterized ? declarators[d].count : 1;
    offsets_[d] = static_cast<uint32_t>(std::min<uint64_t>(total, UINT32_MAX));
    total += counts_[d];
  }
  if (total <= kDirectLimit) {
    size_ = static_cast<uint32_t>(total);
    return;
  }
  compacted_ = true;
  for (const auto& block : function.blocks())
    block->forEachInstruction([&](const ir::Instruction& inst) {
      ir::forEachRegisterAccess(inst, [&](const ir::RegisterRef& ref, const ir::RegisterAccess&) {
        if (ref.declarator >= counts_.size() || ref.index >= counts_[ref.declarator])
          return;
        auto [it, inserted] = compact_.emplace(key(ref), size_);
        if (inserted) {
          compactRefs_.push_back(ref);
          ++size_;
        }
      });
    });
}

ir::RegisterRef RegisterNumbering::ref(uint32_t id) const {
  if (compacted_)
    return compactRefs_[id];
  // The last declarator whose range starts at or before `id` (empty ranges share offsets).
  auto it = std::upper_bound(offsets_.begin(), offsets_.end(), id);
  size_t d = static_cast<size_t>(it - offsets_.begin()) - 1;
  while (counts_[d] == 0 || id - offsets_[d] >= counts_[d])
    --d;
  return ir::RegisterRef{static_cast<uint32_t>(d), id - offsets_[d]};
}

unsigned RegisterNumbering::units(uint32_t id) const {
  const auto& d = function_->declaratorOf(ref(id));
  if (d.type == ir::ScalarType::Pred)
    return 0;
  unsigned bits = d.type ? ir::scalarTypeBits(*d.type) : 32;
  return std::max(1u, bits / 32) * std::max(1u, d.vectorWidth);
}

bool RegisterNumbering::isPredicate(uint32_t id) const {
  return function_->declaratorOf(ref(id)).type == ir::ScalarType::Pred;
}

} // namespace ocelot::passes
