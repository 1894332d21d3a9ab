#include "runtime/cpu/ProgramBuilder.h"

namespace ocelot::runtime::cpu {

ProgramBuilder::ProgramBuilder(DecodedKernel& kernel) : kernel_(kernel) {
  kernel_.truePredicate = kTruePredicate;
  kernel_.falsePredicate = kFalsePredicate;
}

void ProgramBuilder::beginFunction(uint32_t function) {
  kernel_.functions[function].rowBegin = functionRows_;
  kernel_.functions[function].predBegin = predicates_;
}

void ProgramBuilder::endFunction(uint32_t function) {
  kernel_.functions[function].rowEnd = functionRows_;
  kernel_.functions[function].predEnd = predicates_;
}

uint32_t ProgramBuilder::newRegisterRows(uint32_t count, uint8_t bytes) {
  const uint32_t first = functionRows_;
  functionRows_ += count;
  rowBytes_.resize(functionRows_, bytes);
  return first;
}

uint32_t ProgramBuilder::newPredicate() {
  return predicates_++;
}

uint32_t ProgramBuilder::constantRow(uint64_t value) {
  auto [it, inserted] = constants_.try_emplace(value, 0);
  if (inserted) {
    it->second = newSharedRow();
    kernel_.constants.push_back({it->second, ConstantRow::Kind::Value, value});
  }
  return it->second;
}

uint32_t ProgramBuilder::parameterRow(uint64_t offset) {
  auto [it, inserted] = parameterRows_.try_emplace(offset, 0);
  if (inserted) {
    it->second = newSharedRow();
    kernel_.constants.push_back({it->second, ConstantRow::Kind::ParameterBase, offset});
  }
  return it->second;
}

uint32_t ProgramBuilder::specialRow(SpecialRegister kind) {
  auto [it, inserted] = specials_.try_emplace(kind, 0);
  if (inserted) {
    it->second = newSharedRow();
    kernel_.specials.push_back({it->second, kind});
  }
  return it->second;
}

uint32_t ProgramBuilder::scratchRow() {
  if (scratchUsed_ == scratch_.size())
    scratch_.push_back(newSharedRow());
  return scratch_[scratchUsed_++];
}

uint32_t ProgramBuilder::scratchPredicate() {
  // Beyond the fixed pool, fresh predicates (an instruction needing more is exotic).
  if (scratchPredicatesUsed_ < kScratchCount)
    return kScratchPredicates + scratchPredicatesUsed_++;
  return predicates_++;
}

uint32_t ProgramBuilder::sinkRow() {
  if (sink_ == kNone)
    sink_ = newSharedRow();
  return sink_;
}

void ProgramBuilder::beginInstruction() {
  scratchUsed_ = 0;
  scratchPredicatesUsed_ = 0;
}

uint32_t ProgramBuilder::emit(const DecodedInstruction& instruction,
                              const InstructionSource& source) {
  kernel_.code.push_back(instruction);
  kernel_.sources.push_back(source);
  return static_cast<uint32_t>(kernel_.code.size() - 1);
}

void ProgramBuilder::finish() {
  const uint32_t base = functionRows_;
  auto fix = [&](uint32_t& row) {
    if (isProvisional(row))
      row = base + (row & ~kSharedFlag);
  };
  for (DecodedInstruction& instruction : kernel_.code)
    for (uint32_t& row : instruction.op)
      fix(row);
  for (CallSite& site : kernel_.callSites) {
    fix(site.targetRow);
    for (CallValue& value : site.arguments)
      fix(value.row);
    for (CallValue& value : site.results)
      fix(value.row);
  }
  for (MatrixOperands& operands : kernel_.matrixOperands)
    for (auto& fragment : operands.fragments)
      for (uint32_t& row : fragment)
        fix(row);
  for (ConstantRow& constant : kernel_.constants)
    fix(constant.row);
  for (SpecialRow& special : kernel_.specials)
    fix(special.row);
  kernel_.rowCount = base + sharedRows_;
  kernel_.rowBytes = rowBytes_;
  kernel_.rowBytes.resize(kernel_.rowCount, 8);
  kernel_.predicateCount = predicates_;
}

} // namespace ocelot::runtime::cpu
