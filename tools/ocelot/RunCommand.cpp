// `ocelot run [options] -- APP ARGS...`: runs an unmodified CUDA application under Ocelot's
// libcudart.so.13. The tool only prepares the environment (library path, OCELOT_* variables) and
// execs the application; the runtime inside the application does the instrumenting and, at exit,
// prints the summary and writes the profile file (docs/instrumentation.md).

#include "instrumentors/InstrumentorRegistry.h"
#include "ocelot/KernelSelection.h"
#include "ocelot/NvtxRule.h"
#include "tools/ocelot/ApplicationCheck.h"
#include "tools/ocelot/CommandLine.h"
#include "tools/ocelot/Commands.h"
#include "tools/ocelot/MpiRank.h"

#include <boost/program_options.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <unistd.h>

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace ocelot::tools {

namespace {

void printUsage(std::ostream& out, const po::options_description& options) {
  out << "usage: ocelot run [options] -- APP [ARGS...]\n\n"
         "Runs APP with Ocelot's libcudart.so.13 (applications built with `nvcc -cudart shared`\n"
         "need no rebuild). With instrumentors, the runtime prints a summary to stderr when APP\n"
         "exits: top kernels, hottest basic blocks with source lines, per-SM imbalance.\n\n"
      << options;
  instrumentors::InstrumentorRegistry registry;
  printInstrumentorHelp(out, registry);
}

/// The exit status when the application cannot be intercepted (NVIDIA's static runtime inside it,
/// or another CUDA version's libcudart) and --allow-static-runtime was not given: apart from
/// option errors (2) and exec failures (127).
constexpr int kNotInterceptedExit = 3;

/// The levels of OCELOT_LOG (runtime/core/Logger.cpp).
constexpr std::string_view kLogLevels[] = {"off", "none", "warn", "info", "debug"};

/// The folder holding Ocelot's libcudart.so.13: $OCELOT_CUDART_DIR, else ../lib next to this
/// executable (an installed Ocelot), else ../runtime (a build tree, also one copied elsewhere, as
/// scripts/gpu-carry.sh does), else the build tree this executable was built in.
std::optional<fs::path> libraryDirectory(const char* self) {
  auto holds = [](const fs::path& dir) {
    std::error_code ignored;
    return fs::exists(dir / "libcudart.so.13", ignored);
  };
  if (const char* dir = std::getenv("OCELOT_CUDART_DIR"); dir != nullptr && *dir != '\0')
    return holds(dir) ? std::optional<fs::path>(dir) : std::nullopt;
  std::error_code error;
  fs::path exe = fs::read_symlink("/proc/self/exe", error);
  if (error)
    exe = fs::absolute(self != nullptr ? self : "", error);
  for (const fs::path& candidate :
       {exe.parent_path().parent_path() / "lib", exe.parent_path().parent_path() / "lib64",
        exe.parent_path().parent_path() / "runtime", fs::path(OCELOT_BUILD_CUDART_DIR)})
    if (holds(candidate))
      return candidate;
  return std::nullopt;
}

/// Whether OCELOT_PLUGIN_PATH has a libocelot-<name>.so (the runtime loads it by name).
bool pluginOnPath(const std::string& name) {
  const char* path = std::getenv("OCELOT_PLUGIN_PATH");
  if (path == nullptr)
    return false;
  std::string folders = path;
  size_t start = 0;
  while (start <= folders.size()) {
    size_t colon = folders.find(':', start);
    std::string dir = folders.substr(start, colon == std::string::npos ? colon : colon - start);
    std::error_code ignored;
    if (fs::exists(fs::path(dir.empty() ? "." : dir) / ("libocelot-" + name + ".so"), ignored))
      return true;
    if (colon == std::string::npos)
      break;
    start = colon + 1;
  }
  return false;
}

/// The folder of the probe tools Ocelot ships (memaccess ...): ../lib/ocelot/probe-tools next to an
/// installed `ocelot`, else ../probe-tools (a build tree, also one copied elsewhere), else the
/// build tree this executable was built in.
std::optional<fs::path> shippedProbeTools(const char* self) {
  std::error_code error;
  fs::path exe = fs::read_symlink("/proc/self/exe", error);
  if (error)
    exe = fs::absolute(self != nullptr ? self : "", error);
  for (const fs::path& candidate :
       {exe.parent_path().parent_path() / "lib/ocelot/probe-tools",
        exe.parent_path().parent_path() / "lib64/ocelot/probe-tools",
        exe.parent_path().parent_path() / "probe-tools", fs::path(OCELOT_BUILD_PROBE_TOOLS_DIR)})
    if (fs::is_directory(candidate, error))
      return candidate;
  return std::nullopt;
}

void prependPath(const char* variable, const std::string& dir) {
  const char* old = std::getenv(variable);
  std::string value = dir;
  if (old != nullptr && *old != '\0')
    value += ":" + std::string(old);
  ::setenv(variable, value.c_str(), 1);
}

/// After what is there: a sanitizer's runtime that the caller preloads must stay first.
void appendPath(const char* variable, const std::string& entry) {
  const char* old = std::getenv(variable);
  const std::string value =
      old != nullptr && *old != '\0' ? std::string(old) + ":" + entry : entry;
  ::setenv(variable, value.c_str(), 1);
}

} // namespace

int runRunCommand(const std::vector<std::string>& argsIn, const char* self) {
  // Everything after "--" is the application's, untouched by option parsing.
  std::vector<std::string> args = argsIn;
  std::vector<std::string> application;
  if (auto dash = std::find(args.begin(), args.end(), "--"); dash != args.end()) {
    application.assign(dash + 1, args.end());
    args.erase(dash, args.end());
  }
  po::options_description options("options");
  options.add_options()("help,h", "show this help")(
      "instrumentors,i", po::value<std::string>(),
      "instrumentors: bbcount, bbcount-thread, ctaclock, plugin paths (comma-separated, with "
      ":key=value options; see below)")("kernel", po::value<std::string>(),
                                        "instrument only kernels whose name matches this regex")(
      "launches", po::value<std::string>(), "instrument only matching launches N:M (1-based)")(
      "every", po::value<std::string>(), "instrument every N-th matching launch (N >= 1)")(
      "max-per-kernel", po::value<std::string>(), "stop instrumenting a kernel after K launches")(
      "nvtx-include", po::value<std::vector<std::string>>(),
      "instrument only launches inside this NVTX range (repeatable; Nsight Compute's syntax: "
      "range/, domain@range/, a/b/, [a/, a/*/b/, range for a start/end range)")(
      "no-nvtx", "do not make Ocelot the application's NVTX injection library")(
      "no-host-measures", "do not time copies, memsets and unprofiled kernels nor record API calls "
                          "(OCELOT_HOST_MEASURES=0)")(
      "device", po::value<std::string>(),
      "gpu or cpu (Ocelot's CPU back end); default: the GPU if there is one, else the CPU")(
      "output,o", po::value<std::string>(), "write every KernelProfile to this JSON file")(
      "summary", po::value<std::string>(),
      "where the summary goes at exit: stderr (default), off, or a file")(
      "budget-mb", po::value<std::string>(), "memory budget of bbcount's per-thread matrix")(
      "memcheck", "CPU device: check every global access against its allocation (OCELOT_MEMCHECK)")(
      "watchdog-ms", po::value<std::string>(),
      "CPU device: fail a launch that runs longer than N ms (OCELOT_CPU_WATCHDOG_MS; 0: off)")(
      "log", po::value<std::string>(), "Ocelot's log level (OCELOT_LOG): off, warn, info, debug")(
      "no-call-stacks", "do not record each launch's host call path (OCELOT_CALL_STACKS=0)")(
      "driver-api",
      "put Ocelot's libcuda.so.1 in front of NVIDIA's, so that modules loaded through the driver "
      "API (NVRTC, CuPy, Triton) and libraries' kernels are seen too (the default; "
      "OCELOT_DRIVER_API=0 or --no-driver-api turns it off: docs/driver-api.md)")(
      "no-driver-api", "leave the driver API to NVIDIA's libcuda.so.1, also on the CPU device")(
      "allow-static-runtime",
      "run an application that Ocelot cannot intercept (linked with NVIDIA's static runtime, or "
      "with another CUDA version's libcudart) anyway, uninstrumented; without it such an "
      "application is not run (exit 3)")("dry-run",
                                         "print the environment and command instead of running it");
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(options).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "ocelot run: " << e.what() << "\n";
    printUsage(std::cerr, options);
    return 2;
  }
  if (vm.count("help")) {
    printUsage(std::cout, options);
    return 0;
  }
  if (application.empty()) {
    std::cerr << "ocelot run: no application (put it after --)\n";
    printUsage(std::cerr, options);
    return 2;
  }

  // Check what can be checked here, so that a typo is an error now and not a warning in the
  // application's output.
  std::vector<std::pair<std::string, std::string>> environment;
  // The shipped probe tools are found by name after the user's own plugin folders.
  if (auto tools = shippedProbeTools(self)) {
    const char* path = std::getenv("OCELOT_PLUGIN_PATH");
    std::string value = path != nullptr && *path != '\0' ? std::string(path) + ":" : std::string();
    ::setenv("OCELOT_PLUGIN_PATH", (value + tools->string()).c_str(), 1);
  }
  try {
    if (vm.count("instrumentors")) {
      std::string list = vm["instrumentors"].as<std::string>();
      instrumentors::InstrumentorRegistry registry;
      for (const auto& spec : instrumentors::parseInstrumentorList(list)) {
        if (spec.isPath) {
          if (!fs::exists(spec.name))
            throw std::invalid_argument("no plugin library " + spec.name);
        } else if (registry.contains(spec.name)) {
          registry.create(spec.name, spec.options); // validates the options
        } else if (!pluginOnPath(spec.name)) {
          registry.create(spec.name, spec.options); // throws: lists the registered names
        }
      }
      environment.emplace_back("OCELOT_INSTRUMENTORS", list);
    }
    SelectionRules rules;
    if (vm.count("kernel")) {
      rules.kernelRegex = vm["kernel"].as<std::string>();
      environment.emplace_back("OCELOT_KERNEL_REGEX", rules.kernelRegex);
    }
    if (vm.count("launches")) {
      if (auto error = rules.parseLaunchRange(vm["launches"].as<std::string>()))
        throw std::invalid_argument("--launches: " + *error);
      environment.emplace_back("OCELOT_LAUNCHES", vm["launches"].as<std::string>());
    }
    if (vm.count("every")) {
      rules.every = parseCount("every", vm["every"].as<std::string>(), 1);
      environment.emplace_back("OCELOT_EVERY", std::to_string(rules.every));
    }
    if (vm.count("max-per-kernel"))
      environment.emplace_back(
          "OCELOT_MAX_PER_KERNEL",
          std::to_string(parseCount("max-per-kernel", vm["max-per-kernel"].as<std::string>())));
    KernelSelection check(rules); // throws on a bad regex or every=0
    if (vm.count("nvtx-include")) {
      std::string joined;
      for (const std::string& rule : vm["nvtx-include"].as<std::vector<std::string>>()) {
        if (rule.find(';') != std::string::npos)
          throw std::invalid_argument("--nvtx-include " + rule + ": ';' separates rules");
        NvtxRule::parse(rule); // throws with what is wrong
        joined += (joined.empty() ? "" : ";") + rule;
      }
      environment.emplace_back("OCELOT_NVTX_INCLUDE", joined);
    }
    if (vm.count("no-host-measures"))
      environment.emplace_back("OCELOT_HOST_MEASURES", "0");
    if (vm.count("budget-mb"))
      environment.emplace_back(
          "OCELOT_BBCOUNT_BUDGET_MB",
          std::to_string(parseCount("budget-mb", vm["budget-mb"].as<std::string>())));
    if (vm.count("watchdog-ms"))
      environment.emplace_back(
          "OCELOT_CPU_WATCHDOG_MS",
          std::to_string(parseCount("watchdog-ms", vm["watchdog-ms"].as<std::string>())));
    if (vm.count("memcheck"))
      environment.emplace_back("OCELOT_MEMCHECK", "1");
    if (vm.count("log")) {
      std::string level = vm["log"].as<std::string>();
      if (std::find(std::begin(kLogLevels), std::end(kLogLevels), level) == std::end(kLogLevels))
        throw std::invalid_argument("--log " + level + ": expected off, warn, info or debug");
      environment.emplace_back("OCELOT_LOG", level);
    }
    // Files the runtime writes when the application exits: a wrong folder is an error now, not
    // after the whole run. Under MPI every rank runs this command: each writes its own files
    // (profile.rank3.json).
    const std::optional<int> rank = mpiRank();
    auto perRank = [&](const std::string& path) { return rank ? rankedPath(path, *rank) : path; };
    if (vm.count("output")) {
      fs::path output = vm["output"].as<std::string>();
      checkWritable("output", output);
      environment.emplace_back("OCELOT_PROFILE_OUTPUT", perRank(fs::absolute(output).string()));
    }
    if (vm.count("summary")) {
      std::string summary = vm["summary"].as<std::string>();
      if (summary != "stderr" && summary != "off") {
        checkWritable("summary", summary);
        summary = perRank(fs::absolute(summary).string());
      }
      environment.emplace_back("OCELOT_SUMMARY", summary);
    }
  } catch (const std::exception& e) {
    std::cerr << "ocelot run: " << e.what() << "\n";
    return 2;
  }
  if (vm.count("device")) {
    std::string device = vm["device"].as<std::string>();
    if (device != "cpu" && device != "gpu") {
      std::cerr << "ocelot run: --device must be cpu or gpu\n";
      return 2;
    }
    environment.emplace_back("OCELOT_DEVICE", device);
  }
  // An application that carries NVIDIA's runtime inside it (or loads another CUDA version's)
  // never calls Ocelot: it would run to its end with nothing instrumented and no profile, so it is
  // refused (exit 3) unless the user asks for the plain run.
  if (auto file = resolveCommand(application[0])) {
    const RuntimeLinkage linkage = inspectApplication(*file);
    std::string why;
    if (linkage.staticRuntime())
      why = " is linked with NVIDIA's static CUDA runtime (nvcc's default), so Ocelot cannot see "
            "its kernels; rebuild it with `nvcc -cudart shared` (or link it with -lcudart "
            "instead of -lcudart_static)";
    else if (linkage.otherRuntimeVersion())
      why = " loads " + linkage.sharedRuntime +
            ", the runtime of another CUDA version, so Ocelot's libcudart.so.13 (CUDA 13) does not "
            "stand in for it; rebuild it with the CUDA 13 toolkit and `nvcc -cudart shared`";
    if (!why.empty()) {
      if (!vm.count("allow-static-runtime")) {
        std::cerr << "ocelot run: " << application[0] << why << ". Not run (exit "
                  << kNotInterceptedExit
                  << "); --allow-static-runtime runs it anyway, without Ocelot.\n";
        return kNotInterceptedExit;
      }
      std::cerr << "ocelot run: warning: " << application[0] << why
                << ". Running it without Ocelot (--allow-static-runtime).\n";
    }
  }
  if (vm.count("no-call-stacks"))
    environment.emplace_back("OCELOT_CALL_STACKS", "0");

  auto libraries = libraryDirectory(self);
  if (!libraries) {
    std::cerr << "ocelot run: cannot find Ocelot's libcudart.so.13 (set OCELOT_CUDART_DIR)\n";
    return 2;
  }
  // Ocelot is the application's NVTX injection library (ranges in profiles and traces,
  // --nvtx-include), unless the user chose another one.
  if (!vm.count("no-nvtx") && std::getenv("NVTX_INJECTION64_PATH") == nullptr)
    environment.emplace_back("NVTX_INJECTION64_PATH", (*libraries / "libcudart.so.13").string());
  for (const auto& [name, value] : environment)
    ::setenv(name.c_str(), value.c_str(), 1);
  prependPath("LD_LIBRARY_PATH", libraries->string());
  // Ocelot's libcuda.so.1 (runtime/driverapi) lives in a folder of its own, in front of
  // NVIDIA's driver, which it finds by absolute path.
  // The shim is in front by default, on a GPU too (docs/driver-api.md): on an H200 (2026-11-27)
  // the e2e programs, NVRTC, CuPy, Triton, Numba and a PyTorch training step run through it with
  // unchanged output. --no-driver-api or OCELOT_DRIVER_API=0 leaves the driver API to NVIDIA.
  const char* driverApiVariable = std::getenv("OCELOT_DRIVER_API");
  const bool wantShim =
      !vm.count("no-driver-api") && (vm.count("driver-api") || driverApiVariable == nullptr ||
                                     std::string(driverApiVariable) != "0");
  if (std::error_code ignored;
      wantShim && fs::exists(*libraries / "driverapi" / "libcuda.so.1", ignored))
    prependPath("LD_LIBRARY_PATH", (*libraries / "driverapi").string());
  // Its libnvJitLink.so.13 is preloaded: cuda.bindings (Numba-CUDA's linker) takes a loaded library
  // of that soname before searching the Python packages for NVIDIA's, and a library found on the
  // path would come too late for a program that loads nvJitLink before the driver. Appended: the
  // order among preloads does not matter for that, and ASan's runtime must come first (the
  // sanitized build's tests preload it).
  if (std::error_code ignored;
      wantShim && fs::exists(*libraries / "driverapi" / "libnvJitLink.so.13", ignored))
    appendPath("LD_PRELOAD", (*libraries / "driverapi" / "libnvJitLink.so.13").string());

  if (vm.count("dry-run")) {
    std::cout << "LD_LIBRARY_PATH=" << std::getenv("LD_LIBRARY_PATH") << "\n";
    if (const char* preload = std::getenv("LD_PRELOAD"))
      std::cout << "LD_PRELOAD=" << preload << "\n";
    for (const auto& [name, value] : environment)
      std::cout << name << "=" << value << "\n";
    for (const auto& word : application)
      std::cout << word << (&word == &application.back() ? "\n" : " ");
    return 0;
  }
  std::vector<char*> argv;
  for (auto& word : application)
    argv.push_back(word.data());
  argv.push_back(nullptr);
  ::execvp(argv[0], argv.data());
  std::cerr << "ocelot run: cannot run " << application[0] << ": " << std::strerror(errno) << "\n";
  return 127;
}

} // namespace ocelot::tools
