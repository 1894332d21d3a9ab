#!/usr/bin/env bash
# Configures and builds Ocelot into ${OCELOT_BUILD_DIR:-build}. Extra arguments go to cmake.
#   build.sh              the tests and what they run (corpus, programs): what scripts/test.sh
#                         runs; the benchmarks no test runs: --target ocelot_benchmarks
#   build.sh --main-job   only what scripts/main-job.sh needs: the `ocelot` tool and
#                         libcudart.so.13 (a fresh build directory is configured without tests)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${OCELOT_BUILD_DIR:-$root/build}
export PATH="/usr/local/cuda/bin:$PATH"
mode=all
if [ "${1:-}" = "--main-job" ]; then
  mode=main-job
  shift
fi
generator=()
command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
if [ ! -f "$build/CMakeCache.txt" ]; then
  extra=()
  # Without tests, configuring needs none of the test-only packages (GoogleTest, benchmark).
  [ "$mode" = main-job ] && extra=(-DOCELOT_BUILD_TESTS=OFF -DOCELOT_BUILD_BENCHMARKS=OFF)
  cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo "${extra[@]}" "$@"
elif [ "$mode" = all ] && grep -q '^OCELOT_BUILD_TESTS:BOOL=OFF' "$build/CMakeCache.txt"; then
  # A build directory the main job configured: the whole build wants the tests back.
  cmake -S "$root" -B "$build" -DOCELOT_BUILD_TESTS=ON "$@"
elif [ $# -gt 0 ]; then
  cmake -S "$root" -B "$build" "$@"
fi
if [ "$mode" = main-job ]; then
  cmake --build "$build" -j "$(nproc)" --target ocelot ocelot_cudart
else
  cmake --build "$build" -j "$(nproc)"
fi
