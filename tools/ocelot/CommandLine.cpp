#include "tools/ocelot/CommandLine.h"

#include "instrumentors/InstrumentorHelp.h"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <stdexcept>
#include <unistd.h>

namespace fs = std::filesystem;

namespace ocelot::tools {

namespace po = boost::program_options;

std::optional<int> parseCommandLine(std::string_view command, const std::vector<std::string>& args,
                                    const po::options_description& options,
                                    const po::options_description& hidden,
                                    const po::positional_options_description& positional,
                                    UsagePrinter usage, po::variables_map& vm) {
  po::options_description all;
  all.add(options).add(hidden);
  try {
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << command << ": " << e.what() << "\n";
    usage(std::cerr, options);
    return 2;
  }
  if (vm.count("help")) {
    usage(std::cout, options);
    return 0;
  }
  return std::nullopt;
}

uint64_t parseCount(std::string_view option, const std::string& text, uint64_t min, uint64_t max) {
  uint64_t value = 0;
  bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  std::string range = max == UINT64_MAX ? "a whole number from " + std::to_string(min)
                                        : "a whole number from " + std::to_string(min) + " to " +
                                              std::to_string(max);
  if (!digits || error == std::errc::result_out_of_range)
    throw std::invalid_argument("--" + std::string(option) + " " + text + ": expected " + range +
                                (error == std::errc::result_out_of_range ? " (too large)" : ""));
  if (error != std::errc() || end != text.data() + text.size() || value < min || value > max)
    throw std::invalid_argument("--" + std::string(option) + " " + text + ": expected " + range);
  return value;
}

void checkWritable(std::string_view option, const fs::path& path) {
  std::string name = "--" + std::string(option) + " " + path.string();
  std::error_code error;
  fs::file_status status = fs::status(path, error);
  if (fs::is_directory(status))
    throw std::invalid_argument(name + ": is a folder, not a file");
  if (fs::exists(status)) {
    if (::access(path.c_str(), W_OK) != 0)
      throw std::invalid_argument(name + ": cannot write it (" + std::strerror(errno) + ")");
    return;
  }
  fs::path folder = fs::absolute(path, error).parent_path();
  if (!fs::is_directory(fs::status(folder, error)))
    throw std::invalid_argument(name + ": the folder " + folder.string() + " does not exist");
  if (::access(folder.c_str(), W_OK | X_OK) != 0)
    throw std::invalid_argument(name + ": cannot create files in " + folder.string() + " (" +
                                std::strerror(errno) + ")");
}

std::string readInput(const std::string& file) {
  if (file == "-") {
    std::string text((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    if (std::cin.bad())
      throw std::runtime_error("cannot read standard input");
    return text;
  }
  std::ifstream in(file, std::ios::binary | std::ios::ate);
  if (!in)
    throw std::runtime_error("cannot read " + file + ": " + std::strerror(errno));
  std::streamoff size = in.tellg();
  // Two bytes to spare: the parser appends its end marks in place (ir::parsePtxBuffer), which
  // would otherwise copy a large module's text into a new buffer twice its size.
  std::string text;
  text.reserve(size > 0 ? static_cast<size_t>(size) + 2 : 2);
  text.resize(size > 0 ? static_cast<size_t>(size) : 0);
  in.seekg(0);
  if (size < 0 || !in.read(text.data(), size))
    throw std::runtime_error("cannot read " + file);
  return text;
}

std::string inputName(const std::string& file) {
  return file == "-" ? "<stdin>" : file;
}

void printInstrumentorHelp(std::ostream& out, const instrumentors::InstrumentorRegistry& registry) {
  out << "\ninstrumentors (-i NAME[:key=value:...], comma-separated; or a plugin's path):\n";
  for (const auto& [name, description] : registry.list()) {
    out << "  " << name << "\n      " << description << "\n";
    for (const auto& option : instrumentors::builtinInstrumentorOptions(name))
      out << "      " << name << ":" << option.key << "=" << option.values << "\n          "
          << option.meaning << "\n";
  }
}

} // namespace ocelot::tools
