#include "runtime/instrumentation/ModuleCatalog.h"

#include "ir/Parser.h"

namespace ocelot::runtime::instrumentation {

std::unordered_map<std::string, CatalogKernel>
ModuleCatalog::describeKernels(const std::vector<std::string>& units, std::string* error) {
  std::vector<std::unique_ptr<ir::Module>> parsed;
  for (uint32_t u = 0; u < units.size(); ++u) {
    ir::ParseResult result = ir::parsePtx(units[u], "unit" + std::to_string(u));
    if (!result.ok()) {
      if (error != nullptr)
        *error = "PTX does not parse: " + result.firstError();
      return {};
    }
    parsed.push_back(std::move(result.module));
  }
  std::vector<const ir::Module*> modules;
  for (const auto& module : parsed)
    modules.push_back(module.get());
  return describeKernels(modules);
}

std::unordered_map<std::string, CatalogKernel>
ModuleCatalog::describeKernels(const std::vector<const ir::Module*>& units) {
  std::unordered_map<std::string, CatalogKernel> kernels;
  for (uint32_t u = 0; u < units.size(); ++u) {
    uint32_t functionBlocks = 0;
    for (const ir::Function* f : units[u]->functions())
      if (!f->isEntry() && f->hasBody())
        functionBlocks += static_cast<uint32_t>(f->blocks().size());
    for (const ir::Function* f : units[u]->functions()) {
      if (!f->isEntry() || !f->hasBody())
        continue;
      CatalogKernel kernel;
      kernel.facts.basicBlocks = static_cast<uint32_t>(f->blocks().size());
      kernel.facts.deviceFunctionBlocks = functionBlocks;
      kernel.facts.instructions = static_cast<uint32_t>(f->instructionCount());
      for (const auto& spec : f->signature().parameters)
        kernel.parameters += static_cast<uint32_t>(spec.declarators.size());
      kernel.unit = u;
      kernels.emplace(std::string(f->name()), kernel);
    }
  }
  return kernels;
}

ir::LinkResult ModuleCatalog::link(const std::vector<const ir::Module*>& units) {
  std::vector<ir::LinkUnit> linkUnits;
  for (size_t u = 0; u < units.size(); ++u)
    linkUnits.push_back({units[u], "unit " + std::to_string(u)});
  return ir::linkModules(linkUnits);
}

std::shared_ptr<const CatalogEntry> ModuleCatalog::get(const FatbinaryRegistration& registration,
                                                       int ordinal, const Device& device) {
  const auto key = std::make_pair(registration.id, ordinal);
  {
    std::lock_guard lock(mutex_);
    if (auto it = entries_.find(key); it != entries_.end())
      return it->second;
  }
  // Built outside the lock (decompression and parsing take milliseconds); a concurrent builder of
  // the same entry wastes that work, and the first to finish wins.
  auto entry = std::make_shared<CatalogEntry>();
  entry->label = ModulePipeline::label(registration);
  // With the IR the text was emitted from: the kernels' facts come from it, not from a parse of
  // the text.
  auto built = pipeline_.build(registration, device.computeCapability(), /*keepIr=*/true);
  if (!built) {
    entry->error = built.error().reason;
  } else if (built->form == ModuleImage::Form::Original || built->ptx.empty()) {
    entry->error = "no PTX to instrument";
  } else {
    entry->units = std::move(built->ptx);
    entry->linked = built->form == ModuleImage::Form::LinkedPtx;
    std::vector<const ir::Module*> modules;
    for (auto& unit : built->units) {
      modules.push_back(unit.get());
      entry->modules.push_back(std::move(unit));
    }
    // A device-linked program is linked at PTX level so that it is instrumented as a whole; if
    // that fails, each unit is instrumented on its own (functions other units call stay
    // uncounted), and the reason is logged once.
    std::shared_ptr<const ir::Module> linked;
    if (entry->linked && modules.size() == entry->units.size()) {
      ir::LinkResult result = link(modules);
      linked = std::move(result.module);
      for (const ir::LinkRenaming& r : result.renamed)
        entry->originalNames.emplace(r.to, r.from);
      if (!linked)
        entry->linkWarning = "the units of the -rdc program were not linked (" + result.error +
                             "): each is instrumented on its own, so device functions that other "
                             "units call are not counted";
    }
    entry->kernels = linked ? describeKernels({linked.get()}) : describeKernels(modules);
    entry->wholeProgram = linked != nullptr;
    entry->linkedModule = std::move(linked);
    entry->ok = entry->modules.size() == entry->units.size();
    if (!entry->ok)
      entry->error = "the module pipeline kept no IR for " + entry->label;
    // The IR is several times the text (a 15 MB debug module: 80 MB): past kKeptIrTextBytes the
    // entry keeps the text only, and instrumented copies parse it (issue 18's memory bounds).
    size_t textBytes = 0;
    for (const std::string& unit : entry->units)
      textBytes += unit.size();
    if (textBytes > kKeptIrTextBytes) {
      entry->modules.clear();
      entry->linkedModule.reset();
    }
  }
  std::lock_guard lock(mutex_);
  auto [it, inserted] = entries_.emplace(key, entry);
  return it->second;
}

void ModuleCatalog::forgetDevice(int ordinal) {
  std::lock_guard lock(mutex_);
  std::erase_if(entries_, [&](const auto& e) { return e.first.second == ordinal; });
}

void ModuleCatalog::forgetRegistration(uint64_t id) {
  std::lock_guard lock(mutex_);
  std::erase_if(entries_, [&](const auto& e) { return e.first.first == id; });
}

} // namespace ocelot::runtime::instrumentation
