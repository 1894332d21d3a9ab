#include "runtime/core/PtxDump.h"

#include "ir/Emitter.h"
#include "ir/Parser.h"
#include "runtime/fatbin/Decompress.h"

#include <cstdlib>
#include <fstream>
#include <system_error>

namespace ocelot::runtime {
namespace {

std::string join(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names)
    text += (text.empty() ? "" : ",") + name;
  return text.empty() ? "-" : text;
}

/// Runs the text through Ocelot's parser and emitter; "ok" or the first problem. Collects the
/// names of the .entry functions on the way.
std::string checkPipeline(const std::string& text, const std::string& fileName,
                          std::vector<std::string>& kernels) {
  ir::ParseResult parsed = ir::parsePtx(text, fileName);
  if (!parsed.ok())
    return "parse-error: " + parsed.firstError();
  for (const ir::Function* function : parsed.module->functions())
    if (function->isEntry() && function->hasBody())
      kernels.emplace_back(function->name());
  ir::ParseResult reparsed = ir::parsePtx(ir::emitPtx(*parsed.module), fileName);
  if (!reparsed.ok() || !reparsed.module->equals(*parsed.module))
    return "emit-mismatch";
  return "ok";
}

/// Tabs and newlines would break the index format; diagnostics may contain them.
std::string field(std::string text) {
  for (char& c : text)
    if (c == '\t' || c == '\n' || c == '\r')
      c = ' ';
  return text;
}

} // namespace

std::unique_ptr<PtxDump> PtxDump::fromEnvironment() {
  const char* directory = std::getenv("OCELOT_DUMP_PTX");
  if (directory == nullptr || directory[0] == '\0')
    return nullptr;
  return std::make_unique<PtxDump>(directory);
}

void PtxDump::write(const FatbinaryRegistration& registration,
                    const std::vector<const RegisteredFunction*>& kernels, const Logger& logger) {
  std::lock_guard lock(mutex_);
  std::error_code error;
  std::filesystem::create_directories(directory_, error);
  std::ofstream index(directory_ / "index.tsv", std::ios::app);
  if (!index) {
    logger.warn("OCELOT_DUMP_PTX: cannot write " + (directory_ / "index.tsv").string());
    return;
  }
  std::vector<std::string> registered;
  for (const RegisteredFunction* kernel : kernels)
    registered.push_back(kernel->deviceName);
  std::string module = "module" + std::to_string(registration.id);
  std::string common = "module=" + std::to_string(registration.id) +
                       "\timage=" + field(registration.imagePath) +
                       "\twrapper=" + std::to_string(registration.wrapperVersion);
  if (!registration.readError.empty()) {
    index << common << "\terror=" << field(registration.readError) << '\n';
    return;
  }

  auto dumpUnit = [&](const FatbinaryUnit& unit, const std::string& unitName) {
    for (size_t i = 0; i < unit.container.entries.size(); ++i) {
      const fatbin::Entry& entry = unit.container.entries[i];
      std::string line =
          common + "\tunit=" + unitName + "\tentry=" + std::to_string(i) +
          "\tkind=" + fatbin::kindName(entry.kind) +
          "\tcompression=" + std::string(fatbin::compressionName(entry.compression)) +
          "\tarch=" + entry.archName() + "\tversion=" + std::to_string(entry.majorVersion) + "." +
          std::to_string(entry.minorVersion);
      if (entry.is(fatbin::EntryKind::Ptx)) {
        auto text = fatbin::extractPtx(entry);
        if (!text) {
          index << line << "\terror=" << field(text.error().message()) << '\n';
          continue;
        }
        std::string fileName = module + "-" + unitName + "-entry" + std::to_string(i) + "-" +
                               entry.archName() + ".ptx";
        std::ofstream(directory_ / fileName, std::ios::binary) << *text;
        std::vector<std::string> ptxKernels;
        std::string pipeline = checkPipeline(*text, fileName, ptxKernels);
        line += "\tbytes=" + std::to_string(text->size()) + "\tfile=" + fileName +
                "\tpipeline=" + field(pipeline) + "\tptx-kernels=" + join(ptxKernels);
      } else {
        line += "\tbytes=" + std::to_string(entry.compression == fatbin::Compression::None
                                                ? entry.payload.size()
                                                : entry.uncompressedSize);
      }
      index << line << "\tregistered-kernels=" << join(registered) << '\n';
    }
  };
  for (const FatbinaryUnit& unit : registration.mainUnits)
    dumpUnit(unit, "main");
  for (size_t i = 0; i < registration.prelinkedUnits.size(); ++i)
    dumpUnit(registration.prelinkedUnits[i], "prelinked-" + std::to_string(i));
  logger.info("OCELOT_DUMP_PTX: wrote " + module + " to " + directory_.string());
}

} // namespace ocelot::runtime
