#pragma once
// How hard ptxas works on the corpus tests' instrumented modules. The tests assemble Ocelot's
// output to check that it is valid PTX (syntax, types, declared registers and symbols, the
// target's instructions): ptxas' front end, which runs the same at every optimization level. The
// optimizer is most of ptxas' time on an instrumented module (the oracle's probes on a 90 KB
// module make 3.7 MB of PTX), so the modules are assembled at the fast level, and a fixed sample of
// them at the default level instead, which keeps the optimizer's own checks (resources,
// registers, stack) and the level nvcc and the driver use covered.

#include "tests/support/Ptxas.h"

#include <cstdint>
#include <string_view>

namespace ocelot::test {

/// One corpus module in this many (by a hash of its name) is assembled at the default level.
inline constexpr uint32_t kCorpusFullPtxasSampleEvery = 8;

/// Whether the corpus tests assemble the module `moduleName` (`sorting.sm_90.lineinfo`) at the
/// default level as well: when it is in the fixed sample, or when OCELOT_CORPUS_PTXAS=full is set
/// (every module at both levels, for a run by hand). The sample depends on the name alone, so
/// every run and machine assembles the same modules at the same levels.
bool corpusFullPtxas(std::string_view moduleName);

/// Whether the name is in the fixed sample (no environment), for tests of the sample itself.
bool inCorpusFullPtxasSample(std::string_view moduleName);

/// ptxas on an instrumented corpus module: at the default level when corpusFullPtxas says so,
/// else at the fast level.
PtxasResult assembleCorpusModule(const std::string& ptx, const std::string& arch,
                                 std::string_view moduleName);

} // namespace ocelot::test
