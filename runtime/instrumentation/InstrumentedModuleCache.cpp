#include "runtime/instrumentation/InstrumentedModuleCache.h"

#include "ir/ModuleClone.h"
#include "ir/Parser.h"
#include "runtime/core/ErrorTable.h"

#include <chrono>
#include <typeinfo>

namespace ocelot::runtime::instrumentation {

bool LoadedInstrumentation::instrumented(const std::string& kernel, std::string* why) const {
  if (kernels_.contains(kernel))
    return true;
  if (why != nullptr) {
    auto it = excluded_.find(kernel);
    *why = it != excluded_.end() ? "the kernel is not instrumented: " + it->second
                                 : "the kernel is not in the instrumented module";
  }
  return false;
}

cudaError_t LoadedInstrumentation::function(Device& device, const std::string& name,
                                            DeviceFunction* function) {
  std::lock_guard lock(functionsMutex_);
  if (auto it = functions_.find(name); it != functions_.end()) {
    *function = it->second;
    return cudaSuccess;
  }
  DeviceFunction found = nullptr;
  if (cudaError_t error = device.function(module_, name.c_str(), &found); error != cudaSuccess)
    return error;
  functions_.emplace(name, found);
  *function = found;
  return cudaSuccess;
}

std::string InstrumentedModuleCache::key(uint64_t registration, int ordinal,
                                         const std::vector<SlotChoice>& slots) {
  // Instrumentors are immutable, so the code depends only on what each one is (its type, name
  // and options) and the variant, not on its handle: an instrumentor removed and added again
  // between launches (online toggling) reuses the module instead of instrumenting and JIT-compiling
  // it once more, and the cache stays bounded by the distinct configurations.
  std::string text = std::to_string(registration) + "/" + std::to_string(ordinal);
  for (const SlotChoice& s : slots) {
    text += '/';
    if (s.instrumentor != nullptr) {
      text += identity(s.instrumentor);
    } else {
      text += "#" + std::to_string(s.handle);
    }
    text += '.' + std::to_string(s.variant);
  }
  return text;
}

std::string
InstrumentedModuleCache::identity(const std::shared_ptr<const PTXInstrumentor>& instrumentor) {
  std::lock_guard lock(identitiesMutex_);
  auto found = identities_.find(instrumentor.get());
  if (found != identities_.end() && found->second.instrumentor.lock() == instrumentor)
    return found->second.text;
  const PTXInstrumentor& object = *instrumentor;
  std::string text = std::string(typeid(object).name()) + ':' + std::string(object.name()) + '(' +
                     object.options() + ')';
  if (found == identities_.end() && identities_.size() >= 64)
    std::erase_if(identities_,
                  [](const auto& entry) { return entry.second.instrumentor.expired(); });
  identities_[instrumentor.get()] = {instrumentor, text};
  return text;
}

void InstrumentedModuleCache::forgetFailed(const std::shared_ptr<LoadedInstrumentation>& module) {
  if (!module || module->ok())
    return;
  std::lock_guard lock(mutex_);
  std::erase_if(entries_, [&](const auto& entry) {
    // A slot being built (its building mutex held, possibly through a JIT) is not ours: ours
    // is built. One held for a moment to return ours stays remembered; that is rare and safe.
    std::unique_lock building(entry.second->building, std::try_to_lock);
    return building.owns_lock() && entry.second->module == module;
  });
}

std::shared_ptr<LoadedInstrumentation> InstrumentedModuleCache::get(
    const CatalogEntry& catalog, const std::string& configuration, uint64_t registration,
    int ordinal, const std::vector<SlotChoice>& slots, const RegisterCaps& caps, Device& device,
    const AddressOf& addresses, const instrumentors::OriginalFunctionAddresses& functionAddresses,
    bool* built) {
  std::string fullKey = configuration;
  for (const auto& [kernel, cap] : caps)
    fullKey += "|" + kernel + ".maxnreg=" + std::to_string(cap);
  std::shared_ptr<Slot> slot;
  {
    std::lock_guard lock(mutex_);
    auto& entry = entries_[fullKey];
    if (!entry) {
      entry = std::make_shared<Slot>();
      entry->registration = registration;
      entry->ordinal = ordinal;
    }
    slot = entry;
  }
  std::lock_guard building(slot->building);
  if (built != nullptr)
    *built = !slot->module;
  if (!slot->module) {
    auto module = std::make_shared<LoadedInstrumentation>();
    build(catalog, slots, caps, device, addresses, functionAddresses, *module);
    slot->module = std::move(module);
  }
  return slot->module;
}

void InstrumentedModuleCache::build(
    const CatalogEntry& catalog, const std::vector<SlotChoice>& slots, const RegisterCaps& caps,
    Device& device, const AddressOf& addresses,
    const instrumentors::OriginalFunctionAddresses& functionAddresses, LoadedInstrumentation& out) {
  out.slots_ = slots;
  std::vector<instrumentors::SlotRequest> requests;
  for (const SlotChoice& s : slots)
    requests.push_back({s.instrumentor.get(), s.variant});
  // Without the IR (a module too large to keep it, kKeptIrTextBytes) each copy parses the text.
  const bool fromIr = catalog.modules.size() == catalog.units.size();
  ModuleImage image;
  image.form = catalog.linked ? ModuleImage::Form::LinkedPtx : ModuleImage::Form::Ptx;
  image.label = catalog.label + " (instrumented)";
  // One module: the catalog's IR copied, or parsed from its text. The copy's time is the parse
  // step's. False with out.error_ set when instrumenting failed.
  auto instrument = [&](std::unique_ptr<ir::Module> copy, const std::string* text, double copyMs,
                        const instrumentors::InstrumentOptions& options) {
    instrumentors::InstrumentedPtx unit = copy
                                              ? instrumentModule(std::move(copy), requests, options)
                                              : instrumentModule(*text, requests, options);
    if (!copy)
      copyMs = unit.timings.parseMs;
    if (!unit.ok) {
      out.error_ = "instrumenting " + options.label + " failed at " + unit.error;
      return false;
    }
    out.timings_.parseMs += copyMs;
    out.timings_.analyzeMs += unit.timings.analyzeMs;
    out.timings_.passesMs += unit.timings.passesMs;
    out.timings_.emitMs += unit.timings.emitMs;
    out.kernels_.insert(unit.kernels.begin(), unit.kernels.end());
    for (const auto& exclusion : unit.exclusions)
      out.excluded_.emplace(exclusion.function, exclusion.reason);
    out.states_.push_back(std::move(unit.states));
    image.ptx.push_back(std::move(unit.ptx));
    return true;
  };
  auto optionsFor = [&](const std::string& label, bool linkedUnit) {
    instrumentors::InstrumentOptions options;
    options.addresses = addresses;
    options.functionAddresses = functionAddresses;
    options.linked = linkedUnit;
    // The launch clock's completion word: launches on the result ring need no event after the
    // kernel (InstrumentationFramework::launchInstrumented); others pass address 0.
    options.completionWord = true;
    options.registerCaps = caps;
    options.label = label;
    return options;
  };
  if (catalog.wholeProgram) {
    // The linked program: instrumented once, as a whole (no other unit calls into it; what stays
    // .extern is the device runtime's, resolved by the device's linker as before).
    auto options = optionsFor(catalog.label + " (linked units)", false);
    // A renamed unit-local variable lives in the application's module under its own name.
    if (!catalog.originalNames.empty())
      options.addresses = [&addresses, &names = catalog.originalNames](std::string_view name) {
        auto it = names.find(std::string(name));
        return addresses(it != names.end() ? std::string_view(it->second) : name);
      };
    auto start = std::chrono::steady_clock::now();
    std::unique_ptr<ir::Module> copy;
    if (catalog.linkedModule) {
      copy = ir::cloneModule(*catalog.linkedModule);
    } else {
      std::vector<std::unique_ptr<ir::Module>> parsed;
      std::vector<const ir::Module*> units;
      for (size_t u = 0; u < catalog.units.size(); ++u) {
        ir::ParseResult result = ir::parsePtx(catalog.units[u], "unit" + std::to_string(u));
        if (!result.ok()) {
          out.error_ = "unit " + std::to_string(u) + " does not parse: " + result.firstError();
          return;
        }
        units.push_back(result.module.get());
        parsed.push_back(std::move(result.module));
      }
      ir::LinkResult linked = ModuleCatalog::link(units);
      if (!linked.ok()) {
        out.error_ = "linking the units failed: " + linked.error;
        return;
      }
      copy = std::move(linked.module);
    }
    double copyMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (!instrument(std::move(copy), nullptr, copyMs, options))
      return;
  } else {
    for (size_t u = 0; u < catalog.units.size(); ++u) {
      auto options = optionsFor(
          catalog.label + (catalog.linked ? " unit " + std::to_string(u) : ""), catalog.linked);
      // A copy of the catalog's IR, not a parse of its text: each module image is parsed once,
      // however many instrumented copies it gets.
      auto start = std::chrono::steady_clock::now();
      std::unique_ptr<ir::Module> copy;
      if (fromIr)
        copy = ir::cloneModule(*catalog.modules[u]);
      double copyMs =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
              .count();
      if (!instrument(std::move(copy), &catalog.units[u], copyMs, options))
        return;
    }
  }
  std::string log;
  auto start = std::chrono::steady_clock::now();
  cudaError_t error = device.loadModule(image, &out.module_, &log);
  out.jitMs_ =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (error != cudaSuccess) {
    out.error_ = "the device refused the instrumented module (" + std::string(errorName(error)) +
                 (log.empty() ? "" : ": " + log) + ")";
    return;
  }
  out.ok_ = true;
  // Resolve (and so load) every instrumented kernel now, while nothing of the application waits
  // on the device: under lazy loading a kernel's code loads at its first use, and loading waits
  // for the device to go idle, which a kernel spinning on a host flag never lets it do.
  for (const std::string& kernel : out.kernels_) {
    DeviceFunction function = nullptr;
    out.function(device, kernel, &function);
  }
}

void InstrumentedModuleCache::forgetDevice(int ordinal) {
  std::lock_guard lock(mutex_);
  generation_.fetch_add(1, std::memory_order_acq_rel);
  std::erase_if(entries_, [&](const auto& e) { return e.second->ordinal == ordinal; });
}

void InstrumentedModuleCache::forgetRegistration(
    uint64_t id, const std::function<void(int, DeviceModule)>& unload) {
  std::vector<std::shared_ptr<Slot>> taken;
  {
    std::lock_guard lock(mutex_);
    generation_.fetch_add(1, std::memory_order_acq_rel);
    for (auto it = entries_.begin(); it != entries_.end();) {
      if (it->second->registration == id) {
        taken.push_back(it->second);
        it = entries_.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (const auto& slot : taken) {
    std::lock_guard building(slot->building);
    if (slot->module && slot->module->ok())
      unload(slot->ordinal, slot->module->module());
  }
}

} // namespace ocelot::runtime::instrumentation
