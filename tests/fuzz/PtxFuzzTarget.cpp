#include "PtxFuzzTarget.h"

#include "ir/Emitter.h"
#include "ir/Parser.h"

#include <cstdio>
#include <string_view>

namespace ocelot::fuzz {

int fuzzPtxParser(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  ir::ParseResult result = ir::parsePtx(text, "fuzz.ptx");
  // The scanner's fast path for simple instructions must agree with the grammar's operand rules.
  ir::ParseOptions grammarOnly;
  grammarOnly.scannerFastPath = false;
  ir::ParseResult reference = ir::parsePtx(text, "fuzz.ptx", grammarOnly);
  if (result.ok() != reference.ok()) {
    std::fprintf(stderr, "fast path and grammar disagree: %s | %s\n", result.firstError().c_str(),
                 reference.firstError().c_str());
    __builtin_trap();
  }
  if (result.ok() && !result.module->equals(*reference.module)) {
    std::fprintf(stderr, "fast path and grammar build different modules\n");
    __builtin_trap();
  }
  if (!result.ok()) {
    // A failed parse explains itself: exactly one diagnostic with a message.
    if (result.diagnostics.size() != 1 || result.diagnostics[0].message.empty())
      __builtin_trap();
    return 0;
  }
  for (bool preserveLines : {true, false}) {
    std::string emitted = ir::emitPtx(*result.module, ir::EmitOptions{preserveLines});
    ir::ParseResult again = ir::parsePtx(emitted, "fuzz-emitted.ptx");
    if (!again.ok()) {
      std::fprintf(stderr, "emitted PTX does not parse: %s\n", again.firstError().c_str());
      __builtin_trap();
    }
    if (!again.module->equals(*result.module)) {
      std::fprintf(stderr, "parse(emit(parse(x))) differs from parse(x)\n");
      __builtin_trap();
    }
  }
  return 0;
}

} // namespace ocelot::fuzz
