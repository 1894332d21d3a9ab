// The call graph: direct calls, indirect calls resolved through .callprototype and .calltargets,
// address-taken functions, recursion.

#include "passes/CallGraph.h"

#include "PassTestSupport.h"
#include "passes/AnalysisManager.h"

namespace ocelot::test {
namespace {

const char* kModule = R"(.version 9.0
.target sm_90
.address_size 64
.extern .func (.param .b32 func_retval0) vprintf(.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);
.func (.param .b32 r) fa(.param .b32 a)
{
	.reg .b32 %r<3>;
	ld.param.b32 %r1, [a];
	add.s32 %r2, %r1, 1;
	st.param.b32 [r], %r2;
	ret;
}
.func (.param .b32 r) fb(.param .b32 a)
{
	.reg .b32 %r<3>;
	ld.param.b32 %r1, [a];
	st.param.b32 [r], %r1;
	ret;
}
.func (.param .b64 r) fc(.param .b32 a)
{
	.reg .b64 %rd<2>;
	st.param.b64 [r], %rd1;
	ret;
}
.func rec(.param .b32 a)
{
	.reg .b32 %r<2>;
	{
	.param .b32 p0;
	st.param.b32 [p0], %r1;
	call.uni rec, (p0);
	}
	ret;
}
.global .align 8 .u64 table[2] = {fa, fc};
.visible .entry k()
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<4>;
	mov.u64 %rd1, fb;
	{
	.param .b32 p0;
	st.param.b32 [p0], %r1;
	.param .b32 rv;
	proto : .callprototype (.param .b32 _) _ (.param .b32 _);
	call (rv), %rd1, (p0), proto;
	}
	{
	.param .b32 p0;
	.param .b32 rv;
	targets: .calltargets fb;
	call (rv), %rd2, (p0), targets;
	}
	{
	.param .b64 p0;
	.param .b64 p1;
	.param .b32 rv;
	call.uni (rv), vprintf, (p0, p1);
	}
	{
	.param .b32 p0;
	call.uni rec, (p0);
	}
	ret;
})";

TEST(CallGraph, DirectAndIndirectCalls) {
  auto module = parseOrFail(kModule);
  ASSERT_TRUE(module);
  passes::AnalysisManager am;
  const auto& graph = am.getResult<passes::CallGraphAnalysis>(*module);
  const ir::Function* k = module->findFunction("k");
  const ir::Function* fa = module->findFunction("fa");
  const ir::Function* fb = module->findFunction("fb");
  const ir::Function* fc = module->findFunction("fc");
  const ir::Function* rec = module->findFunction("rec");
  // Address taken: fb (mov), fa and fc (initializer).
  std::set<const ir::Function*> taken(graph.addressTaken().begin(), graph.addressTaken().end());
  EXPECT_EQ(taken, (std::set<const ir::Function*>{fa, fb, fc}));

  std::vector<std::pair<std::string, passes::CallGraph::CallKind>> calls;
  for (const auto& site : graph.callsFrom(*k))
    calls.emplace_back(site.callee ? std::string(site.callee->name()) : "?", site.kind);
  using K = passes::CallGraph::CallKind;
  // The prototype (b32 -> b32) matches fa and fb, not fc (returns b64); the target list says fb.
  EXPECT_EQ(calls, (std::vector<std::pair<std::string, K>>{{"fa", K::Indirect},
                                                           {"fb", K::Indirect},
                                                           {"fb", K::Indirect},
                                                           {"vprintf", K::Direct},
                                                           {"rec", K::Direct}}));
  EXPECT_TRUE(graph.isRecursive(*rec));
  EXPECT_FALSE(graph.isRecursive(*k));
  EXPECT_EQ(graph.callsTo(*fb).size(), 2u);
  auto reachable = graph.reachableFrom(*k);
  EXPECT_EQ(reachable.size(), 5u); // k, fa, fb, vprintf, rec
}

} // namespace
} // namespace ocelot::test
