#include "runtime/cpu/llvm/KernelTranslator.h"

#include "runtime/cpu/NativeCode.h"
#include "runtime/cpu/llvm/Translator.h"

#include <cstddef>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>
#include <string>

namespace ocelot::runtime::cpu::native::translation {
namespace {

/// Kernels longer than this get one version of each block (compile time grows faster than size).
constexpr size_t kTwoVersionsLimit = 160;

} // namespace

llvm::Function* Translator::run(const std::string& symbol, std::string* error) {
  if (plan_.layout.stateSize != sizeof(NativeWarpState) ||
      plan_.layout.stackCapacity != kNativeStackCapacity) {
    *error = "the plan was made for another layout of the warp state";
    return nullptr;
  }
  analyze();
  auto* type = llvm::FunctionType::get(b_.getInt32Ty(), {b_.getPtrTy()}, false);
  function_ = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage, symbol, module_);
  function_->addFnAttr(llvm::Attribute::NoUnwind);
  function_->addFnAttr("min-legal-vector-width", "2048");
  state_ = function_->getArg(0);
  for (const Block& block : blocks_) {
    full_[block.start] = newBlock("full." + llvm::Twine(block.start));
    masked_[block.start] = newBlock("masked." + llvm::Twine(block.start));
  }
  emitPrologue();
  single_ = plan_.code.size() > kTwoVersionsLimit;
  for (const Block& block : blocks_) {
    if (!single_)
      emitBody(block, true);
    emitBody(block, false);
  }
  if (single_)
    for (auto& [pc, block] : full_) {
      new llvm::UnreachableInst(context_, block); // never entered
      (void)pc;
    }
  std::string message;
  llvm::raw_string_ostream stream(message);
  if (llvm::verifyFunction(*function_, &stream)) {
    *error = "generated code does not verify: " + stream.str();
    function_->eraseFromParent();
    return nullptr;
  }
  return function_;
}

} // namespace ocelot::runtime::cpu::native::translation

namespace ocelot::runtime::cpu::native {

llvm::Function* translateKernel(const Plan& plan, const TargetInfo& target,
                                const std::string& symbol, llvm::Module& module, std::string* error,
                                std::string* analysis) {
  translation::Translator translator(plan, target, module);
  llvm::Function* function = translator.run(symbol, error);
  if (analysis != nullptr)
    *analysis = translator.describe();
  return function;
}

} // namespace ocelot::runtime::cpu::native
