#include "ir/Parser.h"

#include "ir/parser/Lexer.h"
#include "ir/parser/ParseContext.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <new>

namespace ocelot::ir {

namespace {

ParseResult failure(std::string_view fileName, std::string message) {
  ParseResult result;
  result.diagnostics.push_back(Diagnostic{std::string(fileName), {}, std::move(message)});
  return result;
}

/// Parses `size` bytes of `buffer`, which has two more bytes for the NULs Flex scans up to.
ParseResult parseInPlace(char* buffer, size_t size, std::string_view fileName,
                         const ParseOptions& options) {
  buffer[size] = '\0';
  buffer[size + 1] = '\0';
  auto module = std::make_unique<Module>();
  detail::ParseContext context(*module, fileName);
  context.setNewestVersion(options.newestVersion);
  try {
    // The module's statements come from its arena; the scope ends before the module can go.
    Arena::Scope arena(module->arena());
    detail::Lexer lexer(buffer, size, context, options.scannerFastPath);
    detail::PtxParser parser(context, lexer);
    int status = parser.parse();
    if (status != 0 && context.diagnostics().empty())
      context.report(lexer.endOfInput(), "the parser stopped without a message");
  } catch (const std::bad_alloc&) {
    context.report({}, "not enough memory to parse the input");
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

} // namespace ocelot::ir
