#include "instrumentors/ModuleInstrumenter.h"

#include "instrumentors/LaunchClock.h"
#include "ir/Emitter.h"
#include "ir/Parser.h"
#include "ir/Verifier.h"
#include "passes/PassManager.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <exception>

namespace ocelot::instrumentors {

namespace {

class Stopwatch {
public:
  double lapMs() {
    auto now = std::chrono::steady_clock::now();
    double ms = std::chrono::duration<double, std::milli>(now - last_).count();
    last_ = now;
    return ms;
  }

private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

/// 90 for `.target sm_90a`; 0 when the target names no architecture.
unsigned architectureNumber(const ir::Module& module) {
  std::string_view arch = module.architecture();
  if (!arch.starts_with("sm_"))
    return 0;
  unsigned number = 0;
  std::from_chars(arch.data() + 3, arch.data() + arch.size(), number);
  return number;
}

/// Whether `function` adjusts its register allocation with `setmaxnreg` (warp-specialized code).
bool setsMaxRegisters(const ir::Function& function) {
  bool found = false;
  for (const auto& block : function.blocks())
    block->forEachInstruction([&](const ir::Instruction& inst) {
      found = found || inst.form().opcode() == ir::Opcode::Setmaxnreg;
    });
  return found;
}

void capRegisters(ir::Function& function, const std::map<std::string, uint32_t>& caps) {
  static constexpr std::string_view kMaxRegisters = ".maxnreg";
  ir::Function* f = &function;
  {
    if (!f->isEntry() || !f->hasBody())
      return;
    auto cap = caps.find(std::string(f->name()));
    if (cap == caps.end() || cap->second == 0 || setsMaxRegisters(*f))
      return;
    auto& directives = f->directives();
    auto existing =
        std::find_if(directives.begin(), directives.end(),
                     [](const ir::FunctionDirective& d) { return d.name == kMaxRegisters; });
    if (existing == directives.end())
      directives.push_back({kMaxRegisters, {cap->second}});
    else if (existing->values.empty() || existing->values.front() > cap->second)
      existing->values = {cap->second};
  }
}

void capRegisters(ir::Module& module, const std::map<std::string, uint32_t>& caps) {
  for (ir::Function* f : module.functions())
    capRegisters(*f, caps);
}

} // namespace

InstrumentedPtx instrumentModule(std::string_view ptx, const std::vector<SlotRequest>& slots,
                                 const InstrumentOptions& options) {
  Stopwatch clock;
  ir::ParseResult parsed = ir::parsePtx(ptx, options.label.empty() ? "<module>" : options.label);
  double parseMs = clock.lapMs();
  if (!parsed.ok()) {
    InstrumentedPtx out;
    out.error = "parse: " + parsed.firstError();
    out.timings.parseMs = parseMs;
    return out;
  }
  InstrumentedPtx out = instrumentModule(std::move(parsed.module), slots, options);
  out.timings.parseMs = parseMs;
  return out;
}

InstrumentedPtx instrumentModule(std::unique_ptr<ir::Module> parsed,
                                 const std::vector<SlotRequest>& slots,
                                 const InstrumentOptions& options) {
  InstrumentedPtx out;
  Stopwatch clock;
  auto failed = [&](std::string step, std::string why) {
    out.ok = false;
    out.error = step + ": " + why;
    out.ptx.clear();
    out.states.clear();
    return std::move(out);
  };
  if (parsed == nullptr)
    return failed("parse", "no module");
  ir::Module& module = *parsed;
  if (module.addressSize().value_or(64) != 64)
    return failed("plan", "modules with 32-bit addresses are not instrumented");
  if (slots.empty())
    return failed("plan", "no instrumentor");

  passes::AnalysisManager analyses;
  const uint32_t planned = static_cast<uint32_t>(slots.size()) + (options.completionWord ? 1 : 0);
  BufferPlan plan(module, analyses, planned, options.linked);
  std::vector<std::unique_ptr<BufferAccess>> accesses;
  std::vector<InstrumentationTarget> targets;
  unsigned architecture = architectureNumber(module);
  for (uint32_t s = 0; s < planned; ++s)
    accesses.push_back(plan.access(s));
  for (uint32_t s = 0; s < slots.size(); ++s)
    targets.push_back({slots[s].variant, architecture, options.linked, accesses[s].get()});
  // The completion word is the runtime's launch clock's alone (not part of the plugin interface).
  const BufferAccess* completion = options.completionWord ? accesses.back().get() : nullptr;
  auto clockOf = [&](uint32_t s) {
    return completion != nullptr ? dynamic_cast<const LaunchClock*>(slots[s].instrumentor)
                                 : nullptr;
  };

  // 1. analyze (before any change, so that what instrumentors record is the application's code)
  for (uint32_t s = 0; s < slots.size(); ++s) {
    const PTXInstrumentor& instrumentor = *slots[s].instrumentor;
    try {
      const LaunchClock* launchClock = clockOf(s);
      out.states.push_back(launchClock != nullptr
                               ? launchClock->analyze(module, analyses, targets[s], completion)
                               : instrumentor.analyze(module, analyses, targets[s]));
    } catch (const std::exception& e) {
      return failed(std::string(instrumentor.name()) + " analyze", e.what());
    }
    if (!out.states.back())
      return failed(std::string(instrumentor.name()) + " analyze", "no state");
  }
  // What the instrumentors recorded is in their states; the analyses of every function (a few
  // kilobytes each, tens of thousands of functions in a large module) are recomputed function by
  // function by the passes that need them.
  analyses.clear();
  analyses.releaseRetired();
  out.timings.analyzeMs = clock.lapMs();

  // 2. the framework: parameters, slot threading, entry blocks; the application's variables
  plan.apply(module, analyses);
  VariableAddresses addresses = options.addresses;
  if (!addresses)
    addresses = [](std::string_view) -> std::optional<uint64_t> { return 0; };
  RedirectResult redirect = redirectGlobals(module, analyses, addresses);
  if (!redirect.ok)
    return failed("global variables", redirect.error);
  out.redirectedVariables = redirect.variables;
  FunctionTranslationResult functions;
  try {
    functions =
        translateFunctionAddresses(module, analyses, options.functionAddresses, options.linked);
  } catch (const std::exception& e) {
    return failed("function addresses", e.what());
  }
  out.translatedFunctions = functions.functions;
  out.materializedAddresses = functions.materialized;
  out.translatedCalls = functions.indirectCalls;

  // 3. the instrumentors' passes, coalesced by the pass manager
  passes::PassManagerOptions managerOptions;
  managerOptions.verifyEach = false; // verified once below
  // Streaming: each function is capped, verified, written and dropped as soon as the passes are
  // done with it (the checks are those of the whole-module path below, function by function).
  std::unique_ptr<ir::StreamingEmitter> stream;
  std::unordered_set<std::string_view> defined;
  if (options.write) {
    stream = std::make_unique<ir::StreamingEmitter>(module, options.write);
    managerOptions.functionFinished = [&](ir::Function& f) -> std::optional<std::string> {
      capRegisters(f, options.registerCaps);
      if (options.verify) {
        if (!defined.insert(f.name()).second)
          return "verifier: function is defined twice in the module";
        for (const auto& d : ir::verifyFunction(f))
          if (d.severity == ir::VerifierDiagnostic::Severity::Error)
            return "verifier: " + d.format();
      }
      if (!stream->writeThrough(f))
        return std::string("the module's items changed while it was written");
      analyses.clear(&f);
      analyses.releaseRetired();
      for (auto& block : f.blocks())
        block->statements().clear(); // written: the text is all that is needed
      return std::nullopt;
    };
  }
  passes::PassManager manager(managerOptions);
  for (uint32_t s = 0; s < slots.size(); ++s) {
    try {
      if (const LaunchClock* launchClock = clockOf(s))
        launchClock->instrument(*out.states[s], manager, targets[s], completion);
      else
        slots[s].instrumentor->instrument(*out.states[s], manager, targets[s]);
    } catch (const std::exception& e) {
      return failed(std::string(slots[s].instrumentor->name()) + " instrument", e.what());
    }
  }
  passes::PassManagerResult run = manager.run(module, analyses);
  if (!run.ok)
    return failed("passes", run.error);
  // The kernels that carry instrumentation, and why the others do not.
  auto recordKernels = [&] {
    std::unordered_set<std::string_view> unsafe;
    for (const Exclusion& exclusion : functions.excludedKernels)
      unsafe.insert(exclusion.function);
    for (const ir::Function* f : module.functions())
      if (f->isEntry() && f->hasBody() && plan.reaches(*f) && !unsafe.contains(f->name()))
        out.kernels.insert(std::string(f->name()));
    out.exclusions = plan.exclusions();
    out.exclusions.insert(out.exclusions.end(), functions.excludedKernels.begin(),
                          functions.excludedKernels.end());
  };
  if (stream) {
    stream->finish();
    out.timings.passesMs = clock.lapMs(); // emission is spread over the passes
    recordKernels();
    out.ok = true;
    return out;
  }
  capRegisters(module, options.registerCaps);
  if (options.verify) {
    auto diagnostics = ir::verifyModule(module);
    if (ir::hasErrors(diagnostics))
      for (const auto& d : diagnostics)
        if (d.severity == ir::VerifierDiagnostic::Severity::Error)
          return failed("verifier", d.format());
  }
  out.timings.passesMs = clock.lapMs();

  recordKernels();
  analyses.clear(); // the analyses of every function: their memory can serve the text
  analyses.releaseRetired();
  out.ptx = ir::emitPtx(module);
  out.timings.emitMs = clock.lapMs();
  out.ok = true;
  return out;
}

} // namespace ocelot::instrumentors
