#include "runtime/core/ModulePipeline.h"

#include "instrumentors/FunctionAddressTable.h"
#include "ir/Emitter.h"
#include "ir/Module.h"
#include "ir/Parser.h"
#include "runtime/core/ParseErrors.h"
#include "runtime/fatbin/Decompress.h"

#include <exception>

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

/// The best PTX of one unit for the device, decompressed, or why there is none.
support::Expected<std::string, PipelineFailure> selectUnitPtx(const FatbinaryUnit& unit,
                                                              fatbin::ComputeCapability capability,
                                                              const std::string& unitLabel,
                                                              std::string* archName) {
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
  *archName = ptx->archName();
  return std::move(*text);
}

/// Whether a linked unit is the CUDA device runtime library (cudadevrt, linked into -rdc programs
/// that launch kernels from device code). It carries PTX only for the newest architecture, and its
/// functions are the device runtime's calls into the driver (cnp*), which a device provides
/// itself: the CPU device implements the __cudaCDP2* calls, and JIT linking resolves them on a
/// GPU. Such a unit without PTX for the device is left out instead of failing the module.
bool isDeviceRuntimeUnit(const FatbinaryUnit& unit) {
  for (const fatbin::Entry& entry : unit.container.entries) {
    if (!entry.is(fatbin::EntryKind::Ptx))
      continue;
    auto text = fatbin::extractPtx(entry);
    if (text && text->find("__cudaCDP2GetParameterBufferV2") != std::string::npos &&
        text->find("cnpGetParameterBufferV2") != std::string::npos)
      return true;
  }
  return false;
}

} // namespace

std::string ModulePipeline::label(const FatbinaryRegistration& registration) {
  return "module " + std::to_string(registration.id) + " (" + registration.imagePath + ")";
}

support::Expected<ModuleImage, PipelineFailure>
ModulePipeline::build(const FatbinaryRegistration& registration,
                      fatbin::ComputeCapability capability, bool keepIr) const {
  if (!registration.readError.empty())
    return PipelineFailure{registration.readError};
  ModuleImage image;
  image.label = label(registration);
  const auto& units = registration.linked() ? registration.prelinkedUnits : registration.mainUnits;
  if (units.empty())
    return PipelineFailure{"no device code was registered"};
  for (size_t i = 0; i < units.size(); ++i) {
    std::string unitLabel = registration.linked() ? "unit " + std::to_string(i) : "the module";
    std::string archName;
    auto text = selectUnitPtx(units[i], capability, unitLabel, &archName);
    if (!text && registration.linked() && isDeviceRuntimeUnit(units[i]))
      continue;
    if (!text)
      return text.error();
    auto processed =
        process(*text, unitLabel, unitLabel + "." + archName + ".ptx", static_cast<uint32_t>(i));
    if (!processed)
      return processed.error();
    image.ptx.push_back(std::move(processed->text));
    if (keepIr)
      image.units.push_back(std::move(processed->module));
  }
  image.form = registration.linked() ? ModuleImage::Form::LinkedPtx : ModuleImage::Form::Ptx;
  return image;
}

support::Expected<std::string, PipelineFailure>
ModulePipeline::buildText(std::string_view ptx, const std::string& label) const {
  auto processed = process(ptx, label, label + ".ptx", std::nullopt);
  if (!processed)
    return processed.error();
  return std::move(processed->text);
}

void ModulePipeline::setTransform(ModuleTransform transform) {
  auto shared = transform ? std::make_shared<const ModuleTransform>(std::move(transform)) : nullptr;
  std::lock_guard lock(transformMutex_);
  transform_ = std::move(shared);
}

// Every module goes parse -> passes -> emit. With no passes configured the module is emitted
// unchanged, which still proves the round trip on every kernel the application runs.
support::Expected<ModulePipeline::Processed, PipelineFailure>
ModulePipeline::process(std::string_view ptx, const std::string& label, const std::string& fileName,
                        std::optional<uint32_t> unit) const {
  ir::ParseResult parsed = ir::parsePtx(ptx, fileName);
  if (!parsed.ok())
    return PipelineFailure{label + ": PTX does not parse: " + parsed.firstError(),
                           parseFailureError(parsed)};
  std::shared_ptr<const ModuleTransform> transform;
  {
    std::lock_guard lock(transformMutex_);
    transform = transform_;
  }
  if (transform != nullptr) {
    // Never take the application down: a failing or throwing pass means the original code runs.
    try {
      if (std::optional<std::string> error = (*transform)(*parsed.module, label))
        return PipelineFailure{label + ": passes failed: " + *error};
    } catch (const std::exception& exception) {
      return PipelineFailure{label + ": a pass threw: " + exception.what()};
    } catch (...) {
      return PipelineFailure{label + ": a pass threw an unknown exception"};
    }
  }
  // Instrumented copies keep the function addresses this module gives its functions: they read
  // them back from the table (after the passes, so that it lists what the loaded code takes).
  if (unit)
    instrumentors::addFunctionAddressTable(*parsed.module, *unit);
  // The IR kept beside the text has the text's lines (what the passes and the table added had
  // none): instrumented copies cloned from it are emitted exactly as from a parse of the text.
  std::string text = ir::emitPtxNumberingLines(*parsed.module);
  return Processed{std::move(text), std::move(parsed.module)};
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
