#include "instrumentors/EntryBlock.h"

#include "ir/Casting.h"

namespace ocelot::instrumentors {

ir::BasicBlock& ensureUnlabeledEntry(ir::Function& function, ir::IRChangeListener* listener) {
  auto& blocks = function.blocks();
  if (blocks.empty())
    return function.appendBlock();
  ir::BasicBlock& first = *blocks.front();
  auto& statements = first.statements();
  size_t labelAt = 0;
  while (labelAt < statements.size() && !ir::isa<ir::Label>(statements[labelAt].get()))
    ++labelAt;
  if (labelAt == statements.size())
    return first; // no label: nothing can branch here
  ir::BasicBlock& entry = function.insertBlock(0);
  // The statements before the label (declarations, .loc) belong to the new block, in order.
  for (size_t i = 0; i < labelAt; ++i)
    entry.statements().push_back(std::move(statements[i]));
  statements.erase(statements.begin(), statements.begin() + static_cast<std::ptrdiff_t>(labelAt));
  if (listener != nullptr)
    listener->irChanged(function, ir::IRChange::ControlFlow);
  return entry;
}

} // namespace ocelot::instrumentors
