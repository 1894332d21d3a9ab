// `ocelot ptx cfg FILE [--function NAME] [--dot]`: the control-flow graph of a kernel or device
// function with its dominators, post-dominators, loops and source lines.

#include "ir/Parser.h"
#include "passes/AnalysisManager.h"
#include "passes/CfgPrinter.h"
#include "tools/ocelot/CommandLine.h"
#include "tools/ocelot/Commands.h"

#include <boost/program_options.hpp>

#include <iostream>

namespace po = boost::program_options;

namespace ocelot::tools {

namespace {

void printUsage(std::ostream& out, const po::options_description& options) {
  out << "usage: ocelot ptx cfg FILE [--function NAME] [--dot]\n\n"
         "Prints the control-flow graph of a function (every function with a body when no\n"
         "--function is given): blocks with their source lines, immediate dominators and\n"
         "post-dominators, edges by kind, the dominator trees, natural loops with their nesting,\n"
         "unreachable blocks. --dot prints a Graphviz digraph instead (`| dot -Tsvg`).\n"
         "FILE - reads standard input.\n\n"
      << options;
}

} // namespace

int runPtxCfgCommand(const std::vector<std::string>& args) {
  po::options_description options("options");
  options.add_options()("help,h", "show this help")(
      "function,f", po::value<std::string>(),
      "the kernel or function to show (its PTX name)")("dot", "print Graphviz instead of text");
  po::options_description hidden;
  hidden.add_options()("file", po::value<std::string>());
  po::positional_options_description positional;
  positional.add("file", 1);
  po::variables_map vm;
  if (auto status =
          parseCommandLine("ocelot ptx cfg", args, options, hidden, positional, printUsage, vm))
    return *status;
  if (!vm.count("file")) {
    printUsage(std::cerr, options);
    return 2;
  }

  const std::string file = vm["file"].as<std::string>();
  ir::ParseResult result;
  try {
    result =
        file == "-" ? ir::parsePtxBuffer(readInput(file), inputName(file)) : ir::parsePtxFile(file);
  } catch (const std::exception& e) {
    std::cerr << "ocelot ptx cfg: " << e.what() << "\n";
    return 1;
  }
  if (!result.ok()) {
    for (const auto& diagnostic : result.diagnostics)
      std::cerr << diagnostic.format() << "\n";
    return 1;
  }
  std::vector<ir::Function*> selected;
  for (ir::Function* function : result.module->functions()) {
    if (!function->hasBody())
      continue;
    if (!vm.count("function") || function->name() == vm["function"].as<std::string>())
      selected.push_back(function);
  }
  if (selected.empty()) {
    if (vm.count("function"))
      std::cerr << "ocelot ptx cfg: no function '" << vm["function"].as<std::string>()
                << "' with a body; the module defines:";
    else
      std::cerr << "ocelot ptx cfg: the module defines no function with a body";
    for (const ir::Function* function : result.module->functions())
      if (function->hasBody())
        std::cerr << " " << function->name();
    std::cerr << "\n";
    return 1;
  }
  passes::AnalysisManager analyses;
  for (size_t i = 0; i < selected.size(); ++i) {
    if (i > 0)
      std::cout << "\n";
    std::cout << (vm.count("dot") ? passes::printCfgDot(*selected[i], analyses)
                                  : passes::printCfgText(*selected[i], analyses));
  }
  return 0;
}

} // namespace ocelot::tools
