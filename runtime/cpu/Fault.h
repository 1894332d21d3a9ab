#pragma once

#include <cstdint>
#include <driver_types.h>
#include <string_view>

namespace ocelot::runtime::cpu {

/// Why a warp stopped abnormally. Each kind fails the launch with the error a GPU reports for it;
/// all of them corrupt the context (the error is sticky until cudaDeviceReset), as on a GPU.
enum class FaultKind : uint8_t {
  None,
  IllegalAddress,     ///< outside every allocation / state space
  MisalignedAddress,  ///< not aligned to the access size
  Trap,               ///< `trap`
  Assert,             ///< `__assertfail` (device assert())
  StackOverflow,      ///< local memory of a thread exhausted by calls
  IllegalInstruction, ///< e.g. an indirect call through a value that is no function
  InvalidPc,          ///< `brx.idx` index outside its table
  BarrierDeadlock,    ///< no warp of a CTA can make progress at its barriers
  Timeout,            ///< the watchdog (OCELOT_CPU_WATCHDOG_MS) fired
};

std::string_view faultKindName(FaultKind kind);
/// The cudaError_t a GPU reports for a fault of `kind`.
cudaError_t faultError(FaultKind kind);

/// What a handler records when it stops a warp: the kind, the first faulting lane and, for memory
/// faults, the address and access size. Formatting (kernel, CTA, thread, PTX and source line) is
/// done once by whoever reports it, not on the hot path.
struct Fault {
  FaultKind kind = FaultKind::None;
  uint32_t lane = 0;
  uint64_t address = 0;
  uint32_t size = 0;
  const char* detail = nullptr; ///< static text, e.g. "shared" for the state space

  explicit operator bool() const { return kind != FaultKind::None; }
};

} // namespace ocelot::runtime::cpu
