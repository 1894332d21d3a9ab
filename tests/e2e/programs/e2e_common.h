// Shared helpers for Ocelot's end-to-end CUDA programs (tests/e2e/programs).
//
// Every program prints deterministic text on stdout: the same bytes on every run, with NVIDIA's
// libcudart.so.13 and with Ocelot's. Nothing here prints pointers, timings, device names or other
// facts that vary between runs or machines. A program ends with `return e2e::finish();`, which
// prints "RESULT: PASS" or "RESULT: FAIL (n checks failed)" and returns 0 or 1.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

// CHECK(call): a runtime call that must succeed. On failure it prints the call, the error name and
// the line, and exits with status 2 (the program cannot sensibly go on).
#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t e2e_err_ = (call);                                                                 \
    if (e2e_err_ != cudaSuccess) {                                                                 \
      std::printf("FATAL: %s -> %s (line %d)\n", #call, cudaGetErrorName(e2e_err_), __LINE__);     \
      std::fflush(stdout);                                                                         \
      std::exit(2);                                                                                \
    }                                                                                              \
  } while (0)

// CHECK_LAUNCH(): after a kernel launch, the launch itself must have succeeded.
#define CHECK_LAUNCH() CHECK(cudaGetLastError())

namespace e2e {

inline int& failures() {
  static int count = 0;
  return count;
}

// expect(ok, what): one named self-check; prints "check <what>: ok" or "check <what>: MISMATCH".
inline bool expect(bool ok, const char* what) {
  std::printf("check %s: %s\n", what, ok ? "ok" : "MISMATCH");
  if (!ok)
    ++failures();
  return ok;
}

// expect_error(got, want, what): a call returned the expected cudaError_t.
inline bool expect_error(cudaError_t got, cudaError_t want, const char* what) {
  bool ok = got == want;
  std::printf("check %s: %s%s%s\n", what, cudaGetErrorName(got), ok ? "" : " MISMATCH, expected ",
              ok ? "" : cudaGetErrorName(want));
  if (!ok)
    ++failures();
  return ok;
}

inline int finish() {
  if (failures() == 0) {
    std::printf("RESULT: PASS\n");
  } else {
    std::printf("RESULT: FAIL (%d checks failed)\n", failures());
  }
  std::fflush(stdout);
  return failures() == 0 ? 0 : 1;
}

// FNV-1a over bytes: a checksum that is identical for identical data on every platform.
inline uint64_t fnv1a(const void* data, size_t bytes, uint64_t h = 1469598103934665603ull) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) {
    h ^= p[i];
    h *= 1099511628211ull;
  }
  return h;
}

// A small deterministic generator (xorshift64*), independent of the C library.
struct Rng {
  uint64_t state;
  explicit Rng(uint64_t seed) : state(seed ? seed : 0x9E3779B97F4A7C15ull) {}
  uint64_t next() {
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 2685821657736338717ull;
  }
  // Uniform integer in [lo, hi].
  int range(int lo, int hi) {
    return lo + static_cast<int>(next() % static_cast<uint64_t>(hi - lo + 1));
  }
  // Uniform float in [0, 1) with 24 random bits (exactly representable).
  float unit() { return static_cast<float>(next() >> 40) * (1.0f / 16777216.0f); }
};

// Relative/absolute tolerance comparison for floating-point results against a CPU reference.
inline bool close(double got, double want, double rel, double abs_tol) {
  double diff = got > want ? got - want : want - got;
  double mag = want < 0 ? -want : want;
  return diff <= abs_tol || diff <= rel * mag;
}

// scaled(n, multiple): a problem size divided by OCELOT_E2E_SCALE_DOWN (a whole number, 1 when
// unset), rounded down to a multiple of `multiple` and at least `multiple`. The tests that compare
// a program with itself (instrumented against uninstrumented output, bbcount against the
// executor's trace) run the heavy programs smaller on the CPU device; the runs compared with the
// GPU's expected output never set it, so they print what the GPU printed.
inline size_t scaled(size_t n, size_t multiple = 1) {
  static const size_t divisor = [] {
    const char* text = std::getenv("OCELOT_E2E_SCALE_DOWN");
    const long value = text != nullptr ? std::strtol(text, nullptr, 10) : 1;
    return value > 1 ? static_cast<size_t>(value) : size_t{1};
  }();
  size_t m = n / divisor;
  m -= m % multiple;
  return m < multiple ? multiple : m;
}

} // namespace e2e
