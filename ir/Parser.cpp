#include "ir/Parser.h"

#include "ir/parser/Lexer.h"
#include "ir/parser/ParseContext.h"

#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <new>
#include <unistd.h>

namespace ocelot::ir {

namespace {

ParseResult failure(std::string_view fileName, std::string message) {
  ParseResult result;
  result.diagnostics.push_back(Diagnostic{std::string(fileName), {}, std::move(message)});
  return result;
}

std::string megabytes(size_t bytes) {
  return std::to_string((bytes + (1 << 20) - 1) >> 20) + " MB";
}

ParseResult overBudget(std::string_view fileName, size_t size, size_t budget, SourcePosition at) {
  ParseResult result;
  result.diagnostics.push_back(Diagnostic{
      std::string(fileName), at,
      "parsing stopped: the module (" + megabytes(size) +
          " of PTX) needs more than its memory budget of " + megabytes(budget) +
          "; set OCELOT_PTX_MEMORY_MB (or ParseOptions::memoryBudget) higher to parse it",
      DiagnosticKind::ResourceLimit});
  return result;
}

std::atomic<uint64_t>& parseCounter() {
  static std::atomic<uint64_t> counter{0};
  return counter;
}

/// Parses `size` bytes of `buffer`, which has two more bytes for the NULs Flex scans up to.
ParseResult parseInPlace(char* buffer, size_t size, std::string_view fileName,
                         const ParseOptions& options) {
  parseCounter().fetch_add(1, std::memory_order_relaxed);
  const size_t budget = options.memoryBudget == 0 ? SIZE_MAX : options.memoryBudget;
  if (size >= budget)
    return overBudget(fileName, size, budget, {});
  buffer[size] = '\0';
  buffer[size + 1] = '\0';
  auto module = std::make_unique<Module>();
  detail::ParseContext context(*module, fileName);
  context.setNewestVersion(options.newestVersion);
  SourceRange stoppedAt;
  try {
    // The module's statements come from its arena; the scope ends before the module can go.
    Arena::Scope arena(module->arena(), budget - size);
    detail::Lexer lexer(buffer, size, context, options.scannerFastPath);
    try {
      detail::PtxParser parser(context, lexer);
      int status = parser.parse();
      if (status != 0 && context.diagnostics().empty())
        context.report(lexer.endOfInput(), "the parser stopped without a message");
    } catch (const std::bad_alloc&) {
      stoppedAt = lexer.location();
      throw;
    }
  } catch (const Arena::BudgetExceeded&) {
    return overBudget(fileName, size, budget, stoppedAt.begin);
  } catch (const std::bad_alloc&) {
    ParseResult result;
    result.diagnostics.push_back(Diagnostic{std::string(fileName), stoppedAt.begin,
                                            "not enough memory to parse the input",
                                            DiagnosticKind::ResourceLimit});
    return result;
  }
  ParseResult result;
  result.diagnostics = std::move(context.diagnostics());
  if (result.diagnostics.empty())
    result.module = std::move(module);
  return result;
}

} // namespace

ParseResult parsePtx(std::string_view text, std::string_view fileName,
                     const ParseOptions& options) {
  std::unique_ptr<char[]> buffer(new (std::nothrow) char[text.size() + 2]);
  if (!buffer)
    return failure(fileName, "not enough memory to read the input");
  std::memcpy(buffer.get(), text.data(), text.size());
  return parseInPlace(buffer.get(), text.size(), fileName, options);
}

ParseResult parsePtxBuffer(std::string&& text, std::string_view fileName,
                           const ParseOptions& options) {
  std::string owned = std::move(text);
  const size_t size = owned.size();
  owned.append(2, '\0'); // within the capacity readers usually leave
  return parseInPlace(owned.data(), size, fileName, options);
}

size_t defaultParseMemoryBudget() {
  if (const char* text = std::getenv("OCELOT_PTX_MEMORY_MB"); text != nullptr && *text != '\0') {
    uint64_t megabytes = 0;
    auto [end, error] = std::from_chars(text, text + std::strlen(text), megabytes);
    if (error == std::errc() && *end == '\0' && megabytes < (uint64_t{1} << 44))
      return static_cast<size_t>(megabytes << 20);
  }
  long pages = ::sysconf(_SC_PHYS_PAGES);
  long pageSize = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || pageSize <= 0)
    return 0; // unknown: no limit
  return static_cast<size_t>(pages) / 4 * 3 * static_cast<size_t>(pageSize);
}

ParseResult parsePtxFile(const std::filesystem::path& path, const ParseOptions& options) {
  std::ifstream file(path, std::ios::binary | std::ios::ate);
  if (!file)
    return failure(path.string(), "cannot open file: " + std::string(std::strerror(errno)));
  std::streamoff size = file.tellg();
  if (size < 0)
    return failure(path.string(), "cannot determine the file's size");
  std::unique_ptr<char[]> buffer(new (std::nothrow) char[static_cast<size_t>(size) + 2]);
  if (!buffer)
    return failure(path.string(), "not enough memory to read the file");
  file.seekg(0);
  if (!file.read(buffer.get(), size))
    return failure(path.string(), "cannot read file: " + std::string(std::strerror(errno)));
  return parseInPlace(buffer.get(), static_cast<size_t>(size), path.string(), options);
}

uint64_t textsParsed() {
  return parseCounter().load(std::memory_order_relaxed);
}

} // namespace ocelot::ir
