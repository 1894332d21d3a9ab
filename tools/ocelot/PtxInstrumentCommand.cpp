// `ocelot ptx instrument -i LIST FILE [-o OUT]`: the PTX a module becomes when instrumentors are
// active, offline (no GPU, no application). Global variables are redirected to address 0 here, so
// the output shows the code and assembles with ptxas but must not be run.

#include "instrumentors/InstrumentorRegistry.h"
#include "instrumentors/ModuleInstrumenter.h"
#include "tools/ocelot/Commands.h"

#include <boost/program_options.hpp>

#include <fstream>
#include <iostream>
#include <sstream>

namespace po = boost::program_options;

namespace ocelot::tools {

namespace {

void printUsage(std::ostream& out, const po::options_description& options) {
  out << "usage: ocelot ptx instrument -i LIST FILE [-o OUT]\n\n"
         "Prints FILE instrumented by the instrumentors of LIST, comma-separated names or plugin\n"
         "paths with options: bbcount, bbcount-warp, bbcount-thread, ctaclock,\n"
         "bbcount:mode=per-thread, /path/libmine.so:key=value. The hidden kernel parameter\n"
         "__ocelot_instrumentation holds one buffer pointer per instrumentor. Global variables "
         "are\n"
         "redirected to address 0 (offline there is no application module): assemble the output,\n"
         "do not run it.\n\n"
      << options;
}

} // namespace

int runPtxInstrumentCommand(const std::vector<std::string>& args) {
  po::options_description options("options");
  options.add_options()("help,h", "show this help")("instrumentors,i", po::value<std::string>(),
                                                    "instrumentors to apply (see above)")(
      "output,o", po::value<std::string>(), "write the PTX to this file instead of stdout")(
      "linked", "treat the module as one unit of a device-linked (-rdc) program")(
      "verbose,v", "print timings and the functions left uninstrumented to stderr")(
      "list", "list the registered instrumentors");
  po::options_description hidden;
  hidden.add_options()("file", po::value<std::string>());
  po::options_description all;
  all.add(options).add(hidden);
  po::positional_options_description positional;
  positional.add("file", 1);

  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "ocelot ptx instrument: " << e.what() << "\n";
    printUsage(std::cerr, options);
    return 2;
  }
  if (vm.count("help")) {
    printUsage(std::cout, options);
    return 0;
  }
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

  const std::string file = vm["file"].as<std::string>();
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    std::cerr << "ocelot ptx instrument: cannot read " << file << "\n";
    return 1;
  }
  std::stringstream text;
  text << in.rdbuf();

  instrumentors::InstrumentOptions instrumentOptions;
  instrumentOptions.label = file;
  instrumentOptions.linked = vm.count("linked") != 0;
  instrumentors::InstrumentedModule result =
      instrumentors::instrumentModule(text.str(), slots, instrumentOptions);
  if (!result.ok) {
    std::cerr << "ocelot ptx instrument: " << file << ": " << result.error << "\n";
    return 1;
  }
  if (vm.count("verbose")) {
    const auto& t = result.timings;
    std::cerr << "parse " << t.parseMs << " ms, analyze " << t.analyzeMs << " ms, passes "
              << t.passesMs << " ms, emit " << t.emitMs << " ms; " << result.kernels.size()
              << " kernels instrumented, " << result.redirectedVariables
              << " variables redirected, " << result.translatedFunctions
              << " address-taken functions (" << result.materializedAddresses
              << " names as values, " << result.translatedCalls << " indirect calls translated)\n";
    for (const auto& exclusion : result.exclusions)
      std::cerr << "not instrumented: " << exclusion.function << ": " << exclusion.reason << "\n";
  }
  if (vm.count("output")) {
    std::ofstream out(vm["output"].as<std::string>(), std::ios::binary);
    out << result.ptx;
    if (!out) {
      std::cerr << "ocelot ptx instrument: cannot write " << vm["output"].as<std::string>() << "\n";
      return 1;
    }
  } else {
    std::cout << result.ptx;
  }
  return 0;
}

} // namespace ocelot::tools
