// Probe tools without a device: placement and region specs, the probe program (bad probes from
// nvcc, each refused with its name and reason), NVRTC, placement on small kernels, the register
// guard, layouts, registration through the plugin host, results and their JSON.

#include "instrumentors/InstrumentorRegistry.h"
#include "instrumentors/ModuleInstrumenter.h"
#include "instrumentors/NvrtcCompiler.h"
#include "instrumentors/ProbeBlockCounts.h"
#include "instrumentors/ProbeInstrumentor.h"
#include "instrumentors/ProbeLayout.h"
#include "instrumentors/ProbeSites.h"
#include "instrumentors/ProbeSpec.h"
#include "ocelot/Json.h"
#include "tests/instrumentors/InstrumentorTestSupport.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace ocelot::instrumentors {
namespace {

std::string probePtx(const std::string& name) {
  std::ifstream in(std::string(OCELOT_PROBE_PTX_DIR) + "/" + name + ".ptx", std::ios::binary);
  EXPECT_TRUE(in) << name;
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string sourceFile(const std::string& relative) {
  std::ifstream in(std::string(OCELOT_SOURCE_DIR) + "/" + relative, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string programError(const std::vector<std::string>& ptx) {
  try {
    ProbeProgram program(ptx);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return {};
}

std::unique_ptr<ProbeInstrumentor> tool(const std::string& ptx, const std::string& name = "t") {
  auto shared = std::make_shared<ProbeInstrumentor::Shared>();
  shared->definition.name = name;
  shared->definition.ptx = {ptx};
  return std::make_unique<ProbeInstrumentor>(shared, InstrumentorOptions{});
}

// --- Specs -------------------------------------------------------------------------------------

TEST(ProbeSpec, Placements) {
  ProbeSpec s = parseProbeSpec("probe p; at=instruction; when=around; class=load,store; "
                               "space=global; kind=load; kernel=^k; file=a\\.cu; sample-warps=4");
  EXPECT_EQ(s.name, "p");
  EXPECT_EQ(s.placement.at, Placement::At::Instruction);
  EXPECT_TRUE(s.placement.before && s.placement.after);
  EXPECT_EQ(s.placement.classes, (std::vector<probe::OpcodeClass>{probe::kLoad, probe::kStore}));
  EXPECT_EQ(s.placement.spaces, (std::vector<probe::StateSpace>{probe::kGlobal}));
  EXPECT_EQ(s.placement.kinds, (std::vector<probe::AccessKind>{probe::kRead}));
  EXPECT_TRUE(s.placement.kernel && s.placement.file);
  EXPECT_EQ(s.placement.sampleWarps, 4u);
  EXPECT_FALSE(s.placement.receiveGuard);
  ProbeSpec branch = parseProbeSpec("probe b; at=branch");
  EXPECT_TRUE(branch.placement.receiveGuard);
  EXPECT_EQ(branch.placement.classes, (std::vector<probe::OpcodeClass>{probe::kBranch}));
  EXPECT_FALSE(parseProbeSpec("probe b; guard=skip; at=branch").placement.receiveGuard);
  EXPECT_EQ(parseProbeSpec("probe m; at=instruction; class=memory").placement.classes.size(), 3u);
  EXPECT_FALSE(s.placement.skipDerivable);
  EXPECT_TRUE(parseProbeSpec("probe g; at=instruction; guarded=yes; derivable=skip")
                  .placement.skipDerivable);
  EXPECT_FALSE(parseProbeSpec("probe g; at=instruction; derivable=probe").placement.skipDerivable);
}

TEST(ProbeSpec, BadPlacementsSayWhat) {
  auto error = [](const char* text) {
    try {
      parseProbeSpec(text);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error("probe p; at=nowhere").find("at=nowhere"), std::string::npos);
  EXPECT_NE(error("probe p").find("no placement"), std::string::npos);
  EXPECT_NE(error("probe p; at=block-entry; colour=red").find("unknown key 'colour'"),
            std::string::npos);
  EXPECT_NE(error("probe p; at=block-entry; class=load").find("instruction placements only"),
            std::string::npos);
  EXPECT_NE(error("probe p; at=instruction; class=loads").find("class=loads"), std::string::npos);
  EXPECT_NE(error("probe p; at=instruction; kernel=(").find("not a regular expression"),
            std::string::npos);
  EXPECT_NE(error("probe p; at=kernel-entry; sample-warps=0").find("at least 1"),
            std::string::npos);
  EXPECT_NE(error("probe p; at=instruction; derivable=maybe").find("derivable=maybe (skip, probe)"),
            std::string::npos);
  EXPECT_NE(error("probe p; at=block-entry; derivable=skip").find("instruction placements only"),
            std::string::npos);
}

TEST(ProbeSpec, Regions) {
  RegionSpec r = parseRegionSpec("region hits; kind=counters; type=u64; bytes=8; align=8; "
                                 "per=block; stripes=32");
  EXPECT_EQ(r.name, "hits");
  EXPECT_EQ(r.per, RegionSpec::Per::Block);
  EXPECT_EQ(r.stripes, 32u);
  EXPECT_EQ(r.id, regionId("hits"));
  // What nvcc computed with the header's regionId (their PTX initializers).
  EXPECT_EQ(regionId("entries"), 0x6f5882f3u);
  EXPECT_EQ(regionId("hits"), 1253637531u);
  RegionSpec s = parseRegionSpec("region t; kind=stream; type=record; bytes=24; align=8; "
                                 "capacity=1000");
  EXPECT_EQ(s.count, 1000u);
  EXPECT_THROW(parseRegionSpec("region t; kind=stream; type=record; bytes=24; align=8"),
               std::invalid_argument);
  EXPECT_THROW(parseRegionSpec("region c; kind=counters; type=u64; bytes=8; align=8; stripes=3"),
               std::invalid_argument);
  EXPECT_THROW(parseRegionSpec("region c; kind=counters; type=record; bytes=8; align=8"),
               std::invalid_argument);
  // OCELOT_BLOCK_COUNTS: per-block u64 counters the framework fills.
  RegionSpec lanes = parseRegionSpec("region e; kind=counters; type=u64; bytes=8; align=8; "
                                     "per=block; stripes=32; entries=lanes");
  EXPECT_EQ(lanes.entries, RegionSpec::Entries::Lanes);
  EXPECT_EQ(parseRegionSpec("region e; kind=counters; type=u64; bytes=8; align=8; per=block; "
                            "entries=warps")
                .entries,
            RegionSpec::Entries::Warps);
  EXPECT_EQ(r.entries, RegionSpec::Entries::None);
  for (const char* bad : {"region e; kind=counters; type=u64; bytes=8; align=8; per=block; "
                          "entries=threads",
                          "region e; kind=counters; type=u64; bytes=8; align=8; per=warp; "
                          "entries=lanes",
                          "region e; kind=counters; type=u32; bytes=4; align=4; per=block; "
                          "entries=lanes"})
    EXPECT_THROW(parseRegionSpec(bad), std::invalid_argument) << bad;
}

TEST(ProbeLayout, FixedRegionsFirstThenLaunchSized) {
  std::vector<RegionSpec> regions = {
      parseRegionSpec("region w; kind=counters; type=u32; bytes=4; align=4; per=warp"),
      parseRegionSpec("region b; kind=counters; type=u64; bytes=8; align=8; per=block"),
      parseRegionSpec("region s; kind=stream; type=record; bytes=24; align=8; capacity=10")};
  ProbeModuleCounts counts{100, 20, 5, 2};
  ProbeLaunchShape shape{3, 4, 100};
  ProbeLayout layout = ProbeLayout::compute(regions, 2, counts, shape);
  EXPECT_EQ(layout.headerBytes, 256u);
  EXPECT_EQ(layout.regions[1].offset, 256u); // b, the first fixed region
  EXPECT_EQ(layout.regions[1].elements, 20u);
  EXPECT_EQ(layout.regions[2].offset, 512u); // s: 16 + 20 * 8 = 176 -> 256
  EXPECT_EQ(layout.fixedEnd, 768u);          // s: 16 + 240 -> 256
  EXPECT_EQ(layout.regions[0].offset, 768u); // w, sized by the launch
  EXPECT_EQ(layout.regions[0].elements, 12u);
  EXPECT_EQ(layout.totalBytes, 1024u);
}

// --- Bad probes, compiled by nvcc: refused, each with its name and the reason ------------------

struct BadModule {
  const char* file;
  const char* message;
};

class BadProbeModules : public ::testing::TestWithParam<BadModule> {};

TEST_P(BadProbeModules, AreRefusedWithTheProbesNameAndTheReason) {
  std::string error = programError({probePtx(GetParam().file)});
  EXPECT_NE(error.find(GetParam().message), std::string::npos) << error;
}

INSTANTIATE_TEST_SUITE_P(
    Nvcc, BadProbeModules,
    ::testing::Values(BadModule{"recursion", "probe 'recurse' recurses"},
                      BadModule{"printf", "probe 'talk' calls 'vprintf' (printf)"},
                      BadModule{"malloc", "probe 'allocate' calls 'malloc', which probes cannot"},
                      BadModule{"barrier", "probe 'wait' waits at a barrier (bar.sync)"},
                      BadModule{"shared", "probe 'share' uses the variable 'scratch'"},
                      BadModule{"stack", "probe 'stack' uses local memory"},
                      BadModule{"helper",
                                "probe 'help' calls '_Z5twicey', which nvcc did not inline"},
                      BadModule{"pointer", "probe 'indirect' makes an indirect call"}),
    [](const ::testing::TestParamInfo<BadModule>& param) { return std::string(param.param.file); });

TEST(ProbeProgram, RefusesModulesWithoutProbesOrThatDoNotParse) {
  EXPECT_NE(programError({}).find("no probe module"), std::string::npos);
  EXPECT_NE(programError({"this is not PTX"}).find("does not parse"), std::string::npos);
  EXPECT_NE(programError({".version 9.0\n.target sm_75\n.address_size 64\n"}).find("no probe"),
            std::string::npos);
  // A spec whose function is missing.
  std::string ptx = probePtx("blockhits");
  size_t at = ptx.find(".visible .func countEntries");
  ASSERT_NE(at, std::string::npos);
  ptx.replace(at, std::string(".visible .func countEntries").size(), ".visible .func renamed");
  EXPECT_NE(programError({ptx}).find("probe 'countEntries': no function"), std::string::npos);
}

TEST(ProbeProgram, ReadsTheExamplesSpecs) {
  ProbeProgram program({probePtx("probecount")});
  ASSERT_EQ(program.probes().size(), 1u);
  EXPECT_EQ(program.probes()[0].spec.name, "countBlock");
  ASSERT_EQ(program.regions().size(), 1u);
  EXPECT_EQ(program.regions()[0].name, "entries");
  EXPECT_EQ(program.regions()[0].stripes, 32u);
  EXPECT_EQ(program.architecture(), 75u);
  ProbeProgram oracle({probePtx("oracle")});
  EXPECT_EQ(oracle.probes().size(), 5u);
  EXPECT_EQ(oracle.regions().size(), 7u);
}

TEST(ProbeProgram, NvrtcCompilesProbesAtRunTimeOrSaysWhyNot) {
  std::string source = sourceFile("examples/probes/blockhits/probes.cu");
  std::string ptx;
  try {
    ptx = compileProbeSource(source, "blockhits.cu");
  } catch (const std::runtime_error& e) {
    std::string why = e.what();
    ASSERT_NE(why.find("NVRTC is not available"), std::string::npos) << why;
    GTEST_SKIP() << why;
  }
  ProbeProgram program({ptx});
  EXPECT_EQ(program.probes().at(0).spec.name, "countEntries");
  // A probe that does not compile: NVRTC's log, naming the file.
  try {
    compileProbeSource(sourceFile("tests/probes/bad/does_not_compile.cu.txt"), "broken.cu");
    FAIL() << "a syntax error compiled";
  } catch (const std::runtime_error& e) {
    std::string why = e.what();
    EXPECT_NE(why.find("broken.cu does not compile"), std::string::npos) << why;
    EXPECT_NE(why.find("expected an expression"), std::string::npos) << why;
  }
}

// --- Placement on small kernels ----------------------------------------------------------------

struct Instrumented {
  std::unique_ptr<ProbeInstrumentor> instrumentor;
  InstrumentedPtx module;
  const ProbeModuleState& state() const {
    return static_cast<const ProbeModuleState&>(*module.states.at(0));
  }
};

Instrumented instrument(const std::string& probes, const std::string& kernel) {
  Instrumented out;
  out.instrumentor = tool(probes);
  InstrumentOptions options;
  options.label = "kernel";
  out.module = instrumentModule(kernel, {{out.instrumentor.get(), 0}}, options);
  EXPECT_TRUE(out.module.ok) << out.module.error;
  return out;
}

TEST(ProbePlacement, BlockEntriesKernelEntriesAndExits) {
  Instrumented blockhits = instrument(probePtx("blockhits"), test::kLoopKernel);
  const ProbeModuleTables& t = *blockhits.state().tables;
  ASSERT_EQ(t.functions.size(), 1u);
  EXPECT_TRUE(t.functions[0].kernel);
  EXPECT_EQ(t.blocks.size(), 3u);
  EXPECT_EQ(t.sites.size(), 3u); // one per block
  EXPECT_EQ(t.instructions.size(), 15u);
  EXPECT_EQ(t.functions[0].sites, 3u);
  EXPECT_GT(t.functions[0].probeRegisters, 0u);
  EXPECT_GT(t.functions[0].ptxRegisters, 0u);
  for (uint32_t b = 0; b < t.blocks.size(); ++b) {
    EXPECT_EQ(t.blocks[b].function, "loop");
    EXPECT_EQ(t.blocks[b].index, b); // bbcount's numbering
  }
  EXPECT_EQ(t.blocks[1].label, "LOOP");
  test::PtxasRun run = test::runPtxas(blockhits.module.ptx, "sm_90");
  if (run.ran) {
    EXPECT_EQ(run.status, 0) << run.output;
  }
}

TEST(ProbePlacement, InstructionFiltersAndDeviceFunctions) {
  Instrumented oracle = instrument(probePtx("oracle"), test::kCallKernel);
  const ProbeModuleTables& t = *oracle.state().tables;
  ASSERT_EQ(t.functions.size(), 2u);
  // Sites in the device function too.
  EXPECT_GT(t.functions[0].sites + t.functions[1].sites, 0u);
  bool inCallee = false;
  for (const auto& site : t.sites)
    inCallee = inCallee || t.functions[site.function].name == "twice";
  EXPECT_TRUE(inCallee);
  // traceMemory only at accesses of generic, global, shared and local memory.
  for (const auto& site : t.sites)
    if (site.probe == "traceMemory") {
      const ProbeInstruction& inst = t.instructions.at(site.instruction);
      EXPECT_TRUE(inst.space == probe::kGlobal || inst.space == probe::kGeneric ||
                  inst.space == probe::kShared || inst.space == probe::kLocal)
          << inst.opcode;
    }
  test::PtxasRun run = test::runPtxas(oracle.module.ptx, "sm_90");
  if (run.ran) {
    EXPECT_EQ(run.status, 0) << run.output;
  }
}

// Blocks that end without an instruction to anchor on: the label-only blocks nvcc -G leaves after
// a function's `ret`, and a fall-through block whose last instruction has a probe after it. A
// first tool's probe with a branch splits such a block; a second tool's probe at the block's end
// must go at the end of the last part, not in the middle of the first tool's probe (the corpus
// found `instmix` beside `probecount` breaking every -G module so).
constexpr const char* kBlocksEndingWithoutAnAnchor = R"(.version 8.5
.target sm_90
.address_size 64

.func  (.param .b32 func_retval0) load(
	.param .b64 load_param_0
)
{
	.reg .b32 	%r<2>;
	.reg .b64 	%rd<2>;
	ld.param.u64 	%rd1, [load_param_0];
	ld.global.u32 	%r1, [%rd1];
	st.param.b32 	[func_retval0+0], %r1;
	ret;
$L__tmp1:
$L__func_end0:
}

.visible .entry kernel(
	.param .u64 kernel_param_0
)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<3>;
	.reg .b64 	%rd<3>;
	ld.param.u64 	%rd1, [kernel_param_0];
	cvta.to.global.u64 	%rd2, %rd1;
	{ // callseq 0, 0
	.param .b64 param0;
	st.param.b64 	[param0+0], %rd2;
	.param .b32 retval0;
	call.uni (retval0), load, (param0);
	ld.param.b32 	%r1, [retval0+0];
	} // callseq 0
	setp.eq.s32 	%p1, %r1, 0;
	@%p1 bra 	$L__BB1_2;
	add.s32 	%r2, %r1, 1;
	st.global.u32 	[%rd2], %r2;
$L__BB1_2:
	ret;
}
)";

TEST(ProbePlacement, TwoToolsShareTheEndsOfBlocksWithoutAnAnchor) {
  const std::vector<std::string> names = {"probecount", "blockhits", "oracle"};
  for (const auto& first : names)
    for (const auto& second : names) {
      if (first == second)
        continue;
      auto a = tool(probePtx(first), first), b = tool(probePtx(second), second);
      InstrumentOptions options;
      options.label = first + "+" + second;
      InstrumentedPtx out =
          instrumentModule(kBlocksEndingWithoutAnAnchor, {{a.get(), 0}, {b.get(), 0}}, options);
      ASSERT_TRUE(out.ok) << options.label << ": " << out.error;
      test::PtxasRun run = test::runPtxas(out.ptx, "sm_90");
      if (run.ran) {
        EXPECT_EQ(run.status, 0) << options.label << ":\n" << run.output;
      }
    }
}

TEST(ProbePlacement, AProbeTooBigForTheKernelIsLeftOutWithANote) {
  std::string kernel = test::kLoopKernel;
  size_t at = kernel.find(")\n{");
  ASSERT_NE(at, std::string::npos);
  kernel.insert(at + 1, "\n.maxnreg 32");
  Instrumented hog = instrument(probePtx("registers"), kernel);
  const ProbeModuleTables& t = *hog.state().tables;
  EXPECT_EQ(t.sites.size(), 0u);
  ASSERT_EQ(t.functions[0].notes.size(), 1u);
  EXPECT_NE(t.functions[0].notes[0].find("probe 'hog' left out"), std::string::npos)
      << t.functions[0].notes[0];
  EXPECT_NE(t.functions[0].notes[0].find("may use 32"), std::string::npos);
  // Without the cap the kernel takes it.
  Instrumented roomy = instrument(probePtx("registers"), test::kLoopKernel);
  EXPECT_EQ(roomy.state().tables->sites.size(), 3u);
}

TEST(ProbePlacement, TheOccupancyGuardsCapsApplyToProbeTools) {
  auto probes = tool(probePtx("probecount"));
  InstrumentOptions options;
  options.registerCaps = {{"loop", 24}};
  InstrumentedPtx out = instrumentModule(test::kLoopKernel, {{probes.get(), 0}}, options);
  ASSERT_TRUE(out.ok) << out.error;
  EXPECT_NE(out.ptx.find(".maxnreg 24"), std::string::npos);
}

TEST(ProbePlacement, OlderTargetsThanTheProbesAreRefused) {
  std::string kernel = test::kLoopKernel;
  kernel.replace(kernel.find("sm_90"), 5, "sm_70");
  auto probes = tool(probePtx("blockhits"));
  InstrumentedPtx out = instrumentModule(kernel, {{probes.get(), 0}}, {});
  EXPECT_FALSE(out.ok);
  EXPECT_NE(out.error.find("compiled for sm_75"), std::string::npos) << out.error;
}

// --- Registration, variants, results -----------------------------------------------------------

TEST(ProbeTool, RegistersThroughThePluginHostAndChecksOptions) {
  InstrumentorRegistry registry;
  ocelot_plugin_host_v1 host = registry.host();
  ProbeToolDefinition definition{"counts", "block counts", {probePtx("probecount")}, {}, {"level"}};
  ASSERT_EQ(registerProbeTool(&host, definition), 0);
  EXPECT_TRUE(registry.contains("counts"));
  // A taken name is refused (and, under ASan, what it allocated is freed: no leak reported).
  EXPECT_NE(registerProbeTool(&host, definition), 0);
  auto instrumentor = registry.create("counts", InstrumentorOptions::parse("level=2"));
  EXPECT_EQ(instrumentor->name(), "counts");
  EXPECT_EQ(instrumentor->options(), "level=2");
  try {
    registry.create("counts", InstrumentorOptions::parse("colour=red"));
    FAIL() << "an unknown option was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("unknown option 'colour'"), std::string::npos);
  }
  // A tool whose probes are bad cannot be created, and says why.
  ProbeToolDefinition bad{"bad", "", {probePtx("recursion")}, {}, {}};
  ASSERT_EQ(registerProbeTool(&host, bad), 0);
  try {
    registry.create("bad", {});
    FAIL() << "a recursive probe was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("probe 'recurse' recurses"), std::string::npos)
        << e.what();
  }
  // The built-in `probe` tool reads files.
  auto fromFile = registry.create(
      "probe",
      InstrumentorOptions::parse(std::string("ptx=") + OCELOT_PROBE_PTX_DIR + "/probecount.ptx"));
  EXPECT_EQ(fromFile->name(), "probe");
  EXPECT_THROW(registry.create("probe", InstrumentorOptions::parse("ptx=/nonexistent.ptx")),
               std::invalid_argument);
}

TEST(ProbeTool, OptionsOverrideSamplingKernelsAndCounts) {
  InstrumentorRegistry registry;
  ocelot_plugin_host_v1 host = registry.host();
  ProbeToolDefinition definition{"regions", "", {probePtx("launch_regions")}, {}, {}};
  ASSERT_EQ(registerProbeTool(&host, definition), 0);
  auto configured = registry.create(
      "regions", InstrumentorOptions::parse("entry.sample-launches=2:sampled.count=4:"
                                            "leave.kernel=^nothing$"));
  const auto& tool = static_cast<const ProbeInstrumentor&>(*configured);
  EXPECT_EQ(tool.program().probes()[0].spec.placement.sampleLaunches, 2u);
  LaunchInfo launch;
  launch.kernelLaunchIndex = 2;
  EXPECT_EQ(tool.variant(launch, {}).variant, 1u); // probe 0 ('entry') sampled out
  bool counted = false;
  for (const auto& r : tool.program().regions())
    if (r.name == "sampled") {
      EXPECT_EQ(r.count, 4u);
      counted = true;
    }
  EXPECT_TRUE(counted);
  InstrumentedPtx out = instrumentModule(test::kLoopKernel, {{configured.get(), 0}}, {});
  ASSERT_TRUE(out.ok) << out.error;
  for (const auto& site : static_cast<const ProbeModuleState&>(*out.states[0]).tables->sites)
    EXPECT_NE(site.probe, "leave"); // its kernel filter matches no kernel
  // The shared program keeps its own settings.
  auto plain = registry.create("regions", {});
  EXPECT_EQ(static_cast<const ProbeInstrumentor&>(*plain)
                .program()
                .probes()[0]
                .spec.placement.sampleLaunches,
            1u);
  auto error = [&](const char* options) {
    try {
      registry.create("regions", InstrumentorOptions::parse(options));
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error("perWarp.count=3").find("sized per warp"), std::string::npos);
  EXPECT_NE(error("entry.sample-warps=0").find("at least 1"), std::string::npos);
  EXPECT_NE(error("nosuch.count=3").find("unknown option 'nosuch.count'"), std::string::npos);
}

TEST(ProbeTool, LoopCountersGoToRegistersUnlessTheOptionSaysOff) {
  InstrumentorRegistry registry;
  ocelot_plugin_host_v1 host = registry.host();
  ProbeToolDefinition definition{"probecount", "", {probePtx("probecount")}, {}, {}};
  ASSERT_EQ(registerProbeTool(&host, definition), 0);
  // probecount's block-entry atomic in the loop block: an add into a register by default, flushed
  // before the loop's closing `@%p2 bra` for the lanes that leave (`setp.ne.and` with the branch's
  // condition); an atomic with loop-registers=off.
  auto loopBody = [](const std::string& ptx) {
    size_t begin = ptx.find("LOOP:"), end = ptx.find("@%p2 bra");
    return ptx.substr(begin, end - begin);
  };
  auto registers = [](const InstrumentedPtx& out) {
    return static_cast<const ProbeModuleState&>(*out.states[0]).tables->functions[0].ptxRegisters;
  };
  auto promoted = registry.create("probecount", {});
  InstrumentedPtx a = instrumentModule(test::kLoopKernel, {{promoted.get(), 0}}, {});
  ASSERT_TRUE(a.ok) << a.error;
  auto atomic = registry.create("probecount", InstrumentorOptions::parse("loop-registers=off"));
  InstrumentedPtx b = instrumentModule(test::kLoopKernel, {{atomic.get(), 0}}, {});
  ASSERT_TRUE(b.ok) << b.error;
  EXPECT_NE(loopBody(a.ptx).find("setp.ne.and.u64"), std::string::npos) << a.ptx;
  EXPECT_EQ(loopBody(b.ptx).find("setp.ne.and.u64"), std::string::npos) << b.ptx;
  EXPECT_NE(loopBody(b.ptx).find("atom.add.u64"), std::string::npos) << b.ptx;
  EXPECT_EQ(loopBody(a.ptx).find("atom.add.u64"), std::string::npos) << a.ptx;
  EXPECT_EQ(registers(a), registers(b) + 2); // one 64-bit counter
  auto budget = registry.create("probecount", InstrumentorOptions::parse("loop-registers=1"));
  InstrumentedPtx c = instrumentModule(test::kLoopKernel, {{budget.get(), 0}}, {});
  ASSERT_TRUE(c.ok) << c.error;
  EXPECT_EQ(loopBody(c.ptx), loopBody(b.ptx)); // a 64-bit counter does not fit one register
  for (const std::string& ptx : {a.ptx, b.ptx}) {
    test::PtxasRun run = test::runPtxas(ptx, "sm_90");
    if (run.ran) {
      EXPECT_EQ(run.status, 0) << run.output;
    }
  }
  try {
    registry.create("probecount", InstrumentorOptions::parse("loop-registers=maybe"));
    FAIL() << "loop-registers=maybe was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("expected on, off or a number"), std::string::npos)
        << e.what();
  }
}

/// probecount's probe module with its probe's spec replaced by `spec` (a fresh initializer for
/// __ocelot_spec_probe_countBlock); empty when the module has no such spec.
std::string probecountWithSpec(const std::string& spec) {
  std::string ptx = probePtx("probecount");
  size_t declaration = ptx.find("__ocelot_spec_probe_countBlock[384] = {");
  if (declaration == std::string::npos)
    return {};
  size_t open = ptx.find('{', declaration), close = ptx.find('}', open);
  std::string bytes;
  for (char c : spec)
    bytes += (bytes.empty() ? "" : ", ") + std::to_string(static_cast<int>(c));
  ptx.replace(open + 1, close - open - 1, bytes);
  return ptx;
}

TEST(ProbeTool, SampledLaunchesLeaveTheirProbesOut) {
  // The same probe, every third launch.
  std::string ptx = probecountWithSpec("probe countBlock; at=block-entry; sample-launches=3");
  ASSERT_FALSE(ptx.empty());
  auto sampled = tool(ptx);
  LaunchInfo launch;
  for (uint64_t n = 1; n <= 6; ++n) {
    launch.kernelLaunchIndex = n;
    uint32_t variant = sampled->variant(launch, {}).variant;
    EXPECT_EQ(variant, (n - 1) % 3 == 0 ? 0u : 1u) << n;
  }
  InstrumentedPtx off = instrumentModule(test::kLoopKernel, {{sampled.get(), 1}}, {});
  ASSERT_TRUE(off.ok) << off.error;
  EXPECT_EQ(static_cast<const ProbeModuleState&>(*off.states[0]).tables->sites.size(), 0u);
}

// derivable=skip leaves the probe out where block entries give the guard-false lanes: a tool that
// counts no lanes' block entries could not derive them.
TEST(ProbeTool, DerivableSkipNeedsTheLanesBlockEntries) {
  std::string ptx =
      probecountWithSpec("probe countBlock; at=instruction; guarded=yes; derivable=skip");
  ASSERT_FALSE(ptx.empty());
  std::string why = programError({ptx});
  EXPECT_NE(why.find("probe 'countBlock': derivable=skip needs the lanes' block entries"),
            std::string::npos)
      << why;
}

TEST(ProbeTool, FinalizeDecodesRegionsAndWritesJson) {
  auto probes = tool(probePtx("probecount"), "probecount");
  InstrumentedPtx module = instrumentModule(test::kLoopKernel, {{probes.get(), 0}}, {});
  ASSERT_TRUE(module.ok) << module.error;
  LaunchInfo launch;
  launch.grid = {2, 1, 1};
  launch.block = {64, 1, 1};
  BufferRequest request = probes->initialize(*module.states[0], launch);
  std::vector<std::byte> buffer(request.bytes, std::byte{0});
  // Block 1's counter, stripes 0 and 5: 40 and 2 entries.
  const auto& state = static_cast<const ProbeModuleState&>(*module.states[0]);
  uint64_t base = state.fixedLayout.regions[0].offset + ProbeLayout::kRegionHeader;
  uint64_t forty = 40, two = 2;
  std::memcpy(buffer.data() + base + (1 * 32 + 0) * 8, &forty, 8);
  std::memcpy(buffer.data() + base + (1 * 32 + 5) * 8, &two, 8);
  auto result = probes->finalize(*module.states[0], launch, {}, buffer);
  const auto* generic = dynamic_cast<const ProbeResult*>(result.get());
  ASSERT_NE(generic, nullptr);
  const ProbeResult::Region* entries = generic->region("entries");
  ASSERT_NE(entries, nullptr);
  EXPECT_EQ(entries->integers, (std::vector<uint64_t>{0, 42, 0}));
  EXPECT_TRUE(generic->errors().empty());
  // Through its text, as the profile file carries it.
  const Json json = Json::parse(dumpJson(result->json()));
  EXPECT_EQ(json["regions"]["entries"]["values"].at(1).get<uint64_t>(), 42u);
  EXPECT_EQ(json["blocks"].at(1)["label"].get<std::string>(), "LOOP");
  EXPECT_EQ(json["functions"].at(0)["name"].get<std::string>(), "loop");

  // A flag in the header: the probe wrote outside its regions. The result says so and the tool
  // switches itself off: later launches run the original kernels.
  uint64_t one = 1;
  std::memcpy(buffer.data() + 8, &one, 8);
  auto flagged = probes->finalize(*module.states[0], launch, {}, buffer);
  const auto* bad = dynamic_cast<const ProbeResult*>(flagged.get());
  ASSERT_EQ(bad->errors().size(), 1u);
  EXPECT_NE(bad->errors()[0].find("probe 'countBlock' wrote outside its regions"),
            std::string::npos);
  EXPECT_EQ(probes->variant(launch, {}).variant, ProbeInstrumentor::kDisabledVariant);
  InstrumentedPtx off = instrumentModule(test::kLoopKernel,
                                         {{probes.get(), ProbeInstrumentor::kDisabledVariant}}, {});
  EXPECT_FALSE(off.ok);
  EXPECT_NE(off.error.find("probecount is off"), std::string::npos) << off.error;
}

// --- Block counts (OCELOT_BLOCK_COUNTS) -------------------------------------------------------

TEST(ProbeBlockCounts, AreCountedAsBbcountCountsWithoutBlockEntryProbes) {
  Instrumented counted = instrument(probePtx("blockcounts"), test::kLoopKernel);
  const ProbeModuleState& state = counted.state();
  // The probe's one site (the kernel's ret); nothing at block entries.
  EXPECT_EQ(state.tables->sites.size(), 1u);
  ASSERT_EQ(state.blockCounts.size(), 2u);
  for (const ProbeBlockCounting& c : state.blockCounts) {
    ASSERT_EQ(c.blocks.size(), 3u);
    EXPECT_EQ(c.blocks[0].kind, CounterKind::Atomic);
    EXPECT_EQ(c.blocks[1].kind, CounterKind::Register); // the loop, on sm_90
    EXPECT_EQ(c.blocks[2].kind, CounterKind::Derived);  // runs as often as the entry
    EXPECT_EQ(c.blocks[2].source, 0u);
  }
  EXPECT_FALSE(state.blockCounts[0].counters->countWarps);
  EXPECT_TRUE(state.blockCounts[1].counters->countWarps);
  const std::string& ptx = counted.module.ptx;
  EXPECT_NE(ptx.find("redux.sync"), std::string::npos); // the registers' flush at the exit
  EXPECT_NE(ptx.find("red.global.add.u64"), std::string::npos);
  test::PtxasRun run = test::runPtxas(ptx, "sm_90");
  if (run.ran) {
    EXPECT_EQ(run.status, 0) << run.output;
  }
}

TEST(ProbeBlockCounts, DerivedBlocksReadTheirSourcesCounts) {
  Instrumented counted = instrument(probePtx("blockcounts"), test::kLoopKernel);
  const ProbeModuleState& state = counted.state();
  LaunchInfo launch;
  launch.grid = {2, 1, 1};
  launch.block = {64, 1, 1};
  BufferRequest request = counted.instrumentor->initialize(state, launch);
  std::vector<std::byte> buffer(request.bytes, std::byte{0});
  // What the device counted: the entry block (stripes 0 and 1: the two CTAs) and the loop.
  auto put = [&](const char* region, uint64_t block, uint64_t stripe, uint64_t value) {
    const RegionSpec* spec = counted.instrumentor->program().region(regionId(region));
    ASSERT_NE(spec, nullptr);
    uint64_t base =
        state.fixedLayout.regions[counted.instrumentor->program().regionIndex(*spec)].offset +
        ProbeLayout::kRegionHeader;
    std::memcpy(buffer.data() + base + (block * 32 + stripe) * 8, &value, 8);
  };
  put("laneEntries", 0, 0, 64);
  put("laneEntries", 0, 1, 64);
  put("laneEntries", 1, 0, 640);
  put("warpEntries", 0, 0, 2);
  put("warpEntries", 0, 1, 2);
  put("warpEntries", 1, 1, 20);
  auto result = counted.instrumentor->finalize(state, launch, {}, buffer);
  const auto* generic = dynamic_cast<const ProbeResult*>(result.get());
  ASSERT_NE(generic, nullptr);
  ASSERT_NE(generic->region("laneEntries"), nullptr);
  ASSERT_NE(generic->region("warpEntries"), nullptr);
  EXPECT_EQ(generic->region("laneEntries")->integers, (std::vector<uint64_t>{128, 640, 128}));
  EXPECT_EQ(generic->region("warpEntries")->integers, (std::vector<uint64_t>{4, 20, 4}));
  EXPECT_TRUE(generic->errors().empty());
}

} // namespace
} // namespace ocelot::instrumentors
