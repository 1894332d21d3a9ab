#include "FatbinaryFuzz.h"

#include "ir/Parser.h"
#include "runtime/fatbin/Decompress.h"
#include "runtime/fatbin/Fatbinary.h"
#include "runtime/fatbin/Selection.h"
#include "runtime/fatbin/Wrapper.h"

#include <span>

namespace ocelot::runtime::testing {

int fuzzFatbinary(const uint8_t* data, size_t size) {
  std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  (void)fatbin::decodeWrapper(bytes);
  auto parsed = fatbin::parseFatbinary(bytes);
  if (!parsed)
    return 0;
  std::vector<const fatbin::Entry*> entries = parsed->entries();
  for (fatbin::ComputeCapability device :
       {fatbin::ComputeCapability{7, 5}, {9, 0}, {10, 3}, {12, 1}}) {
    (void)fatbin::selectPtx(entries, device);
    (void)fatbin::selectCubin(entries, device);
  }
  // Small limits keep the fuzzer fast; they are a parameter, so this exercises the same code.
  fatbin::DecompressionLimits limits{uint64_t{16} << 20};
  const std::byte* begin = bytes.data();
  const std::byte* end = bytes.data() + bytes.size();
  for (const fatbin::Entry* entry : entries) {
    if (entry->payload.data() < begin || entry->payload.data() + entry->payload.size() > end ||
        entry->options.data() + entry->options.size() > end)
      __builtin_trap();
    (void)entry->optionsText();
    (void)entry->archName();
    if (!entry->is(fatbin::EntryKind::Ptx)) {
      (void)fatbin::decompressPayload(*entry, limits);
      continue;
    }
    auto text = fatbin::extractPtx(*entry, limits);
    if (text && text->size() < (1u << 20))
      (void)ir::parsePtx(*text, "fuzz.ptx");
  }
  return 0;
}

} // namespace ocelot::runtime::testing
