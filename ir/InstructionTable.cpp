#include "ir/InstructionTable.h"

#include <algorithm>
#include <array>

namespace ocelot::ir {

namespace {

using namespace operand_rules;

// Short names for the Flags column of ir/Opcodes.def.
constexpr uint32_t kRead = kMemoryRead;
constexpr uint32_t kWrite = kMemoryWrite;
constexpr uint32_t kReadWrite = kMemoryRead | kMemoryWrite;

constexpr std::array<std::string_view, kOpcodeCount> kNames = {
    "",
#define OCELOT_OPCODE(Name, spelling, Family, Definitions, Flags, Operands, example) spelling,
#include "ir/Opcodes.def"
};

constexpr size_t indexOf(Opcode opcode) {
  return static_cast<size_t>(opcode);
}

constexpr OpcodeTraits row(Opcode opcode, std::string_view qualifier, SemanticFamily family,
                           DefinitionPattern definitions, uint32_t flags, OperandRule operands) {
  constexpr uint32_t kLeavesStraightLine = kBranch | kReturn | kExit | kTrap;
  StateSpace space = StateSpace::None;
  if ((flags & kTexture) != 0)
    space = StateSpace::Tex;
  else if ((flags & (kMemoryRead | kMemoryWrite)) != 0)
    space = StateSpace::Generic;
  return OpcodeTraits{opcode,      kNames[indexOf(opcode)],
                      qualifier,   family,
                      definitions, (flags & kLeavesStraightLine) != 0 ? flags | kTerminator : flags,
                      operands,    space};
}

constexpr OpcodeTraits kRows[] = {
#define OCELOT_OPCODE(Name, spelling, Family, Definitions, Flags, Operands, example)               \
  row(Opcode::Name, "", SemanticFamily::Family, DefinitionPattern::Definitions, Flags, Operands),
#define OCELOT_VARIANT(Name, qualifier, Family, Definitions, Flags, Operands, example)             \
  row(Opcode::Name, qualifier, SemanticFamily::Family, DefinitionPattern::Definitions, Flags,      \
      Operands),
#include "ir/Opcodes.def"
};

constexpr OpcodeTraits kUnknownTraits{Opcode::Unknown,
                                      "",
                                      "",
                                      SemanticFamily::None,
                                      DefinitionPattern::Unknown,
                                      kUnknown | kSideEffects | kMemoryRead | kMemoryWrite |
                                          kAtomic | kFence,
                                      unchecked(),
                                      StateSpace::None};

/// The rows of one opcode: its general entry at `first`, then its variants.
struct RowRange {
  uint16_t first = 0;
  uint16_t count = 0;
};

constexpr std::array<RowRange, kOpcodeCount> kRanges = [] {
  std::array<RowRange, kOpcodeCount> ranges{};
  for (size_t i = 0; i < std::size(kRows); ++i) {
    RowRange& range = ranges[indexOf(kRows[i].opcode)];
    if (range.count == 0)
      range.first = static_cast<uint16_t>(i);
    ++range.count;
  }
  return ranges;
}();

/// Every opcode has one general entry, first, and its variants right after it.
constexpr bool wellFormed() {
  for (size_t op = 1; op < kOpcodeCount; ++op) {
    const RowRange range = kRanges[op];
    if (range.count == 0 || !kRows[range.first].qualifier.empty())
      return false;
    for (size_t i = range.first; i < size_t{range.first} + range.count; ++i)
      if (indexOf(kRows[i].opcode) != op || (i > range.first && kRows[i].qualifier.empty()))
        return false;
  }
  return true;
}
static_assert(wellFormed(),
              "ir/Opcodes.def: an opcode's variants must follow its OCELOT_OPCODE row");

/// The known opcodes sorted by spelling, for lookups by name.
constexpr std::array<Opcode, kOpcodeCount - 1> kByName = [] {
  std::array<Opcode, kOpcodeCount - 1> sorted{};
  for (size_t i = 1; i < kOpcodeCount; ++i)
    sorted[i - 1] = static_cast<Opcode>(i);
  std::sort(sorted.begin(), sorted.end(),
            [](Opcode a, Opcode b) { return kNames[indexOf(a)] < kNames[indexOf(b)]; });
  return sorted;
}();

constexpr bool namesUnique() {
  for (size_t i = 1; i < kByName.size(); ++i)
    if (kNames[indexOf(kByName[i - 1])] == kNames[indexOf(kByName[i])])
      return false;
  return true;
}
static_assert(namesUnique(), "ir/Opcodes.def: an opcode is spelled twice");

} // namespace

std::string_view opcodeName(Opcode opcode) {
  return indexOf(opcode) < kNames.size() ? kNames[indexOf(opcode)] : std::string_view{};
}

Opcode opcodeFromName(std::string_view name) {
  auto it = std::lower_bound(kByName.begin(), kByName.end(), name,
                             [](Opcode op, std::string_view n) { return kNames[indexOf(op)] < n; });
  return it != kByName.end() && kNames[indexOf(*it)] == name ? *it : Opcode::Unknown;
}

const OpcodeTraits& lookupOpcodeTraits(Opcode opcode, std::span<const std::string_view> modifiers) {
  if (opcode == Opcode::Unknown || indexOf(opcode) >= kOpcodeCount)
    return kUnknownTraits;
  const RowRange range = kRanges[indexOf(opcode)];
  for (size_t i = size_t{range.first} + 1; i < size_t{range.first} + range.count; ++i)
    if (std::find(modifiers.begin(), modifiers.end(), kRows[i].qualifier) != modifiers.end())
      return kRows[i];
  return kRows[range.first];
}

const OpcodeTraits& lookupOpcodeTraits(std::string_view opcode,
                                       std::span<const std::string_view> modifiers) {
  return lookupOpcodeTraits(opcodeFromName(opcode), modifiers);
}

bool isKnownOpcode(std::string_view opcode) {
  return opcodeFromName(opcode) != Opcode::Unknown;
}

std::span<const OpcodeTraits> instructionTable() {
  return kRows;
}

std::string_view semanticFamilyName(SemanticFamily family) {
  switch (family) {
  case SemanticFamily::None:
    return "None";
  case SemanticFamily::Arithmetic:
    return "Arithmetic";
  case SemanticFamily::FloatOrHalf:
    return "FloatOrHalf";
  case SemanticFamily::Float:
    return "Float";
  case SemanticFamily::Integer:
    return "Integer";
  case SemanticFamily::Logic:
    return "Logic";
  case SemanticFamily::Comparison:
    return "Comparison";
  case SemanticFamily::Move:
    return "Move";
  case SemanticFamily::Conversion:
    return "Conversion";
  case SemanticFamily::Memory:
    return "Memory";
  case SemanticFamily::Atomic:
    return "Atomic";
  case SemanticFamily::Warp:
    return "Warp";
  case SemanticFamily::Texture:
    return "Texture";
  case SemanticFamily::AsyncCopy:
    return "AsyncCopy";
  case SemanticFamily::Hint:
    return "Hint";
  case SemanticFamily::Barrier:
    return "Barrier";
  case SemanticFamily::ThreadControl:
    return "ThreadControl";
  case SemanticFamily::TensorCore:
    return "TensorCore";
  case SemanticFamily::AsyncTensorCore:
    return "AsyncTensorCore";
  case SemanticFamily::MBarrier:
    return "MBarrier";
  case SemanticFamily::BulkCopy:
    return "BulkCopy";
  case SemanticFamily::Video:
    return "Video";
  case SemanticFamily::Cluster:
    return "Cluster";
  }
  return "?";
}

} // namespace ocelot::ir
