#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

namespace ocelot::fuzz {

/// What the runtime API fuzzer saw: calls made and the distinct (call, result) pairs, its own
/// measure of coverage (each pair is a path through the runtime's argument checks).
struct RuntimeApiCoverage {
  uint64_t calls = 0;
  std::map<std::string, uint64_t> outcomes; ///< "cudaMemcpy -> cudaErrorInvalidValue": count
};

/// One fuzzing input for the CUDA Runtime API (Ocelot's libcudart, on the CPU device): the bytes
/// are read as a sequence of calls (allocations, frees, copies, fills, streams, events, captured
/// graphs, kernel launches, host functions, pointer queries) whose arguments are chosen among
/// valid, invalid and stale ones: live, freed, never-allocated and host pointers, offsets at and
/// past the end of allocations, SIZE_MAX sizes, destroyed streams and events, invalid kinds and
/// launch shapes. Every call may fail; none may crash, hang or corrupt the process. The sequence
/// ends with cudaDeviceReset, so each input starts from a fresh device. Host-side buffers are
/// never overrun by the fuzzer itself (that would be the application's fault, not the runtime's).
int fuzzRuntimeApi(const uint8_t* data, size_t size, RuntimeApiCoverage* coverage = nullptr);

} // namespace ocelot::fuzz
