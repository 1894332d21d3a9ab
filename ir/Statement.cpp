#include "ir/Statement.h"

#include "ir/Casting.h"
#include "ir/InstructionForm.h"

namespace ocelot::ir {

thread_local bool Statement::allocatedInArena_ = false;

bool Statement::equals(const Statement& other) const {
  if (!sameHeader(other))
    return false;
  switch (kind_) {
  case Kind::Instruction: {
    const auto& a = *cast<Instruction>(this);
    const auto& b = *cast<Instruction>(&other);
    return a.form().spelling() == b.form().spelling() && a.guard() == b.guard() &&
           a.operands() == b.operands() && a.sourceLoc() == b.sourceLoc();
  }
  case Kind::Label: {
    const auto& a = *cast<Label>(this);
    const auto& b = *cast<Label>(&other);
    return a.id() == b.id() && a.name() == b.name();
  }
  case Kind::Declaration: {
    const auto& a = *cast<DeclarationStatement>(this);
    const auto& b = *cast<DeclarationStatement>(&other);
    return a.spec() == b.spec() && a.registerDeclarators() == b.registerDeclarators();
  }
  case Kind::Loc: {
    const auto& a = *cast<LocDirective>(this);
    const auto& b = *cast<LocDirective>(&other);
    return a.location() == b.location() && a.inlinedAt() == b.inlinedAt();
  }
  case Kind::Pragma:
    return cast<PragmaDirective>(this)->strings() == cast<PragmaDirective>(&other)->strings();
  case Kind::ScopeBegin:
  case Kind::ScopeEnd:
    return true;
  case Kind::CallPrototype: {
    const auto& a = *cast<CallPrototype>(this);
    const auto& b = *cast<CallPrototype>(&other);
    return a.name() == b.name() && a.signature() == b.signature() &&
           a.directives() == b.directives();
  }
  case Kind::BranchTargets: {
    const auto& a = *cast<BranchTargets>(this);
    const auto& b = *cast<BranchTargets>(&other);
    return a.name() == b.name() && a.targets() == b.targets();
  }
  case Kind::CallTargets: {
    const auto& a = *cast<CallTargets>(this);
    const auto& b = *cast<CallTargets>(&other);
    return a.name() == b.name() && a.functions() == b.functions();
  }
  }
  return false;
}

} // namespace ocelot::ir
