#include "runtime/core/ModulePipeline.h"

#include "ir/Emitter.h"
#include "ir/Parser.h"
#include "runtime/fatbin/Decompress.h"

namespace ocelot::runtime {
namespace {

std::string deviceName(fatbin::ComputeCapability capability) {
  return "sm_" + std::to_string(capability.number());
}

/// "compute_75, compute_90" for a log line that says which PTX there was.
std::string ptxArchitectures(const fatbin::Container& container) {
  std::string list;
  for (const fatbin::Entry& entry : container.entries)
    if (entry.is(fatbin::EntryKind::Ptx))
      list += (list.empty() ? "" : ", ") + entry.archName();
  return list.empty() ? "none" : list;
}

/// One unit through the pipeline: select, extract, parse, (transform), emit.
Expected<std::string, PipelineFailure> buildUnit(const FatbinaryUnit& unit,
                                                 fatbin::ComputeCapability capability,
                                                 const std::string& unitLabel) {
  std::vector<const fatbin::Entry*> entries;
  for (const fatbin::Entry& entry : unit.container.entries)
    entries.push_back(&entry);
  const fatbin::Entry* ptx = fatbin::selectPtx(entries, capability);
  if (ptx == nullptr)
    return PipelineFailure{unitLabel + " has no PTX for " + deviceName(capability) +
                           " (PTX: " + ptxArchitectures(unit.container) + ")"};
  auto text = fatbin::extractPtx(*ptx);
  if (!text)
    return PipelineFailure{unitLabel + ": " + text.error().message()};
  ir::ParseResult parsed = ir::parsePtx(*text, unitLabel + "." + ptx->archName() + ".ptx");
  if (!parsed.ok())
    return PipelineFailure{unitLabel + ": PTX does not parse: " + parsed.firstError()};
  // Instrumentation passes will run on parsed.module here; with none configured the module is
  // emitted unchanged, which still proves the round trip on every kernel the application runs.
  return ir::emitPtx(*parsed.module);
}

} // namespace

std::string ModulePipeline::label(const FatbinaryRegistration& registration) {
  return "module " + std::to_string(registration.id) + " (" + registration.imagePath + ")";
}

Expected<ModuleImage, PipelineFailure>
ModulePipeline::build(const FatbinaryRegistration& registration,
                      fatbin::ComputeCapability capability) const {
  if (!registration.readError.empty())
    return PipelineFailure{registration.readError};
  ModuleImage image;
  image.label = label(registration);
  const auto& units = registration.linked() ? registration.prelinkedUnits : registration.mainUnits;
  if (units.empty())
    return PipelineFailure{"no device code was registered"};
  for (size_t i = 0; i < units.size(); ++i) {
    std::string unitLabel = registration.linked() ? "unit " + std::to_string(i) : "the module";
    auto ptx = buildUnit(units[i], capability, unitLabel);
    if (!ptx)
      return ptx.error();
    image.ptx.push_back(std::move(*ptx));
  }
  image.form = registration.linked() ? ModuleImage::Form::LinkedPtx : ModuleImage::Form::Ptx;
  return image;
}

ModuleImage ModulePipeline::original(const FatbinaryRegistration& registration) {
  ModuleImage image;
  image.form = ModuleImage::Form::Original;
  image.label = label(registration);
  if (!registration.mainUnits.empty())
    image.original = registration.mainUnits.front().bytes;
  return image;
}

} // namespace ocelot::runtime
