#pragma once

#include "instrumentors/ProbeBlockCounts.h"
#include "instrumentors/ProbeLayout.h"
#include "instrumentors/ProbeProgram.h"
#include "ocelot/Instrumentor.h"
#include "ocelot/ProbeTool.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ocelot::instrumentors {

/// One place a probe is inlined, decided before the module changes. The probe goes right before
/// `anchor` (or at the end of the block when it is null) in whichever block holds the anchor when
/// the probe is inlined; sites at one anchor are inlined in `order`.
struct ProbeSiteRecord {
  uint32_t probe = 0; ///< index into the program's probes
  uint32_t site = 0;  ///< site id (ProbeModuleTables::sites)
  /// The application's block; null for kernel entries (the function's first block when the probes
  /// are inlined, which the buffer plan may have put in front of the application's).
  ir::BasicBlock* block = nullptr;
  /// The statement the probe goes before; null for the end of `block`.
  const ir::Statement* anchor = nullptr;
  /// Where the anchor is null: the block after `block` in the application's layout (null for the
  /// last). Another tool's probes split `block` into parts that lie between the two, so "the end
  /// of `block`" is the end of the last of them.
  const ir::BasicBlock* follower = nullptr;
  const ir::Instruction* instruction = nullptr; ///< the probed instruction, if any
  bool after = false;
  uint32_t instructionId = ProbeSite::kNoInstruction;
  uint32_t blockId = 0;
  uint64_t order = 0; ///< (block, anchor position, phase) in the application's layout
};

/// What a probe tool keeps about one module between analyze and finalize: the tables results
/// refer to, the sites, and the layout of the fixed regions.
class ProbeModuleState final : public InstrumentorModuleState {
public:
  const ProbeProgram* program = nullptr;
  std::shared_ptr<ProbeModuleTables> tables = std::make_shared<ProbeModuleTables>();
  ProbeModuleCounts counts;
  std::map<const ir::Function*, std::vector<ProbeSiteRecord>> sites;
  std::map<const ir::Function*, uint32_t> functionIndex; ///< into tables->functions
  std::map<const ir::Function*, uint32_t> firstBlock;    ///< id of the function's first block
  /// The OCELOT_BLOCK_COUNTS regions' counters (ProbeInstrumentor places them).
  std::vector<ProbeBlockCounting> blockCounts;
  /// Offsets of the fixed regions (those sized by the launch follow; see ProbeLayout).
  ProbeLayout fixedLayout;
};

/// Decides every site of the program's probes in `module` (its functions the buffer reaches),
/// leaving out probes whose bit is set in `sampledOut`, and builds the tables. Reads the module
/// only. A probe that needs more registers than a kernel may have is left out of that kernel, with
/// a note.
std::unique_ptr<ProbeModuleState> placeProbes(ir::Module& module, passes::AnalysisManager& analyses,
                                              const ProbeProgram& program,
                                              const BufferAccess& buffer, uint32_t sampledOut);

/// The most registers per thread `kernel` may use: its `.maxnreg`, what `.maxntid` and
/// `.minnctapersm` leave (65536 per SM), else 255.
uint32_t kernelRegisterLimit(const ir::Function& kernel);

} // namespace ocelot::instrumentors
