// `ocelot`: the command line of the Ocelot dynamic PTX instrumentation framework.

#include "tools/ocelot/Commands.h"

#include <iostream>
#include <string>
#include <vector>

namespace {

void printUsage(std::ostream& out) {
  out << "usage: ocelot <command> [options]\n"
         "\n"
         "commands:\n"
         "  ptx parse FILE     check that a PTX file parses; print errors with file:line:column\n"
         "  ptx emit FILE      parse and print the PTX Ocelot would hand to the driver\n"
         "  ptx stats FILE     functions, basic blocks, instructions and an opcode histogram\n"
         "  ptx cfg FILE --function NAME [--dot]\n"
         "                     the control-flow graph with dominators and loops\n"
         "  ptx instrument -i bbcount|bbcount-thread|ctaclock FILE\n"
         "                     the PTX a module becomes under instrumentation\n"
         "  run [-i LIST] [--kernel RE] [--launches N:M] [-o profile.json] -- APP ARGS\n"
         "                     run an unmodified CUDA application under Ocelot's runtime\n"
         "  report PROFILE.json... [-o report.html] [--trace trace.json] [--tau DIR]\n"
         "                     the HTML report, a Perfetto trace, TAU profiles; merges ranks\n"
         "\n"
         "Run `ocelot <command> --help` for the options of a command.\n";
}

} // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    printUsage(args.empty() ? std::cerr : std::cout);
    return args.empty() ? 2 : 0;
  }
  std::string command = args[0];
  args.erase(args.begin());
  try {
    if (command == "ptx")
      return ocelot::tools::runPtxCommand(args);
    if (command == "run")
      return ocelot::tools::runRunCommand(args, argv[0]);
    if (command == "report")
      return ocelot::tools::runReportCommand(args);
  } catch (const std::exception& e) {
    std::cerr << "ocelot: " << e.what() << "\n";
    return 2;
  }
  std::cerr << "ocelot: unknown command '" << command << "'\n\n";
  printUsage(std::cerr);
  return 2;
}
