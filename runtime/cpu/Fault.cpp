#include "runtime/cpu/Fault.h"

namespace ocelot::runtime::cpu {

std::string_view faultKindName(FaultKind kind) {
  switch (kind) {
  case FaultKind::None:
    return "no fault";
  case FaultKind::IllegalAddress:
    return "illegal address";
  case FaultKind::MisalignedAddress:
    return "misaligned address";
  case FaultKind::Trap:
    return "trap";
  case FaultKind::Assert:
    return "device-side assertion";
  case FaultKind::StackOverflow:
    return "stack overflow";
  case FaultKind::IllegalInstruction:
    return "illegal instruction";
  case FaultKind::InvalidPc:
    return "invalid program counter";
  case FaultKind::BarrierDeadlock:
    return "barrier deadlock";
  case FaultKind::Timeout:
    return "watchdog timeout";
  }
  return "fault";
}

cudaError_t faultError(FaultKind kind) {
  switch (kind) {
  case FaultKind::None:
    return cudaSuccess;
  case FaultKind::IllegalAddress:
  case FaultKind::StackOverflow:
    return cudaErrorIllegalAddress;
  case FaultKind::MisalignedAddress:
    return cudaErrorMisalignedAddress;
  case FaultKind::Trap:
  case FaultKind::BarrierDeadlock:
    return cudaErrorLaunchFailure;
  case FaultKind::Assert:
    return cudaErrorAssert;
  case FaultKind::IllegalInstruction:
    return cudaErrorIllegalInstruction;
  case FaultKind::InvalidPc:
    return cudaErrorInvalidPc;
  case FaultKind::Timeout:
    return cudaErrorLaunchTimeout;
  }
  return cudaErrorLaunchFailure;
}

} // namespace ocelot::runtime::cpu
