// Registers and predicates: SSA values under lane masks, and their copies in the warp state.

#include "runtime/cpu/llvm/Translator.h"

namespace ocelot::runtime::cpu::native::translation {

llvm::Value* Translator::readRowAtOwnWidth(uint32_t row) {
  if (isRegister(row))
    return readRow(row, rowBits(row));
  return readRow(row, 64);
}

llvm::Value* Translator::readRow(uint32_t row, unsigned bits) {
  const Row& info = plan_.rows[row];
  switch (info.kind) {
  case RowKind::Constant: {
    const uint64_t value = bits >= 64 ? info.value : info.value & ((uint64_t{1} << bits) - 1);
    return splatInt(bits, value);
  }
  case RowKind::Uniform: {
    auto* load = b_.CreateLoad(b_.getInt64Ty(), rowPointer(row));
    markInvariant(load);
    llvm::Value* value = load;
    if (bits < 64)
      value = b_.CreateTrunc(value, laneType(bits));
    return splat(value);
  }
  case RowKind::Lanes: {
    auto* load = b_.CreateAlignedLoad(intVector(64), rowPointer(row), llvm::Align(8));
    markInvariant(load);
    return bits < 64 ? b_.CreateTrunc(load, intVector(bits)) : static_cast<llvm::Value*>(load);
  }
  case RowKind::Register:
    break;
  }
  llvm::AllocaInst* slot = rowSlots_[row];
  llvm::Value* value = b_.CreateLoad(slot->getAllocatedType(), slot);
  const unsigned width = rowBits(row);
  if (bits < width)
    value = b_.CreateTrunc(value, intVector(bits));
  else if (bits > width)
    value = b_.CreateZExt(value, intVector(bits));
  return value;
}

void Translator::writeRow(uint32_t row, llvm::Value* value, ValueType type, llvm::Value* mask) {
  llvm::AllocaInst* slot = rowSlots_[row];
  const unsigned width = rowBits(row);
  const unsigned bits = type.bits;
  if (bits < width)
    value = type.kind == Kind::Signed ? b_.CreateSExt(value, intVector(width))
                                      : b_.CreateZExt(value, intVector(width));
  else if (bits > width)
    value = b_.CreateTrunc(value, intVector(width));
  writeSlot(slot, rowDefined_[row], value, mask,
            guardedWrite_ || (ssaPops_ && pushLive_.rows.test(row)));
}

/// A register write under `mask` (null: every lane). A guarded instruction keeps the other
/// current lanes' values (`preserve`), and so do registers lanes parked by divergence read when
/// their entry is popped in registers (ssaPops_). Otherwise an unguarded write in a masked block
/// leaves nothing for the lanes outside the block's mask: those lanes wait in other SIMT entries,
/// with their registers in memory (see the stores at pushes and pops), and `defined` keeps their
/// memory from being overwritten. So the old value is not read, which keeps registers from living
/// longer than the program uses them.
void Translator::writeSlot(llvm::AllocaInst* slot, llvm::AllocaInst* defined, llvm::Value* value,
                           llvm::Value* mask, bool preserve) {
  if (mask == nullptr) {
    b_.CreateStore(value, slot);
    if (defined != nullptr)
      b_.CreateStore(b_.getInt32(kAllLanes), defined);
    return;
  }
  llvm::Value* lanes = b_.CreateBitCast(mask, b_.getInt32Ty());
  if (preserve) {
    value = b_.CreateSelect(mask, value, b_.CreateLoad(slot->getAllocatedType(), slot));
    if (defined != nullptr)
      b_.CreateStore(b_.CreateOr(b_.CreateLoad(b_.getInt32Ty(), defined), lanes), defined);
  } else {
    value = b_.CreateSelect(mask, value, llvm::Constant::getNullValue(value->getType()));
    if (defined != nullptr)
      b_.CreateStore(lanes, defined);
  }
  b_.CreateStore(value, slot);
}

void Translator::define(llvm::AllocaInst* defined, llvm::Value* mask) {
  if (defined == nullptr)
    return;
  if (mask == nullptr) {
    b_.CreateStore(b_.getInt32(kAllLanes), defined);
    return;
  }
  llvm::Value* lanes = b_.CreateBitCast(mask, b_.getInt32Ty());
  b_.CreateStore(b_.CreateOr(b_.CreateLoad(b_.getInt32Ty(), defined), lanes), defined);
}

llvm::Value* Translator::readPredicate(uint32_t p) {
  if (p == plan_.truePredicate)
    return allTrue();
  if (p == plan_.falsePredicate || p >= plan_.predicateCount)
    return llvm::Constant::getNullValue(maskType());
  llvm::AllocaInst* slot = predicateSlots_[p];
  return b_.CreateLoad(maskType(), slot);
}

void Translator::writePredicate(uint32_t p, llvm::Value* value, llvm::Value* mask) {
  if (!isPredicateVariable(p))
    return;
  writeSlot(predicateSlots_[p], predicateDefined_[p], value, mask,
            guardedWrite_ || (ssaPops_ && pushLive_.predicates.test(p)));
}

void Translator::loadRowFromMemory(uint32_t row) {
  llvm::Value* value = b_.CreateAlignedLoad(intVector(64), rowPointer(row), llvm::Align(8));
  if (rowBits(row) < 64)
    value = b_.CreateTrunc(value, intVector(rowBits(row)));
  b_.CreateStore(value, rowSlots_[row]);
  define(rowDefined_[row], nullptr);
}

void Translator::storeRowToMemory(uint32_t row) {
  llvm::AllocaInst* slot = rowSlots_[row];
  llvm::Value* value = b_.CreateLoad(slot->getAllocatedType(), slot);
  if (rowBits(row) < 64)
    value = b_.CreateZExt(value, intVector(64));
  llvm::Value* lanes = b_.CreateLoad(b_.getInt32Ty(), rowDefined_[row]);
  b_.CreateMaskedStore(value, rowPointer(row), llvm::Align(8), b_.CreateBitCast(lanes, maskType()));
}

void Translator::loadPredicateFromMemory(uint32_t p) {
  llvm::Value* bits = b_.CreateLoad(b_.getInt32Ty(), predicatePointer(p));
  b_.CreateStore(b_.CreateBitCast(bits, maskType()), predicateSlots_[p]);
  define(predicateDefined_[p], nullptr);
}

void Translator::storePredicateToMemory(uint32_t p) {
  llvm::Value* value =
      b_.CreateBitCast(b_.CreateLoad(maskType(), predicateSlots_[p]), b_.getInt32Ty());
  llvm::Value* lanes = b_.CreateLoad(b_.getInt32Ty(), predicateDefined_[p]);
  llvm::Value* pointer = predicatePointer(p);
  llvm::Value* old = b_.CreateLoad(b_.getInt32Ty(), pointer);
  b_.CreateStore(b_.CreateOr(b_.CreateAnd(old, b_.CreateNot(lanes)), b_.CreateAnd(value, lanes)),
                 pointer);
}

void Translator::storeVariables(const VarSet& set) {
  set.rows.forEach([&](size_t row) {
    if (written_.rows.test(row))
      storeRowToMemory(static_cast<uint32_t>(row));
  });
  set.predicates.forEach([&](size_t p) {
    if (written_.predicates.test(p))
      storePredicateToMemory(static_cast<uint32_t>(p));
  });
}

} // namespace ocelot::runtime::cpu::native::translation
