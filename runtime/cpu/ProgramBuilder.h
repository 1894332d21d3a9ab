#pragma once

#include "runtime/cpu/DecodedKernel.h"

#include <cstdint>
#include <map>
#include <unordered_map>

namespace ocelot::runtime::cpu {

/// Builds a DecodedKernel's instruction array and register file. Registers of one function get
/// consecutive rows (so that recursion can spill exactly a function's rows); constants, special
/// registers and the decoder's scratch rows are shared by all functions and placed after the last
/// function's rows when the program is finished. Until then they carry provisional numbers.
class ProgramBuilder {
public:
  /// Predicate indices fixed for every program.
  static constexpr uint32_t kFalsePredicate = 0;
  static constexpr uint32_t kTruePredicate = 1;
  static constexpr uint32_t kSinkPredicate = 2;
  static constexpr uint32_t kScratchPredicates = 3; ///< first of kScratchCount scratch predicates
  static constexpr uint32_t kScratchCount = 8;

  explicit ProgramBuilder(DecodedKernel& kernel);

  DecodedKernel& kernel() { return kernel_; }

  // --- Registers of the function being decoded -----------------------------------------------
  void beginFunction(uint32_t function);
  void endFunction(uint32_t function);
  /// `count` rows for a register (or vector register) whose elements are `bytes` wide.
  uint32_t newRegisterRows(uint32_t count, uint8_t bytes = 8);
  uint32_t newPredicate();

  // --- Shared rows -----------------------------------------------------------------------------
  uint32_t constantRow(uint64_t value);
  uint32_t zeroRow() { return constantRow(0); }
  /// A row holding the launch's parameter buffer address plus `offset`.
  uint32_t parameterRow(uint64_t offset);
  uint32_t specialRow(SpecialRegister kind);
  /// Rows and predicates the decoder may use within one PTX instruction (values computed by
  /// decoder-made instructions just before it). Reset by beginInstruction().
  uint32_t scratchRow();
  uint32_t scratchPredicate();
  uint32_t sinkRow();
  void beginInstruction();

  // --- Code ----------------------------------------------------------------------------------
  uint32_t nextPc() const { return static_cast<uint32_t>(kernel_.code.size()); }
  uint32_t emit(const DecodedInstruction& instruction, const InstructionSource& source);

  /// Places the shared rows after the function rows and rewrites every reference to them.
  void finish();

  static bool isProvisional(uint32_t row) { return row != kNone && (row & kSharedFlag) != 0; }

private:
  static constexpr uint32_t kSharedFlag = 0x40000000u;
  uint32_t newSharedRow() { return kSharedFlag | sharedRows_++; }

  DecodedKernel& kernel_;
  uint32_t functionRows_ = 0;
  std::vector<uint8_t> rowBytes_; ///< of the function rows
  uint32_t sharedRows_ = 0;
  uint32_t predicates_ = kScratchPredicates + kScratchCount;
  std::unordered_map<uint64_t, uint32_t> constants_;
  std::unordered_map<uint64_t, uint32_t> parameterRows_;
  std::map<SpecialRegister, uint32_t> specials_;
  std::vector<uint32_t> scratch_;
  uint32_t scratchUsed_ = 0;
  uint32_t scratchPredicatesUsed_ = 0;
  uint32_t sink_ = kNone;
};

} // namespace ocelot::runtime::cpu
