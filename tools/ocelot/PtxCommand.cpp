// `ocelot ptx parse|emit|stats FILE`: the PTX front end on the command line.

#include "ir/Casting.h"
#include "ir/Emitter.h"
#include "ir/Parser.h"
#include "tools/ocelot/CommandLine.h"
#include "tools/ocelot/Commands.h"

#include <boost/program_options.hpp>

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>

namespace po = boost::program_options;

namespace ocelot::tools {

namespace {

struct ModuleStatistics {
  size_t kernels = 0, deviceFunctions = 0, declarations = 0, globals = 0, blocks = 0,
         instructions = 0, labels = 0, debugSections = 0;
  std::map<std::string, size_t> opcodes;
};

ModuleStatistics collectStatistics(const ir::Module& module) {
  ModuleStatistics stats;
  for (const auto& item : module.items()) {
    if (ir::isa<ir::GlobalVariable>(item.get()))
      ++stats.globals;
    else if (ir::isa<ir::DebugSection>(item.get()))
      ++stats.debugSections;
  }
  for (const ir::Function* f : module.functions()) {
    if (!f->hasBody()) {
      ++stats.declarations;
      continue;
    }
    ++(f->isEntry() ? stats.kernels : stats.deviceFunctions);
    stats.blocks += f->blocks().size();
    stats.labels += f->labels().size();
    for (const auto& block : f->blocks())
      block->forEachInstruction([&](const ir::Instruction& inst) {
        ++stats.instructions;
        ++stats.opcodes[std::string(inst.form().opcodeName())];
      });
  }
  return stats;
}

void printStatistics(const ir::Module& module, std::ostream& out) {
  ModuleStatistics stats = collectStatistics(module);
  out << "version        " << module.version() << "\n";
  out << "target         ";
  for (size_t i = 0; i < module.targets().size(); ++i)
    out << (i ? ", " : "") << module.targets()[i];
  out << "\n";
  out << "kernels        " << stats.kernels << "\n";
  out << "functions      " << stats.deviceFunctions << " defined, " << stats.declarations
      << " declared\n";
  out << "globals        " << stats.globals << "\n";
  out << "debug sections " << stats.debugSections << "\n";
  out << "basic blocks   " << stats.blocks << "\n";
  out << "labels         " << stats.labels << "\n";
  out << "instructions   " << stats.instructions << "\n";
  std::vector<std::pair<std::string, size_t>> histogram(stats.opcodes.begin(), stats.opcodes.end());
  std::stable_sort(histogram.begin(), histogram.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  out << "\nopcode histogram (" << histogram.size() << " opcodes)\n";
  for (const auto& [opcode, count] : histogram) {
    double share = stats.instructions ? 100.0 * double(count) / double(stats.instructions) : 0.0;
    out << "  " << std::left << std::setw(22) << opcode << std::right << std::setw(10) << count
        << std::setw(8) << std::fixed << std::setprecision(1) << share << "%"
        << (ir::isKnownOpcode(opcode) ? "" : "  (not in the instruction table)") << "\n";
  }
}

void printUsage(std::ostream& out, const po::options_description& options) {
  out << "usage: ocelot ptx <parse|emit|stats|cfg|instrument|link> FILE [options]\n\n"
         "FILE - reads standard input.\n\n"
      << options;
}

} // namespace

int runPtxCommand(const std::vector<std::string>& args) {
  if (!args.empty() && args[0] == "cfg") // implemented in PtxCfgCommand.cpp
    return runPtxCfgCommand(std::vector<std::string>(args.begin() + 1, args.end()));
  if (!args.empty() && args[0] == "instrument") // implemented in PtxInstrumentCommand.cpp
    return runPtxInstrumentCommand(std::vector<std::string>(args.begin() + 1, args.end()));
  if (!args.empty() && args[0] == "link") // implemented in PtxLinkCommand.cpp
    return runPtxLinkCommand(std::vector<std::string>(args.begin() + 1, args.end()));
  po::options_description options("options");
  options.add_options()("help,h", "show this help")(
      "output,o", po::value<std::string>(), "emit: write the PTX to this file instead of stdout")(
      "compact", "emit: do not keep statements on their original source lines");
  po::options_description hidden;
  hidden.add_options()("action", po::value<std::string>())("file", po::value<std::string>());
  po::positional_options_description positional;
  positional.add("action", 1).add("file", 1);
  po::variables_map vm;
  if (auto status =
          parseCommandLine("ocelot ptx", args, options, hidden, positional, printUsage, vm))
    return *status;
  if (!vm.count("action") || !vm.count("file")) {
    printUsage(std::cerr, options);
    return 2;
  }
  std::string action = vm["action"].as<std::string>();
  if (action != "parse" && action != "emit" && action != "stats") {
    std::cerr << "ocelot ptx: unknown action '" << action << "'\n";
    printUsage(std::cerr, options);
    return 2;
  }

  const std::string file = vm["file"].as<std::string>();
  ir::ParseResult result;
  try {
    if (vm.count("output"))
      checkWritable("output", vm["output"].as<std::string>());
    result =
        file == "-" ? ir::parsePtxBuffer(readInput(file), inputName(file)) : ir::parsePtxFile(file);
  } catch (const std::invalid_argument& e) { // a bad option
    std::cerr << "ocelot ptx: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) { // unreadable input
    std::cerr << "ocelot ptx: " << e.what() << "\n";
    return 1;
  }
  if (!result.ok()) {
    for (const auto& diagnostic : result.diagnostics)
      std::cerr << diagnostic.format() << "\n";
    return 1;
  }
  if (action == "parse") {
    ModuleStatistics stats = collectStatistics(*result.module);
    std::cout << inputName(file) << ": ok, " << stats.kernels << " kernels, "
              << stats.deviceFunctions << " functions, " << stats.instructions << " instructions\n";
  } else if (action == "stats") {
    printStatistics(*result.module, std::cout);
  } else {
    ir::EmitOptions emitOptions;
    emitOptions.preserveLines = !vm.count("compact");
    std::string text = ir::emitPtx(*result.module, emitOptions);
    if (vm.count("output")) {
      std::ofstream out(vm["output"].as<std::string>(), std::ios::binary);
      out << text;
      if (!out) {
        std::cerr << "ocelot ptx: cannot write " << vm["output"].as<std::string>() << "\n";
        return 1;
      }
    } else {
      std::cout << text;
    }
  }
  return 0;
}

} // namespace ocelot::tools
