// `ocelot report PROFILE.json... [-o report.html] [--trace trace.json] [--tau DIR]`: what people
// open and look at, made from profile files (one per process; `ocelot run -o` names them by MPI
// rank): a self-contained HTML report, a Chrome/Perfetto trace, TAU profiles.

#include "tools/ocelot/CommandLine.h"
#include "tools/ocelot/Commands.h"
#include "tools/report/HtmlReport.h"
#include "tools/report/ProfileSet.h"
#include "tools/report/ProfileTrace.h"
#include "tools/report/TauProfile.h"
#include "tools/report/TraceEvents.h"

#include <boost/program_options.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace ocelot::tools {

namespace {

void printUsage(std::ostream& out, const po::options_description& options) {
  out << "usage: ocelot report PROFILE.json... [-o report.html] [--trace trace.json] [--tau "
         "DIR]\n\n"
         "Makes what people look at from profile files (`ocelot run -o`), one file per process\n"
         "(MPI ranks are merged): a self-contained HTML report (kernel table, CFG heat maps,\n"
         "source lines, SM timelines, trends, coverage), a trace for ui.perfetto.dev, TAU\n"
         "profiles for pprof and ParaProf. Without -o, --trace or --tau it writes report.html.\n\n"
      << options;
}

void writeFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out)
    throw std::runtime_error(path + ": cannot write");
}

} // namespace

int runReportCommand(const std::vector<std::string>& args) {
  po::options_description options("options");
  options.add_options()("help,h", "show this help")(
      "output,o", po::value<std::string>(), "the HTML report to write (default report.html)")(
      "trace", po::value<std::string>(), "also write a Chrome/Perfetto trace (JSON) here")(
      "tau", po::value<std::string>(), "also write TAU profiles (profile.N.C.T) into this folder")(
      "source-dir", po::value<std::vector<std::string>>()->composing(),
      "a folder to look for source files in (by base name); repeatable")(
      "title", po::value<std::string>(), "the report's title");
  po::options_description hidden;
  hidden.add_options()("profiles", po::value<std::vector<std::string>>()->composing());
  po::positional_options_description positional;
  positional.add("profiles", -1);
  po::variables_map vm;
  if (auto status =
          parseCommandLine("ocelot report", args, options, hidden, positional, printUsage, vm))
    return *status;
  if (!vm.count("profiles")) {
    std::cerr << "ocelot report: no profile files\n";
    printUsage(std::cerr, options);
    return 2;
  }
  try {
    auto set = report::ProfileSet::load(vm["profiles"].as<std::vector<std::string>>());
    bool any = vm.count("output") || vm.count("trace") || vm.count("tau");
    if (vm.count("output") || !any) {
      report::HtmlReportOptions html;
      if (vm.count("source-dir"))
        html.sourceDirs = vm["source-dir"].as<std::vector<std::string>>();
      if (vm.count("title"))
        html.title = vm["title"].as<std::string>();
      std::string path = vm.count("output") ? vm["output"].as<std::string>() : "report.html";
      writeFile(path, report::htmlReport(set, html));
      std::cout << "report: " << fs::absolute(path).string() << "\n";
    }
    if (vm.count("trace")) {
      report::TraceEvents trace;
      size_t kernels = report::addProfilesToTrace(set, trace);
      report::TraceEvents::Json other{
          {"generator", "ocelot report"}, {"profiles", set.sources()}, {"kernels", kernels}};
      std::string path = vm["trace"].as<std::string>();
      writeFile(path, trace.json(std::move(other))
                          .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
      std::cout << "trace: " << fs::absolute(path).string() << " (open it in ui.perfetto.dev)\n";
    }
    if (vm.count("tau")) {
      auto files = report::writeTauProfiles(set, vm["tau"].as<std::string>());
      std::cout << "TAU profiles: " << files.size() << " files in "
                << fs::absolute(vm["tau"].as<std::string>()).string() << " (pprof, paraprof)\n";
    }
  } catch (const std::exception& e) {
    std::cerr << "ocelot report: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

} // namespace ocelot::tools
