#pragma once

// What every exported Runtime API function uses to reach the runtime.

#include "runtime/core/Runtime.h"
#include "runtime/core/Scope.h"

#include <cstring>
#include <driver_types.h>
#include <functional>
#include <new>
#include <source_location>

namespace ocelot::runtime::api {

inline Runtime& runtime() {
  return Runtime::instance();
}

/// call() without the record (its body).
template <class Body> cudaError_t callUnrecorded(Body&& body) noexcept {
  try {
    // Success leaves the last error alone: no need to reach the thread's state.
    cudaError_t error = body();
    return error == cudaSuccess ? error : runtime().record(error);
  } catch (const CallError& failed) {
    return runtime().record(failed.error);
  } catch (const std::bad_alloc&) {
    return runtime().record(cudaErrorMemoryAllocation);
  } catch (...) {
    return runtime().record(cudaErrorUnknown);
  }
}

/// Runs one Runtime API call: a failure becomes the calling thread's last error, and no C++
/// exception ever crosses into the application (a CallError from Scope is the call's result).
/// With host measures on, the call is recorded for the trace's host lanes (the function `where`
/// names, its thread, begin and end: ApiCallLog); off, that costs one load of a constant.
template <class Body>
cudaError_t call(Body&& body,
                 const std::source_location& where = std::source_location::current()) noexcept {
  if (runtime().hostMeasures()) [[unlikely]] {
    instrumentation::ApiCallScope recorded(runtime().apiCalls(), where.function_name());
    return callUnrecorded(body);
  }
  return callUnrecorded(body);
}

/// call() recorded as the function `where` names: for bodies shared by several exported functions
/// (MemoryCalls.h), which pass on the location of the exported function that called them.
template <class Body> cudaError_t callAt(const std::source_location& where, Body&& body) noexcept {
  return call(body, where);
}

/// The body of a call on the calling thread's current device: opens the Scope (the runtime
/// initialized, no sticky error, the device's context current), then runs `body(scope)`, whose
/// result is the device's (errors that corrupt the context become sticky). Throws CallError: for
/// bodies that run inside call().
template <class Body> cudaError_t inCurrentDevice(Body&& body) {
  Scope scope(runtime());
  if (cudaError_t error = scope.open(); error != cudaSuccess)
    return error;
  return scope.result(body(scope));
}

/// A whole call on the calling thread's current device (inCurrentDevice inside call()).
template <class Body>
cudaError_t
onCurrentDevice(Body&& body,
                const std::source_location& where = std::source_location::current()) noexcept {
  return call([&] { return inCurrentDevice(body); }, where);
}

/// onCurrentDevice() recorded as the function `where` names (see callAt()).
template <class Body>
cudaError_t onCurrentDeviceAt(const std::source_location& where, Body&& body) noexcept {
  return call([&] { return inCurrentDevice(body); }, where);
}

/// Like call(), for the functions that report the last error and so must not overwrite it.
template <class Body> cudaError_t query(Body&& body) noexcept {
  try {
    return body();
  } catch (...) {
    return cudaErrorUnknown;
  }
}

/// The body of every function Ocelot does not implement yet.
inline cudaError_t
notImplemented(const char* function,
               const std::source_location& where = std::source_location::current()) noexcept {
  return call([&] { return runtime().notImplemented(function); }, where);
}

/// An enumeration argument as the integer the application passed. Applications may pass any value
/// (a wrong cudaMemcpyKind must give cudaErrorInvalidMemcpyDirection, not undefined behaviour), so
/// it is read bytewise and the runtime validates it before using it as an enumerator.
template <class Enum> int raw(const Enum& value) {
  static_assert(sizeof(Enum) == sizeof(int));
  int integer = 0;
  std::memcpy(&integer, &value, sizeof integer);
  return integer;
}

/// A copy or memset that `run` enqueues on `stream` of device `ordinal`: timed by events around it
/// when host measures are on (docs/report.md), else just run (one load of a constant).
template <class Run>
cudaError_t timedTransfer(Device& device, int ordinal, Stream& stream, bool memset,
                          const char* name, uint64_t bytes, Run&& run) {
  Runtime& r = runtime();
  if (!r.hostMeasures()) [[likely]]
    return run();
  using Kind = instrumentation::DeviceOperation::Kind;
  return r.timeOperation(device, ordinal, stream, memset ? Kind::Memset : Kind::Copy, name, bytes,
                         std::function<cudaError_t()>(std::ref(run)));
}

/// In the per-thread default stream variants (_ptsz), stream 0 is the thread's own default stream.
inline cudaStream_t perThread(cudaStream_t stream) {
  return stream == nullptr ? cudaStreamPerThread : stream;
}

/// In the per-thread variants of cudaGetDriverEntryPoint, the default flags ask for the driver
/// functions with per-thread default stream semantics.
inline unsigned long long perThreadEntryPoints(unsigned long long flags) {
  return flags == cudaEnableDefault
             ? static_cast<unsigned long long>(cudaEnablePerThreadDefaultStream)
             : flags;
}

} // namespace ocelot::runtime::api
