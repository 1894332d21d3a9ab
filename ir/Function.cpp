#include "ir/Function.h"

#include "ir/Module.h"

namespace ocelot::ir {

Function::Function(Module& module, bool isEntry, std::string_view name)
    : ModuleItem(Kind::Function), module_(&module), isEntry_(isEntry), name_(name) {
  scopes_.push_back(ScopeInfo{0});
}

Linkage Function::linkage() const {
  for (std::string_view word : prefixWords_)
    if (auto linkage = linkageFromName(word))
      return *linkage;
  return Linkage::None;
}

const FunctionDirective* Function::directive(std::string_view name) const {
  for (const auto& d : directives_)
    if (d.name == name)
      return &d;
  return nullptr;
}

BasicBlock& Function::appendBlock() {
  return insertBlock(blocks_.size());
}

BasicBlock& Function::insertBlock(size_t index) {
  auto block = std::make_unique<BasicBlock>(*this);
  BasicBlock& ref = *block;
  blocks_.insert(blocks_.begin() + static_cast<std::ptrdiff_t>(index), std::move(block));
  return ref;
}

size_t Function::instructionCount() const {
  size_t count = 0;
  for (const auto& block : blocks_)
    block->forEachInstruction([&](const Instruction&) { ++count; });
  return count;
}

uint32_t Function::addRegisterDeclarator(RegisterDeclarator declarator) {
  registers_.push_back(declarator);
  return static_cast<uint32_t>(registers_.size() - 1);
}

std::string Function::registerName(RegisterRef ref) const {
  const RegisterDeclarator& d = registers_[ref.declarator];
  std::string name(d.name);
  if (d.parameterized)
    name += std::to_string(ref.index);
  return name;
}

LabelId Function::addLabel(LabelInfo info) {
  labels_.push_back(info);
  return static_cast<LabelId>(labels_.size() - 1);
}

ScopeId Function::addScope(ScopeId parent) {
  scopes_.push_back(ScopeInfo{parent});
  return static_cast<ScopeId>(scopes_.size() - 1);
}

unsigned Function::scopeDepth(ScopeId scope) const {
  unsigned depth = 0;
  while (scope != 0) {
    scope = scopes_[scope].parent;
    ++depth;
  }
  return depth;
}

namespace {

bool sameRegisters(const RegisterDeclarator& a, const RegisterDeclarator& b) {
  return a.name == b.name && a.count == b.count && a.parameterized == b.parameterized &&
         a.typeWord == b.typeWord && a.vectorWidth == b.vectorWidth && a.scope == b.scope;
}

} // namespace

bool Function::equals(const Function& other) const {
  if (isEntry_ != other.isEntry_ || name_ != other.name_ || prefixWords_ != other.prefixWords_ ||
      !(signature_ == other.signature_) || !(directives_ == other.directives_) ||
      hasBody_ != other.hasBody_ || blocks_.size() != other.blocks_.size() ||
      registers_.size() != other.registers_.size() || labels_.size() != other.labels_.size() ||
      scopes_.size() != other.scopes_.size())
    return false;
  for (size_t i = 0; i < registers_.size(); ++i)
    if (!sameRegisters(registers_[i], other.registers_[i]))
      return false;
  for (size_t i = 0; i < labels_.size(); ++i)
    if (labels_[i].name != other.labels_[i].name || labels_[i].scope != other.labels_[i].scope)
      return false;
  for (size_t i = 0; i < scopes_.size(); ++i)
    if (scopes_[i].parent != other.scopes_[i].parent)
      return false;
  for (size_t b = 0; b < blocks_.size(); ++b) {
    const auto& mine = blocks_[b]->statements();
    const auto& theirs = other.blocks_[b]->statements();
    if (mine.size() != theirs.size())
      return false;
    for (size_t s = 0; s < mine.size(); ++s)
      if (!mine[s]->equals(*theirs[s]))
        return false;
  }
  return true;
}

} // namespace ocelot::ir
