#pragma once

// Helpers of the instrumentation tests: small kernels, running the pipeline, ptxas.

#include "instrumentors/InstrumentorRegistry.h"
#include "instrumentors/ModuleInstrumenter.h"
#include "tests/support/Ptxas.h"

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace ocelot::test {

/// A kernel with a loop of n iterations (B1), an early-exit branch (B0 -> B2) and a store (B2):
///   B0 entry: n == 0 ? -> B2
///   B1 LOOP:  n times per thread
///   B2 DONE
inline const char* kLoopKernel = R"(.version 8.5
.target sm_90
.address_size 64

.visible .entry loop(
	.param .u64 loop_param_0,
	.param .u32 loop_param_1
)
{
	.reg .pred 	%p<3>;
	.reg .b32 	%r<6>;
	.reg .b64 	%rd<5>;

	ld.param.u64 	%rd1, [loop_param_0];
	ld.param.u32 	%r1, [loop_param_1];
	mov.u32 	%r2, %tid.x;
	mov.u32 	%r3, 0;
	setp.eq.s32 	%p1, %r1, 0;
	@%p1 bra 	DONE;
LOOP:
	add.s32 	%r3, %r3, %r2;
	add.s32 	%r1, %r1, -1;
	setp.ne.s32 	%p2, %r1, 0;
	@%p2 bra 	LOOP;
DONE:
	cvta.to.global.u64 	%rd2, %rd1;
	mul.wide.u32 	%rd3, %r2, 4;
	add.s64 	%rd4, %rd2, %rd3;
	st.global.u32 	[%rd4], %r3;
	ret;
}
)";

/// A kernel calling a device function, with a straight-line chain (B1 only follows B0) and an
/// `exit` on one path.
inline const char* kCallKernel = R"(.version 8.5
.target sm_90
.address_size 64

.func  (.param .b32 func_retval0) twice(
	.param .b32 twice_param_0
)
{
	.reg .b32 	%r<3>;
	ld.param.u32 	%r1, [twice_param_0];
	shl.b32 	%r2, %r1, 1;
	st.param.b32 	[func_retval0+0], %r2;
	ret;
}

.visible .entry caller(
	.param .u64 caller_param_0
)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<5>;
	.reg .b64 	%rd<4>;

	ld.param.u64 	%rd1, [caller_param_0];
	mov.u32 	%r1, %tid.x;
	setp.gt.u32 	%p1, %r1, 15;
	@%p1 exit;
	{ // callseq 0, 0
	.param .b32 param0;
	st.param.b32 	[param0+0], %r1;
	.param .b32 retval0;
	call.uni (retval0), twice, (param0);
	ld.param.b32 	%r2, [retval0+0];
	} // callseq 0
	cvta.to.global.u64 	%rd2, %rd1;
	mul.wide.u32 	%rd3, %r1, 4;
	add.s64 	%rd2, %rd2, %rd3;
	st.global.u32 	[%rd2], %r2;
	ret;
}
)";

using PtxasRun = PtxasResult;

inline bool ptxasAvailable() {
  return std::system("ptxas --version > /dev/null 2>&1") == 0;
}

/// The slots of the instrumentor list `list` ("bbcount,ctaclock:mode=..."), created by `registry`
/// (kept alive in `keep`), each with the variant of a small launch.
inline std::vector<instrumentors::SlotRequest>
slotsFor(const std::string& list, instrumentors::InstrumentorRegistry& registry,
         std::vector<std::shared_ptr<const PTXInstrumentor>>* keep) {
  std::vector<instrumentors::SlotRequest> slots;
  for (const auto& spec : instrumentors::parseInstrumentorList(list)) {
    keep->push_back(registry.create(spec.name, spec.options));
    slots.push_back({keep->back().get(), keep->back()->variant(LaunchInfo{}, {}).variant});
  }
  return slots;
}

/// Instruments `ptx` with the registered instrumentors `names` ("bbcount:mode=per-thread"), each
/// with the variant of a small launch.
inline instrumentors::InstrumentedPtx
instrumentWith(const std::string& ptx, const std::string& list,
               std::vector<std::shared_ptr<const PTXInstrumentor>>* keep,
               instrumentors::InstrumentorRegistry* registry = nullptr,
               std::map<std::string, uint32_t> registerCaps = {}) {
  instrumentors::InstrumentorRegistry local;
  const std::vector<instrumentors::SlotRequest> slots =
      slotsFor(list, registry != nullptr ? *registry : local, keep);
  instrumentors::InstrumentOptions options;
  options.label = "test";
  options.registerCaps = std::move(registerCaps);
  return instrumentors::instrumentModule(ptx, slots, options);
}

} // namespace ocelot::test
