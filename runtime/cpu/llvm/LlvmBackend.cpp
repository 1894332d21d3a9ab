// The LLVM component of the CPU device (libocelot_cpu_llvm.so): plans become LLVM IR
// (KernelTranslator), are optimized and compiled for the host CPU, cached on disk as object
// files, and linked into the process by an ORC LLJIT.

#include "runtime/cpu/llvm/CodeCache.h"
#include "runtime/cpu/llvm/KernelTranslator.h"
#include "runtime/cpu/llvm/NativeBackend.h"

#include <algorithm>
#include <chrono>
#include <llvm/Analysis/CGSCCPassManager.h>
#include <llvm/Analysis/LoopAnalysisManager.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/ExecutionEngine/JITEventListener.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/RTDyldObjectLinkingLayer.h>
#include <llvm/ExecutionEngine/SectionMemoryManager.h>
#include <llvm/IR/DiagnosticHandler.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SHA256.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/TargetParser/Host.h>
#include <cstring>
#include <map>
#include <mutex>

namespace ocelot::runtime::cpu::native {
namespace {

/// Bumped when the way plans become machine code changes without the plan changing.
constexpr uint32_t kCodeGeneratorVersion = 4;
/// What the code cache holds for a kernel refused native code (an object file starts with ELF's
/// magic), followed by the reason.
constexpr const char* kRefusal = "ocelot: not native\n";
/// Kernels whose translated IR exceeds the size limit this many times are refused before
/// optimization (see generate()).
constexpr uint64_t kOptimizationShrink = 4;

uint64_t instructionCount(const llvm::Module& module) {
  uint64_t instructions = 0;
  for (const llvm::Function& function : module)
    instructions += function.getInstructionCount();
  return instructions;
}

std::string hex(llvm::ArrayRef<uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string text;
  for (uint8_t byte : bytes) {
    text += kDigits[byte >> 4];
    text += kDigits[byte & 15];
  }
  return text;
}

std::string errorText(llvm::Error error) {
  std::string text;
  llvm::raw_string_ostream stream(text);
  stream << error;
  return stream.str();
}

/// The JIT and what it holds; shared with every kernel whose code lives in it.
struct Jit {
  std::unique_ptr<llvm::orc::LLJIT> lljit;
  std::mutex mutex;
  std::map<std::string, NativeFunction> loaded; ///< by symbol
};

class LlvmBackend final : public Backend {
public:
  static std::unique_ptr<LlvmBackend> create(const BackendOptions& options, std::string* error);

  std::string description() const override;
  CompiledCode compile(const Plan& plan, std::string* error) override;

private:
  LlvmBackend(llvm::orc::JITTargetMachineBuilder builder, std::shared_ptr<Jit> jit, CodeCache cache,
              const BackendOptions& options)
      : builder_(std::move(builder)), jit_(std::move(jit)), cache_(std::move(cache)),
        largestKernel_(options.largestKernel), frameLimit_(options.frameLimitBytes) {}

  /// Object code for `plan` under `symbol`.
  /// Native code for the plan as an object file; false with the reason otherwise, and
  /// `refused` when the reason follows from the plan (its size, its frame): not a failure.
  bool generate(const Plan& plan, const std::string& symbol, std::string* object,
                std::string* error, bool* refused) const;

  llvm::orc::JITTargetMachineBuilder builder_;
  std::shared_ptr<Jit> jit_;
  CodeCache cache_;
  std::string target_;     ///< triple, CPU and features: part of every key
  uint64_t largestKernel_; ///< BackendOptions::largestKernel
  uint64_t frameLimit_;    ///< BackendOptions::frameLimitBytes
};

/// Records the stack frame sizes code generation reports (the "warn-stack-size" diagnostic, asked
/// for every function) instead of printing them.
class FrameSizes final : public llvm::DiagnosticHandler {
public:
  explicit FrameSizes(uint64_t* largest) : largest_(largest) {}
  bool handleDiagnostics(const llvm::DiagnosticInfo& info) override {
    if (info.getKind() != llvm::DK_StackSize)
      return false;
    const auto& size = static_cast<const llvm::DiagnosticInfoStackSize&>(info);
    *largest_ = std::max(*largest_, size.getResourceSize());
    return true;
  }

private:
  uint64_t* largest_;
};

std::unique_ptr<LlvmBackend> LlvmBackend::create(const BackendOptions& options,
                                                 std::string* error) {
  static std::once_flag initialized;
  std::call_once(initialized, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    // X86's mask-register domain reassignment costs more than half of the code generation of
    // large kernels (it is superlinear in their size) for little gain here.
    auto& registered = llvm::cl::getRegisteredOptions();
    if (auto it = registered.find("disable-x86-domain-reassignment"); it != registered.end())
      it->second->addOccurrence(0, "disable-x86-domain-reassignment", "true");
  });
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder) {
    *error = "cannot describe the host for LLVM: " + errorText(builder.takeError());
    return nullptr;
  }
  builder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Default);
  llvm::orc::LLJITBuilder jitBuilder;
  jitBuilder.setJITTargetMachineBuilder(*builder);
  if (const char* perf = std::getenv("OCELOT_CPU_LLVM_PERF"); perf != nullptr && *perf == '1') {
    // For developers: jitdump files for `perf inject --jit` (see docs/cpu-backend.md).
    jitBuilder.setObjectLinkingLayerCreator(
        [](llvm::orc::ExecutionSession& session,
           const llvm::Triple&) -> llvm::Expected<std::unique_ptr<llvm::orc::ObjectLayer>> {
          auto layer = std::make_unique<llvm::orc::RTDyldObjectLinkingLayer>(
              session, [] { return std::make_unique<llvm::SectionMemoryManager>(); });
          if (llvm::JITEventListener* listener =
                  llvm::JITEventListener::createPerfJITEventListener())
            layer->registerJITEventListener(*listener);
          return layer;
        });
  }
  auto lljit = jitBuilder.create();
  if (!lljit) {
    *error = "cannot create the LLVM JIT: " + errorText(lljit.takeError());
    return nullptr;
  }
  // Generated code may call the C library (memcpy, math functions without instructions).
  auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      (*lljit)->getDataLayout().getGlobalPrefix());
  if (!process) {
    *error = "cannot expose the process to the LLVM JIT: " + errorText(process.takeError());
    return nullptr;
  }
  (*lljit)->getMainJITDylib().addGenerator(std::move(*process));
  auto jit = std::make_shared<Jit>();
  jit->lljit = std::move(*lljit);
  std::unique_ptr<LlvmBackend> backend(
      new LlvmBackend(*builder, std::move(jit), CodeCache(options.cacheDirectory), options));
  std::string target = builder->getTargetTriple().str() + " " + builder->getCPU();
  for (const std::string& feature : builder->getFeatures().getFeatures())
    target += " " + feature;
  backend->target_ = target;
  return backend;
}

std::string LlvmBackend::description() const {
  std::string text = "LLVM " LLVM_VERSION_STRING ", " + builder_.getTargetTriple().str() + ", " +
                     builder_.getCPU();
  text += cache_.enabled() ? ", code cache " + cache_.directory() : ", no code cache";
  return text;
}

bool LlvmBackend::generate(const Plan& plan, const std::string& symbol, std::string* object,
                           std::string* error, bool* refused) const {
  auto machine = llvm::orc::JITTargetMachineBuilder(builder_).createTargetMachine();
  if (!machine) {
    *error = "no target machine: " + errorText(machine.takeError());
    return false;
  }
  llvm::LLVMContext context;
  llvm::Module module("ocelot." + plan.name, context);
  module.setDataLayout((*machine)->createDataLayout());
  module.setTargetTriple((*machine)->getTargetTriple().str());
  const char* dump = std::getenv("OCELOT_CPU_LLVM_DUMP");
  std::string analysis;
  TargetInfo target;
  for (const std::string& feature : builder_.getFeatures().getFeatures())
    target.avx512 = target.avx512 || feature == "+avx512f";
  if (translateKernel(plan, target, symbol, module, error,
                      dump != nullptr && *dump != 0 ? &analysis : nullptr) == nullptr)
    return false;
  if (dump != nullptr && *dump != 0) {
    std::error_code failure;
    llvm::raw_fd_ostream out(std::string(dump) + "/" + plan.name + ".analysis", failure);
    if (!failure)
      out << analysis;
    // The IR as translated, before optimization (to time and tune the pipeline with opt/llc).
    llvm::raw_fd_ostream input(std::string(dump) + "/" + plan.name + ".input.ll", failure);
    if (!failure)
      module.print(input, nullptr);
  }

  // Optimization shrinks translated code by 1.6-3.1x (e2e kernels, 2026-11-27): far beyond the
  // limit, optimizing it (13-40 s for the largest) would only end in the refusal below.
  if (const uint64_t translated = instructionCount(module);
      translated > largestKernel_ * kOptimizationShrink) {
    *error = "its code is too large for LLVM's register allocator (" +
             std::to_string(translated) + " LLVM instructions before optimization, more than " +
             std::to_string(kOptimizationShrink) + " x " + std::to_string(largestKernel_) + ")";
    *refused = true;
    return false;
  }

  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager sccs;
  llvm::ModuleAnalysisManager modules;
  llvm::PassBuilder passes(machine->get());
  passes.registerModuleAnalyses(modules);
  passes.registerCGSCCAnalyses(sccs);
  passes.registerFunctionAnalyses(functions);
  passes.registerLoopAnalyses(loops);
  passes.crossRegisterProxies(loops, functions, sccs, modules);
  llvm::ModulePassManager pipeline =
      passes.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O2);
  pipeline.run(module, modules);
  // For developers: OCELOT_CPU_LLVM_DUMP=directory writes each kernel's optimized IR there.
  if (dump != nullptr && *dump != 0) {
    std::error_code failure;
    llvm::raw_fd_ostream out(std::string(dump) + "/" + plan.name + ".ll", failure);
    if (!failure)
      module.print(out, nullptr);
  }

  // A kernel this large would spend minutes in the greedy register allocator (superlinear in the
  // function's size), and the fast allocator's code is slower than the interpreter.
  if (const uint64_t instructions = instructionCount(module); instructions > largestKernel_) {
    *error = "its code is too large for LLVM's register allocator (" +
             std::to_string(instructions) + " LLVM instructions, more than " +
             std::to_string(largestKernel_) + ")";
    *refused = true;
    return false;
  }
  uint64_t frame = 0;
  context.setDiagnosticHandler(std::make_unique<FrameSizes>(&frame));
  for (llvm::Function& function : module)
    if (!function.isDeclaration())
      function.addFnAttr("warn-stack-size", "0");

  llvm::SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream stream(buffer);
  llvm::legacy::PassManager codegen;
  if ((*machine)->addPassesToEmitFile(codegen, stream, nullptr,
                                      llvm::CodeGenFileType::ObjectFile)) {
    *error = "the target cannot emit object files";
    return false;
  }
  codegen.run(module);
  if (frameLimit_ != 0 && frame > frameLimit_) {
    *error = "its native stack frame would be " + std::to_string(frame >> 20) +
             " MiB, more than the " + std::to_string(frameLimit_ >> 20) +
             " MiB the CPU device's threads leave for it";
    *refused = true;
    return false;
  }
  object->assign(buffer.begin(), buffer.end());
  return true;
}

CompiledCode LlvmBackend::compile(const Plan& plan, std::string* error) {
  const auto start = std::chrono::steady_clock::now();
  llvm::SHA256 hash;
  hash.update(serialize(plan));
  hash.update(llvm::StringRef(target_));
  const uint64_t versions[] = {kCodeGeneratorVersion, LLVM_VERSION_MAJOR, LLVM_VERSION_MINOR,
                               LLVM_VERSION_PATCH,    largestKernel_,     frameLimit_};
  hash.update(llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t*>(versions), sizeof versions));
  const auto digest = hash.final();
  const std::string key = hex(digest);
  const std::string symbol = "ocelot_native_" + key.substr(0, 32);

  CompiledCode result;
  result.owner = jit_;
  {
    std::lock_guard lock(jit_->mutex);
    if (auto it = jit_->loaded.find(symbol); it != jit_->loaded.end()) {
      result.function = it->second;
      result.fromCache = true;
      return result;
    }
  }
  std::string object;
  if (cache_.load(key, &object)) {
    result.fromCache = true;
  } else {
    bool refused = false;
    if (!generate(plan, symbol, &object, error, &refused)) {
      // A refusal follows from the plan and the options alone: the next run reads it instead of
      // compiling again (the largest kernels' optimization takes 10-40 s before it).
      if (refused)
        cache_.store(key, std::string(kRefusal) + *error);
      return {};
    }
    cache_.store(key, object);
  }
  if (llvm::StringRef(object).starts_with(kRefusal)) {
    *error = object.substr(std::strlen(kRefusal)) + " (recorded in the code cache)";
    return {};
  }
  std::lock_guard lock(jit_->mutex);
  if (auto it = jit_->loaded.find(symbol); it != jit_->loaded.end()) {
    result.function = it->second;
    return result;
  }
  auto buffer = llvm::MemoryBuffer::getMemBufferCopy(object, symbol);
  if (llvm::Error failure = jit_->lljit->addObjectFile(std::move(buffer))) {
    *error = "the JIT cannot link the kernel's code: " + errorText(std::move(failure));
    return {};
  }
  auto address = jit_->lljit->lookup(symbol);
  if (!address) {
    *error = "the kernel's code has no entry point: " + errorText(address.takeError());
    return {};
  }
  result.function = address->toPtr<NativeFunction>();
  jit_->loaded[symbol] = result.function;
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

} // namespace
} // namespace ocelot::runtime::cpu::native

extern "C" __attribute__((visibility("default"))) ocelot::runtime::cpu::native::Backend*
ocelot_cpu_llvm_create_backend(uint32_t abi,
                               const ocelot::runtime::cpu::native::BackendOptions& options,
                               std::string* error) {
  using namespace ocelot::runtime::cpu::native;
  if (abi != kBackendAbi) {
    *error = "the LLVM component was built for another version of Ocelot";
    return nullptr;
  }
  return LlvmBackend::create(options, error).release();
}
