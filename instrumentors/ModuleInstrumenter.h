#pragma once

#include "instrumentors/BufferPlan.h"
#include "instrumentors/FunctionAddressTranslation.h"
#include "instrumentors/GlobalRedirect.h"
#include "ir/Module.h"
#include "ocelot/Instrumentor.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace ocelot::instrumentors {

/// One instrumentor of the active set and the variant it chose; its position is its slot.
struct SlotRequest {
  const PTXInstrumentor* instrumentor = nullptr;
  uint32_t variant = 0;
};

/// Milliseconds spent in each step, for the cost of instrumentation next to the driver's JIT
/// (the paper's Figure 9).
struct InstrumentationTimings {
  /// parseMs: the parse of the text, or (the runtime's copies) the clone of the catalog's IR.
  double parseMs = 0, analyzeMs = 0, passesMs = 0, emitMs = 0;
  double totalMs() const { return parseMs + analyzeMs + passesMs + emitMs; }
};

/// An instrumented PTX module, or why there is none.
struct InstrumentedPtx {
  bool ok = false;
  std::string error; ///< one line: which step failed and why
  std::string ptx;
  /// Each slot's state, for its instrumentor's initialize() and finalize().
  std::vector<std::unique_ptr<InstrumentorModuleState>> states;
  /// Kernels that carry the instrumentation (launch them with the extra parameter).
  std::unordered_set<std::string> kernels;
  /// Kernels and device functions left as they are, and why.
  std::vector<Exclusion> exclusions;
  uint32_t redirectedVariables = 0;
  /// Function pointers (see translateFunctionAddresses): address-taken functions, names turned
  /// into original addresses, indirect calls that translate.
  uint32_t translatedFunctions = 0, materializedAddresses = 0, translatedCalls = 0;
  InstrumentationTimings timings;
};

struct InstrumentOptions {
  /// Where the application's module keeps each variable (see redirectGlobals). Offline (no
  /// application), null: every variable gets address 0, which shows the code but must not run.
  VariableAddresses addresses;
  /// The application module's function-address tables (see translateFunctionAddresses). Offline,
  /// null: every function gets a placeholder address, which shows the code but must not run.
  OriginalFunctionAddresses functionAddresses;
  bool linked = false; ///< one unit of a device-linked program
  /// One more slot after the instrumentors' ones: the launch's completion word, which the
  /// runtime's launch clock among them writes at the kernel's end (see LaunchClock; other
  /// instrumentors never see it). The kernels' hidden parameter grows by 8 bytes.
  bool completionWord = false;
  /// Per kernel, the most registers per thread its instrumented code may use (`.maxnreg`), so
  /// that it keeps the occupancy of the application's kernel; kernels not named are left to
  /// ptxas. A kernel that already has a lower `.maxnreg` keeps it; one that uses `setmaxnreg`
  /// manages its registers itself and is left alone.
  std::map<std::string, uint32_t> registerCaps;
  bool verify = true; ///< run the IR verifier on the result
  std::string label;  ///< names the module in messages
  /// When set, the instrumented PTX goes to `write` in pieces as the passes finish each function
  /// (the result's `ptx` stays empty), and each function's statements are dropped once written:
  /// a large module is never held whole beside the instrumentation code of every function and
  /// the instrumented text (`ocelot ptx instrument`). After a failure, what was written is
  /// incomplete.
  std::function<void(std::string_view)> write;
};

/// The instrumentation pipeline for one PTX module (GPU Ocelot's Figure 3 with the framework
/// around it): parse; each instrumentor's analyze(); the buffer plan (hidden parameters, slot
/// threading, entry blocks); redirection of global variables to the application's module;
/// translation of function addresses to and from the application's; the instrumentors' passes in
/// one pass manager run; verification; emission. Kernels that cannot keep function-pointer
/// identity are left out of `kernels` and listed in `exclusions`. Any failure (PTX that
/// does not parse, an instrumentor that throws, IR the verifier rejects) gives a result that is
/// not ok and says why; nothing is thrown.
InstrumentedPtx instrumentModule(std::string_view ptx, const std::vector<SlotRequest>& slots,
                                 const InstrumentOptions& options);

/// The same on a module the caller parsed: for large modules, ir::parsePtxBuffer parses the text
/// where it is and frees it, so that neither the text nor a copy of it is in memory while the
/// module is instrumented. The module is consumed.
InstrumentedPtx instrumentModule(std::unique_ptr<ir::Module> module,
                                 const std::vector<SlotRequest>& slots,
                                 const InstrumentOptions& options);

} // namespace ocelot::instrumentors
