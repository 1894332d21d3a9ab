#include "runtime/cpu/FunctionFrame.h"

#include "ir/Casting.h"
#include "runtime/cpu/ImmediateValues.h"

#include <algorithm>

namespace ocelot::runtime::cpu {
namespace {

uint64_t alignUp(uint64_t value, uint64_t alignment) {
  return alignment <= 1 ? value : (value + alignment - 1) / alignment * alignment;
}

struct Extent {
  uint64_t size = 0;
  uint32_t alignment = 1;
  bool known = true;
};

Extent extentOf(const ir::DeclarationSpec& spec, const ir::Declarator& declarator) {
  Extent extent;
  const auto type = spec.type();
  const uint64_t element = (type ? scalarTypeBytes(*type) : 1) * spec.vectorWidth();
  uint64_t count = 1;
  for (const auto& dimension : declarator.dimensions) {
    if (!dimension) {
      extent.known = false;
      count = 0;
      break;
    }
    count *= *dimension;
  }
  extent.size = element * count;
  extent.alignment = static_cast<uint32_t>(std::max<uint64_t>(spec.alignment(), element));
  return extent;
}

} // namespace

uint32_t SharedAllocator::allocate(uint64_t bytes, uint32_t alignment) {
  const uint64_t offset = alignUp(size_, std::max<uint32_t>(alignment, 1));
  size_ = static_cast<uint32_t>(std::min<uint64_t>(offset + bytes, UINT32_MAX));
  return static_cast<uint32_t>(offset);
}

std::string FunctionFrame::build(const ir::Function& function, bool isKernel,
                                 SharedAllocator& shared, FunctionFrame* frame) {
  uint64_t frameSize = 0;
  auto place = [&](const Extent& extent) {
    const uint64_t offset = alignUp(frameSize, extent.alignment);
    frameSize = offset + extent.size;
    return static_cast<uint32_t>(offset);
  };

  // Formal parameters.
  const ir::FunctionSignature& signature = function.signature();
  uint64_t parameterBuffer = 0;
  auto formal = [&](const ir::DeclarationSpec& spec, std::vector<FrameSymbol>& list) {
    for (const ir::Declarator& declarator : spec.declarators) {
      FrameSymbol symbol;
      const Extent extent = extentOf(spec, declarator);
      symbol.size = static_cast<uint32_t>(extent.size);
      if (spec.stateSpace() == ir::StateSpace::Reg) {
        symbol.kind = FrameSymbol::Kind::RegisterFormal;
        // The register of that name the function's body uses.
        const auto& declarators = function.registerDeclarators();
        for (uint32_t d = 0; d < declarators.size(); ++d)
          if (declarators[d].name == declarator.name && declarators[d].scope == 0)
            symbol.reg = ir::RegisterRef{d, 0};
      } else if (isKernel) {
        symbol.kind = FrameSymbol::Kind::KernelParameter;
        const uint64_t offset = alignUp(parameterBuffer, extent.alignment);
        parameterBuffer = offset + extent.size;
        symbol.offset = static_cast<uint32_t>(offset);
      } else {
        symbol.kind = FrameSymbol::Kind::Frame;
        symbol.offset = place(extent);
      }
      frame->symbols_[{0, declarator.name}] = symbol;
      list.push_back(symbol);
    }
  };
  for (const ir::DeclarationSpec& spec : signature.returns)
    formal(spec, frame->returns_);
  for (const ir::DeclarationSpec& spec : signature.parameters)
    formal(spec, frame->parameters_);

  // Declarations in the body.
  for (const auto& block : function.blocks()) {
    for (const auto& statement : block->statements()) {
      const auto* declaration = ir::dyn_cast<ir::DeclarationStatement>(statement.get());
      if (declaration == nullptr)
        continue;
      const ir::DeclarationSpec& spec = declaration->spec();
      const ir::StateSpace space = spec.stateSpace();
      if (space != ir::StateSpace::Local && space != ir::StateSpace::Param &&
          space != ir::StateSpace::Shared)
        continue;
      for (const ir::Declarator& declarator : spec.declarators) {
        const Extent extent = extentOf(spec, declarator);
        FrameSymbol symbol;
        symbol.size = static_cast<uint32_t>(extent.size);
        if (space == ir::StateSpace::Shared) {
          if (!extent.known)
            return "function-scope .shared array " + std::string(declarator.name) + " has no size";
          symbol.kind = FrameSymbol::Kind::Shared;
          symbol.offset = shared.allocate(extent.size, extent.alignment);
        } else {
          if (!extent.known)
            return "local variable " + std::string(declarator.name) + " has no size";
          symbol.kind = FrameSymbol::Kind::Frame;
          symbol.offset = place(extent);
        }
        frame->symbols_[{declaration->scope(), declarator.name}] = symbol;
      }
    }
  }
  constexpr uint64_t kFrameAlignment = 16;
  frameSize = alignUp(frameSize, kFrameAlignment);
  if (frameSize > UINT32_MAX / 4 || parameterBuffer > UINT32_MAX / 4)
    return "the local frame of " + std::string(function.name()) + " is too large";
  frame->frameSize_ = static_cast<uint32_t>(frameSize);
  frame->parameterBufferSize_ = static_cast<uint32_t>(parameterBuffer);
  return {};
}

const FrameSymbol* FunctionFrame::find(const ir::Function& function, ir::ScopeId scope,
                                       std::string_view name) const {
  const auto& scopes = function.scopes();
  for (;;) {
    if (auto it = symbols_.find({scope, name}); it != symbols_.end())
      return &it->second;
    if (scope == 0 || scope >= scopes.size())
      break;
    scope = scopes[scope].parent;
  }
  if (scope != 0)
    if (auto it = symbols_.find({0, name}); it != symbols_.end())
      return &it->second;
  return nullptr;
}

} // namespace ocelot::runtime::cpu
