#pragma once
// Corpus modules that are the same code for two targets. nvcc's PTX for an architecture-specific
// target (compute_90a) is, for most sources, its PTX for the base target (compute_90) with only
// the `.target` line changed. Ocelot instruments both alike (the instrumentors see architecture
// 90 in both), and ptxas accepts for sm_90a everything it accepts for sm_90 (the `a` target adds
// instructions, it removes none). So the corpus tests instrument a twin and its base module alike,
// and when the results are the same but for `.target`, leave ptxas to the base module's test
// (OCELOT_CORPUS_ASSEMBLE_TWINS=1 assembles twins as well).
//
// The same holds for a -lineinfo module and its plain build: nvcc's PTX differs only in the line
// table (`.loc`, `.file` and a `.debug_str` section for inlined-at names). Over 64 KB (where the
// corpus tests assemble one tool set per module anyway, CorpusPtxasRotation.h) such a module leaves
// ptxas to its plain twin when the instrumented code is the same but for the line table; smaller
// -lineinfo modules are assembled, which keeps Ocelot's re-emitted line tables under ptxas.

#include "tests/support/CorpusManifest.h"

#include <optional>
#include <string>
#include <vector>

namespace ocelot::test {

/// Whether `ptx` and `basePtx` are the same text but for their `.target` lines, which differ only
/// in `arch` against `baseArch` (`.target sm_90a` against `.target sm_90`, debug flags kept).
bool samePtxButTarget(const std::string& ptx, const std::string& arch, const std::string& basePtx,
                      const std::string& baseArch);

/// Whether `ptx` and `basePtx` are the same text but for line-table directives (`.loc` and `.file`
/// lines and the `.section .debug_str { ... }` block) and blank lines.
bool samePtxButLineTable(const std::string& ptx, const std::string& basePtx);

/// Whether `ptx` (of `entry`, instrumented) is `basePtx` (of its twin `base`, instrumented alike)
/// but for what tells the twins apart: the `.target` line, or the line table.
bool sameCodeAsTwin(const std::string& ptx, const CorpusEntry& entry, const std::string& basePtx,
                    const CorpusEntry& base);

/// The plain entry whose code the -lineinfo `entry` (text `ptx`, over 64 KB) repeats
/// (`sorting.sm_90` for `sorting.sm_90.lineinfo`); nullopt otherwise.
std::optional<CorpusEntry> lineInfoTwin(const CorpusEntry& entry, const std::string& ptx,
                                        const std::vector<CorpusEntry>& all);

/// The base-target entry whose PTX `entry` repeats (`sorting.sm_90` for `sorting.sm_90a`, whose
/// text is `ptx`), found in `all`; nullopt when `entry` is not for an architecture-specific
/// target, the base module is not in `all`, or its code differs.
std::optional<CorpusEntry> baseTargetTwin(const CorpusEntry& entry, const std::string& ptx,
                                          const std::vector<CorpusEntry>& all);

/// baseTargetTwin or lineInfoTwin, or nullopt when OCELOT_CORPUS_ASSEMBLE_TWINS=1 (every module
/// assembled).
std::optional<CorpusEntry> corpusTwinBase(const CorpusEntry& entry, const std::string& ptx,
                                          const std::vector<CorpusEntry>& all);

} // namespace ocelot::test
