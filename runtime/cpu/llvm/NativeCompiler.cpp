#include "runtime/cpu/llvm/NativeCompiler.h"

#include "runtime/cpu/DeviceMemory.h"
#include "runtime/cpu/HostThread.h"
#include "runtime/cpu/llvm/NativeBackend.h"
#include "runtime/cpu/llvm/NativePlanner.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <map>
#include <string_view>
#include <unistd.h>
#include <vector>

namespace ocelot::runtime::cpu {
namespace {

/// One line on stderr in the runtime's log format (runtime/core/Logger, which this layer cannot
/// use): warnings always, information with OCELOT_LOG=info or debug.
void logLine(bool warning, const std::string& message) {
  std::string line = (warning ? "ocelot[warn]: " : "ocelot[info]: ") + message + "\n";
  [[maybe_unused]] ssize_t written = ::write(STDERR_FILENO, line.data(), line.size());
}

bool verboseLog() {
  const char* level = std::getenv("OCELOT_LOG");
  return level != nullptr && (std::strcmp(level, "info") == 0 || std::strcmp(level, "debug") == 0);
}

bool quietLog() {
  const char* level = std::getenv("OCELOT_LOG");
  return level != nullptr && (std::strcmp(level, "off") == 0 || std::strcmp(level, "none") == 0);
}

/// The number `name` holds, else `fallback` (with a warning when it holds something else).
uint64_t environmentNumber(const char* name, uint64_t fallback) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == 0)
    return fallback;
  char* end = nullptr;
  const unsigned long long number = std::strtoull(value, &end, 10);
  if (end != nullptr && *end == 0 && *value != '-')
    return number;
  if (!quietLog())
    logLine(true, std::string(name) + "=" + value + " is not a number; ignored");
  return fallback;
}

/// The directory of the shared object (or executable) this code is part of.
std::string ownDirectory() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&logLine), &info) == 0 || info.dli_fname == nullptr)
    return {};
  std::string path = info.dli_fname;
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
}

} // namespace

NativeCompiler::~NativeCompiler() {
  backend_.reset();
  // The component stays loaded: code it made may still be referenced by kernels being torn down.
}

std::string NativeCompiler::cacheDirectory() {
  std::string base;
  if (const char* value = std::getenv("OCELOT_CACHE_DIR"); value != nullptr && *value != 0) {
    if (std::strcmp(value, "off") == 0)
      return {};
    base = value;
  } else if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg == '/') {
    base = std::string(xdg) + "/ocelot";
  } else if (const char* home = std::getenv("HOME"); home != nullptr && *home == '/') {
    base = std::string(home) + "/.cache/ocelot";
  } else {
    return {};
  }
  return base + "/cpu-llvm";
}

std::shared_ptr<NativeCompiler> NativeCompiler::load(const std::string& path,
                                                     const std::string& cacheDirectory,
                                                     std::string* error) {
  std::string library = path;
  if (library.empty()) {
    if (const char* value = std::getenv("OCELOT_CPU_LLVM_LIBRARY"); value != nullptr && *value != 0)
      library = value;
    else
      library = ownDirectory() + "/" + native::kComponentName;
  }
  void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = dlerror();
    *error = "cannot load " + library + (why != nullptr ? ": " + std::string(why) : std::string());
    return nullptr;
  }
  auto create =
      reinterpret_cast<native::CreateBackendFunction>(dlsym(handle, native::kCreateBackendSymbol));
  if (create == nullptr) {
    *error = library + " is not Ocelot's LLVM component";
    return nullptr; // left loaded: unloading libraries that use LLVM is not safe
  }
  native::BackendOptions options;
  options.cacheDirectory = cacheDirectory;
  options.frameLimitBytes = kNativeFrameLimitBytes;
  // For tests and developers: the largest kernel (LLVM instructions) native code is made for,
  // and the largest stack frame native code may have.
  options.largestKernel =
      environmentNumber("OCELOT_CPU_LLVM_MAX_INSTRUCTIONS", options.largestKernel);
  options.frameLimitBytes =
      environmentNumber("OCELOT_CPU_LLVM_FRAME_LIMIT", options.frameLimitBytes);
  std::unique_ptr<native::Backend> backend(create(native::kBackendAbi, options, error));
  if (!backend)
    return nullptr;
  std::shared_ptr<NativeCompiler> compiler(new NativeCompiler());
  compiler->library_ = handle;
  compiler->backend_ = std::move(backend);
  compiler->verbose_ = verboseLog();
  return compiler;
}

std::shared_ptr<NativeCompiler> NativeCompiler::fromEnvironment() {
  const char* value = std::getenv("OCELOT_CPU_EXECUTOR");
  const std::string_view choice = value != nullptr ? value : "";
  if (choice == "interpreter")
    return nullptr;
    // The LLVM executor is the default where Ocelot was built with it: its native code gives the
    // interpreter's results, bit for bit, on every instruction of the sweep
    // (LlvmExecutorTest.EveryInstructionOfTheSweepGivesTheInterpretersResults).
#ifndef OCELOT_HAVE_LLVM_EXECUTOR
  if (choice != "llvm")
    return nullptr;
#endif
  if (!choice.empty() && choice != "llvm" && !quietLog())
    logLine(true, "OCELOT_CPU_EXECUTOR=" + std::string(choice) +
                      " is neither llvm nor interpreter; using llvm");
  std::string error;
  auto compiler = load({}, cacheDirectory(), &error);
  if (!compiler) {
    if (!quietLog())
      logLine(true, "the CPU device's LLVM executor is not available (" + error +
                        "); every kernel runs in the interpreter");
    return nullptr;
  }
  if (compiler->verbose_)
    logLine(false, "CPU device executor: LLVM (" + compiler->description() + ")");
  return compiler;
}

std::string NativeCompiler::description() const {
  return backend_->description();
}

NativeCompiler::Statistics NativeCompiler::statistics() const {
  std::lock_guard lock(mutex_);
  return statistics_;
}

void NativeCompiler::noteInterpreted(const DecodedKernel& kernel, const char* reason) {
  if (!verbose_)
    return;
  {
    std::lock_guard lock(mutex_);
    if (!noted_.insert(kernel.name).second)
      return;
  }
  logLine(false, "kernel " + kernel.name + " runs in the interpreter: " + reason);
}

const NativeKernel* NativeCompiler::nativeFor(const DecodedKernel& kernel,
                                              const DeviceMemory& memory) {
  std::lock_guard lock(kernel.nativeMutex);
  if (kernel.nativeTried)
    return kernel.native.get();
  kernel.nativeTried = true;
  const auto start = std::chrono::steady_clock::now();
  native::Plan plan = native::makePlan(kernel, native::RunTimeRanges::of(memory));
  std::string error;
  native::CompiledCode code = backend_->compile(plan, &error);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  {
    std::lock_guard statisticsLock(mutex_);
    if (code.function == nullptr)
      ++statistics_.failed;
    else if (code.fromCache)
      ++statistics_.cached;
    else
      ++statistics_.compiled;
    statistics_.seconds += seconds;
  }
  if (code.function == nullptr) {
    if (!quietLog())
      logLine(true, "kernel " + kernel.name + " runs in the interpreter: " + error);
    return nullptr;
  }
  auto result = std::make_shared<NativeKernel>();
  result->function = code.function;
  result->owner = code.owner;
  std::vector<uint32_t> ctaRows;
  for (const SpecialRow& special : kernel.specials)
    if ((special.kind >= SpecialRegister::CtaidX && special.kind <= SpecialRegister::CtaidZ) ||
        (special.kind >= SpecialRegister::ClusterIdX &&
         special.kind <= SpecialRegister::ClusterIdZ))
      ctaRows.push_back(special.row);
  result->ctaRowsInLaneZero = native::onlyNativeReads(plan, ctaRows);
  result->entries.resize(plan.code.size());
  for (size_t pc = 0; pc < plan.code.size(); ++pc)
    result->entries[pc] = plan.code[pc].leader ? 1 : 0;
  if (verbose_) {
    const native::PlanStatistics counts = native::statistics(plan);
    char line[256];
    std::snprintf(line, sizeof line,
                  "kernel %s: native code in %.1f ms%s (%u instructions native, %u through "
                  "interpreter handlers, %u left to the interpreter)",
                  kernel.name.c_str(), seconds * 1e3, code.fromCache ? " from the cache" : "",
                  counts.native, counts.handlers, counts.interpreted);
    std::string message = line;
    // Which instructions native code does not perform itself, so that what is slow (or not yet
    // translated) is visible: their spellings, most frequent first.
    std::map<std::string_view, uint32_t> fallbacks;
    for (size_t pc = 0; pc < plan.code.size() && pc < kernel.sources.size(); ++pc) {
      const native::Op op = plan.code[pc].op;
      if ((op == native::Op::Handler || op == native::Op::Interpret) &&
          !kernel.sources[pc].text.empty())
        ++fallbacks[kernel.sources[pc].text];
    }
    std::vector<std::pair<std::string_view, uint32_t>> sorted(fallbacks.begin(), fallbacks.end());
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    for (size_t i = 0; i < sorted.size() && i < 12; ++i)
      message += (i == 0 ? "; not native: " : ", ") + std::string(sorted[i].first) +
                 (sorted[i].second > 1 ? " x" + std::to_string(sorted[i].second) : "");
    if (sorted.size() > 12)
      message += ", ...";
    logLine(false, message);
  }
  kernel.native = std::move(result);
  return kernel.native.get();
}

} // namespace ocelot::runtime::cpu
