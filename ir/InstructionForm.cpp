#include "ir/InstructionForm.h"

#include <algorithm>
#include <string>

namespace ocelot::ir {

InstructionForm::InstructionForm(std::string_view spelling) : spelling_(spelling) {
  size_t dot = spelling.find('.');
  opcodeName_ = spelling.substr(0, dot);
  opcode_ = opcodeFromName(opcodeName_);
  while (dot != std::string_view::npos) {
    size_t next = spelling.find('.', dot + 1);
    modifiers_.push_back(spelling.substr(
        dot + 1, next == std::string_view::npos ? std::string_view::npos : next - dot - 1));
    dot = next;
  }
  traits_ = &lookupOpcodeTraits(opcode_, modifiers_);

  for (std::string_view modifier : modifiers_) {
    if (auto type = scalarTypeFromName(modifier)) {
      if (!firstType_)
        firstType_ = type;
      lastType_ = type;
    }
    if (stateSpace_ == StateSpace::None) {
      auto space = stateSpaceFromName(modifier);
      // `.reg`/`.sreg` never appear as instruction modifiers with a memory meaning.
      if (space && *space != StateSpace::Reg && *space != StateSpace::SReg)
        stateSpace_ = *space;
    }
    if (modifier.size() >= 2 && modifier[0] == 'v' &&
        std::all_of(modifier.begin() + 1, modifier.end(),
                    [](char c) { return c >= '0' && c <= '9'; }))
      vectorWidth_ = static_cast<unsigned>(std::stoul(std::string(modifier.substr(1))));
  }
  if (stateSpace_ == StateSpace::None)
    stateSpace_ = traits_->space;
}

bool InstructionForm::hasModifier(std::string_view modifier) const {
  return std::find(modifiers_.begin(), modifiers_.end(), modifier) != modifiers_.end();
}

} // namespace ocelot::ir
