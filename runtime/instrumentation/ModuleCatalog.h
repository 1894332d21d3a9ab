#pragma once

#include "ir/ModuleLinker.h"
#include "ocelot/Instrumentor.h"
#include "runtime/core/Device.h"
#include "runtime/core/ModulePipeline.h"
#include "runtime/core/Registration.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ocelot::runtime::instrumentation {

/// What the instrumentation needs to know about a kernel before instrumenting it.
struct CatalogKernel {
  KernelFacts facts;
  uint32_t parameters = 0; ///< the application's parameters (args entries of a launch)
  uint32_t unit = 0;       ///< the unit of a device-linked program that defines it
};

/// A registration's PTX for one device, as the module pipeline selects and emits it, with the
/// facts of each kernel; or why there is none.
/// The largest PTX (all units) whose IR a catalog entry keeps for instrumented copies.
inline constexpr size_t kKeptIrTextBytes = size_t{8} << 20;

struct CatalogEntry {
  bool ok = false;
  std::string error;
  std::vector<std::string> units; ///< one PTX text, or one per unit of a device-linked program
  /// The IR each of `units` was emitted from (with the text's lines), parsed once by the module
  /// pipeline: instrumented copies start from clones of it instead of parsing the text again.
  /// Only read after the entry is built, so clones may be taken on any thread. Empty for modules
  /// whose text exceeds kKeptIrTextBytes: their copies parse the text.
  std::vector<std::shared_ptr<const ir::Module>> modules;
  bool linked = false;
  /// A device-linked program whose units Ocelot linked into one module (ir::linkModules): its
  /// instrumented copies are that module instrumented once, so that kernels and the device
  /// functions of other units they call are instrumented together. Every kernel's `unit` is 0.
  bool wholeProgram = false;
  /// The linked IR instrumented copies clone (empty when the units' IR is not kept: each copy
  /// then parses and links the units).
  std::shared_ptr<const ir::Module> linkedModule;
  /// Unit-local symbols the linker renamed: their name in the linked module -> their name in
  /// their unit, which is what the application's module knows them by (variable addresses).
  std::unordered_map<std::string, std::string> originalNames;
  /// Why a device-linked program's units were not linked (its units are instrumented one by one,
  /// as they were before linking existed), or empty.
  std::string linkWarning;
  std::string label;
  std::unordered_map<std::string, CatalogKernel> kernels;
};

/// The PTX of every registration on every device, read and parsed once (through the module
/// pipeline, so instrumented modules start from exactly the PTX the uninstrumented ones do), with
/// the IR it was emitted from. Thread safe.
class ModuleCatalog {
public:
  explicit ModuleCatalog(const ModulePipeline& pipeline) : pipeline_(pipeline) {}

  std::shared_ptr<const CatalogEntry> get(const FatbinaryRegistration& registration, int ordinal,
                                          const Device& device);
  void forgetDevice(int ordinal);
  void forgetRegistration(uint64_t id);

  /// The facts of every kernel of PTX `units` (also for `ocelot ptx instrument`).
  static std::unordered_map<std::string, CatalogKernel>
  describeKernels(const std::vector<std::string>& units, std::string* error);
  /// The units of a device-linked program linked into one module ("unit N" in messages).
  static ir::LinkResult link(const std::vector<const ir::Module*>& units);
  /// The same from units already parsed (the module pipeline's IR).
  static std::unordered_map<std::string, CatalogKernel>
  describeKernels(const std::vector<const ir::Module*>& units);

private:
  const ModulePipeline& pipeline_;
  std::mutex mutex_;
  std::map<std::pair<uint64_t, int>, std::shared_ptr<const CatalogEntry>> entries_;
};

} // namespace ocelot::runtime::instrumentation
