#pragma once

#include "ir/Function.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>

namespace ocelot::runtime::cpu {

/// Hands out static shared-memory offsets for one kernel.
class SharedAllocator {
public:
  uint32_t allocate(uint64_t bytes, uint32_t alignment);
  uint32_t size() const { return size_; }

private:
  uint32_t size_ = 0;
};

/// A name declared by a function: a variable in its local frame (`.local`, `.param` inside the
/// body, the formal parameters of a device function), a `.shared` variable of the body, a kernel
/// parameter, or a `.reg` formal parameter.
struct FrameSymbol {
  enum class Kind : uint8_t { Frame, Shared, KernelParameter, RegisterFormal };
  Kind kind = Kind::Frame;
  uint32_t offset = 0; ///< frame, shared or parameter-buffer offset
  uint32_t size = 0;
  ir::RegisterRef reg; ///< RegisterFormal
};

/// The memory a function's declarations need and where each name lives. Local frames hold, in this
/// order, the return values and parameters of a device function, then the body's `.local` and
/// `.param` variables (call sequences declare the arguments of every call in their own scope; each
/// gets its own slot). Names are scoped like the IR: inline-asm braces may redeclare them.
class FunctionFrame {
public:
  /// Lays out `function`; body `.shared` variables take offsets from `shared`. Kernel parameters
  /// get parameter-buffer offsets (returned through parameterOffsets()). Errors are returned.
  static std::string build(const ir::Function& function, bool isKernel, SharedAllocator& shared,
                           FunctionFrame* frame);

  const FrameSymbol* find(const ir::Function& function, ir::ScopeId scope,
                          std::string_view name) const;

  uint32_t frameSize() const { return frameSize_; }
  /// Formals in order (device functions: frame offsets; kernels: parameter-buffer offsets).
  const std::vector<FrameSymbol>& parameters() const { return parameters_; }
  const std::vector<FrameSymbol>& returns() const { return returns_; }
  uint32_t parameterBufferSize() const { return parameterBufferSize_; }

private:
  std::map<std::pair<ir::ScopeId, std::string_view>, FrameSymbol> symbols_;
  std::vector<FrameSymbol> parameters_, returns_;
  uint32_t frameSize_ = 0;
  uint32_t parameterBufferSize_ = 0;
};

} // namespace ocelot::runtime::cpu
