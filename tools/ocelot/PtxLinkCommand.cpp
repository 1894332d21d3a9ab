// `ocelot ptx link A.ptx B.ptx ... [-o OUT]`: the relocatable PTX units of a -rdc program linked
// into one module at PTX level (ir/ModuleLinker.h), as the runtime links them before instrumenting.

#include "ir/Emitter.h"
#include "ir/ModuleLinker.h"
#include "ir/Parser.h"
#include "tools/ocelot/CommandLine.h"
#include "tools/ocelot/Commands.h"

#include <boost/program_options.hpp>

#include <fstream>
#include <iostream>

namespace po = boost::program_options;

namespace ocelot::tools {

namespace {

void printUsage(std::ostream& out, const po::options_description& options) {
  out << "usage: ocelot ptx link FILE FILE... [-o OUT]\n\n"
         "Links the relocatable PTX units of a separately compiled (-rdc) program into one\n"
         "module: .extern symbols resolve to other units' definitions, colliding unit-local\n"
         "symbols are renamed, symbols no unit defines stay .extern (the driver's linker resolves\n"
         "them, e.g. against libcudadevrt). FILE - reads standard input.\n\n"
      << options;
}

} // namespace

std::unique_ptr<ir::Module> linkPtxFiles(const std::vector<std::string>& files, bool verbose,
                                         std::string* error) {
  std::vector<std::unique_ptr<ir::Module>> parsed;
  std::vector<ir::LinkUnit> units;
  for (const std::string& file : files) {
    ir::ParseResult result = ir::parsePtxBuffer(readInput(file), inputName(file));
    if (!result.ok()) {
      *error = result.firstError();
      return nullptr;
    }
    units.push_back({result.module.get(), inputName(file)});
    parsed.push_back(std::move(result.module));
  }
  ir::LinkResult linked = ir::linkModules(units);
  if (!linked.ok()) {
    *error = linked.error;
    return nullptr;
  }
  if (verbose) {
    for (const auto& r : linked.renamed)
      std::cerr << "renamed: " << r.unit << ": " << r.from << " -> " << r.to << "\n";
    for (const auto& name : linked.unresolved)
      std::cerr << "unresolved (left .extern): " << name << "\n";
  }
  return std::move(linked.module);
}

int runPtxLinkCommand(const std::vector<std::string>& args) {
  po::options_description options("options");
  options.add_options()("help,h", "show this help")("output,o", po::value<std::string>(),
                                                    "write the PTX to this file instead of stdout")(
      "verbose,v", "print renamed and unresolved symbols to stderr");
  po::options_description hidden;
  hidden.add_options()("file", po::value<std::vector<std::string>>());
  po::positional_options_description positional;
  positional.add("file", -1);
  po::variables_map vm;
  if (auto status =
          parseCommandLine("ocelot ptx link", args, options, hidden, positional, printUsage, vm))
    return *status;
  if (!vm.count("file")) {
    printUsage(std::cerr, options);
    return 2;
  }
  std::string error;
  std::unique_ptr<ir::Module> module;
  try {
    if (vm.count("output"))
      checkWritable("output", vm["output"].as<std::string>());
    module =
        linkPtxFiles(vm["file"].as<std::vector<std::string>>(), vm.count("verbose") != 0, &error);
  } catch (const std::invalid_argument& e) {
    std::cerr << "ocelot ptx link: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "ocelot ptx link: " << e.what() << "\n";
    return 1;
  }
  if (!module) {
    std::cerr << "ocelot ptx link: " << error << "\n";
    return 1;
  }
  std::string text = ir::emitPtx(*module);
  if (vm.count("output")) {
    std::ofstream out(vm["output"].as<std::string>(), std::ios::binary | std::ios::trunc);
    out << text;
    if (!out) {
      std::cerr << "ocelot ptx link: cannot write " << vm["output"].as<std::string>() << "\n";
      return 1;
    }
  } else {
    std::cout << text;
  }
  return 0;
}

} // namespace ocelot::tools
