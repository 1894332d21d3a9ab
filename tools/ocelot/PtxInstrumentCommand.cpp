// `ocelot ptx instrument -i LIST FILE [-o OUT]`: the PTX a module becomes when instrumentors are
// active, offline (no GPU, no application). Global variables are redirected to address 0 here, so
// the output shows the code and assembles with ptxas but must not be run.

#include "instrumentors/InstrumentorRegistry.h"
#include "instrumentors/ModuleInstrumenter.h"
#include "ir/Parser.h"
#include "tools/ocelot/CommandLine.h"
#include "tools/ocelot/Commands.h"

#include <boost/program_options.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

namespace po = boost::program_options;

namespace ocelot::tools {

namespace {

void printUsage(std::ostream& out, const po::options_description& options) {
  out << "usage: ocelot ptx instrument -i LIST FILE [-o OUT]\n"
         "       ocelot ptx instrument -i LIST --linked FILE FILE... [-o OUT]\n\n"
         "Prints FILE instrumented by the instrumentors of LIST, comma-separated names or plugin\n"
         "paths with options: bbcount, bbcount-warp, bbcount-thread, ctaclock,\n"
         "bbcount:mode=per-thread, /path/libmine.so:key=value. The hidden kernel parameter\n"
         "__ocelot_instrumentation holds one buffer pointer per instrumentor. Global variables "
         "are\n"
         "redirected to address 0 (offline there is no application module): assemble the output,\n"
         "do not run it. FILE - reads standard input. With --linked and several files, the files\n"
         "are the units of a -rdc program: they are linked into one module (ocelot ptx link)\n"
         "and that is instrumented as a whole, as the runtime does.\n\n"
      << options;
  instrumentors::InstrumentorRegistry registry;
  printInstrumentorHelp(out, registry);
}

} // namespace

int runPtxInstrumentCommand(const std::vector<std::string>& args) {
  po::options_description options("options");
  options.add_options()("help,h", "show this help")("instrumentors,i", po::value<std::string>(),
                                                    "instrumentors to apply (see above)")(
      "output,o", po::value<std::string>(), "write the PTX to this file instead of stdout")(
      "linked", "one FILE: treat it as one unit of a device-linked (-rdc) program; several: link "
                "them and instrument the linked program")(
      "verbose,v", "print timings and the functions left uninstrumented to stderr")(
      "list", "list the registered instrumentors");
  po::options_description hidden;
  hidden.add_options()("file", po::value<std::vector<std::string>>());
  po::positional_options_description positional;
  positional.add("file", -1);
  po::variables_map vm;
  if (auto status = parseCommandLine("ocelot ptx instrument", args, options, hidden, positional,
                                     printUsage, vm))
    return *status;
  instrumentors::InstrumentorRegistry registry;
  if (vm.count("list")) {
    for (const auto& [name, description] : registry.list())
      std::cout << name << "\t" << description << "\n";
    return 0;
  }
  if (!vm.count("file") || !vm.count("instrumentors")) {
    printUsage(std::cerr, options);
    return 2;
  }

  std::vector<std::shared_ptr<const PTXInstrumentor>> made;
  std::vector<instrumentors::SlotRequest> slots;
  try {
    for (const auto& spec :
         instrumentors::parseInstrumentorList(vm["instrumentors"].as<std::string>())) {
      std::string name = spec.name;
      if (spec.isPath) {
        auto names = registry.loadPlugin(spec.name);
        name = names.front();
      }
      made.push_back(registry.create(name, spec.options));
      // Offline there is no launch: the variant of a one-thread launch (the configured mode).
      VariantChoice choice = made.back()->variant(LaunchInfo{}, KernelFacts{});
      slots.push_back({made.back().get(), choice.variant});
    }
  } catch (const std::exception& e) {
    std::cerr << "ocelot ptx instrument: " << e.what() << "\n";
    return 2;
  }

  const std::vector<std::string> files = vm["file"].as<std::vector<std::string>>();
  const std::string file = files.front();
  if (files.size() > 1 && !vm.count("linked")) {
    std::cerr << "ocelot ptx instrument: several files are the units of one -rdc program: pass "
                 "--linked to link and instrument them\n";
    return 2;
  }
  std::string text;
  std::unique_ptr<ir::Module> linked;
  std::string linkError;
  try {
    if (vm.count("output"))
      checkWritable("output", vm["output"].as<std::string>());
    if (files.size() > 1)
      linked = linkPtxFiles(files, vm.count("verbose") != 0, &linkError);
    else
      text = readInput(file);
  } catch (const std::invalid_argument& e) {
    std::cerr << "ocelot ptx instrument: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "ocelot ptx instrument: " << e.what() << "\n";
    return 1;
  }

  instrumentors::InstrumentOptions instrumentOptions;
  instrumentOptions.label = inputName(file);
  // Several units linked into one are the whole program: no other unit calls its functions.
  instrumentOptions.linked = vm.count("linked") != 0 && files.size() == 1;
  if (files.size() > 1 && !linked) {
    std::cerr << "ocelot ptx instrument: linking failed: " << linkError << "\n";
    return 1;
  }
  // Parsed where it was read and freed: a large module's text is not kept beside its IR.
  auto parseStart = std::chrono::steady_clock::now();
  ir::ParseResult parsed;
  if (linked)
    parsed.module = std::move(linked);
  else
    parsed = ir::parsePtxBuffer(std::move(text), instrumentOptions.label);
  double parseMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - parseStart)
          .count();
  if (!parsed.ok()) {
    std::cerr << parsed.firstError() << "\n";
    return 1;
  }
  // The text goes out function by function as the passes finish them (each function is dropped
  // once written), to the file or to standard output.
  const bool toFile = vm.count("output") != 0;
  const std::string outputPath = toFile ? vm["output"].as<std::string>() : std::string();
  std::ofstream outputFile;
  if (toFile)
    outputFile.open(outputPath, std::ios::binary | std::ios::trunc);
  std::ostream& out = toFile ? static_cast<std::ostream&>(outputFile) : std::cout;
  if (!out) {
    std::cerr << "ocelot ptx instrument: cannot write " << outputPath << "\n";
    return 1;
  }
  instrumentOptions.write = [&](std::string_view piece) {
    out.write(piece.data(), static_cast<std::streamsize>(piece.size()));
  };
  instrumentors::InstrumentedPtx result =
      instrumentors::instrumentModule(std::move(parsed.module), slots, instrumentOptions);
  result.timings.parseMs = parseMs;
  out.flush();
  if (!result.ok || !out) {
    if (!result.ok)
      std::cerr << "ocelot ptx instrument: " << inputName(file) << ": " << result.error << "\n";
    else
      std::cerr << "ocelot ptx instrument: cannot write " << (toFile ? outputPath : "the output")
                << "\n";
    if (toFile) { // no half-written file
      outputFile.close();
      std::remove(outputPath.c_str());
    }
    return 1;
  }
  if (vm.count("verbose")) {
    const auto& t = result.timings;
    std::cerr << "parse " << t.parseMs << " ms, analyze " << t.analyzeMs
              << " ms, passes and emission " << t.passesMs << " ms; " << result.kernels.size()
              << " kernels instrumented, " << result.redirectedVariables
              << " variables redirected, " << result.translatedFunctions
              << " address-taken functions (" << result.materializedAddresses
              << " names as values, " << result.translatedCalls << " indirect calls translated)\n";
    for (const auto& exclusion : result.exclusions)
      std::cerr << "not instrumented: " << exclusion.function << ": " << exclusion.reason << "\n";
  }
  return 0;
}

} // namespace ocelot::tools
