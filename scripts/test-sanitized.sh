#!/usr/bin/env bash
# Configures, builds and tests the ASan/UBSan configuration (-DOCELOT_SANITIZE=ON) in its own build
# folder, ${OCELOT_BUILD_DIR:-build-sanitize}: the unit and CPU-device labels and the runtime API
# fuzzer (fuzz.runtime_api*), then with --e2e the end-to-end programs on the CPU device under the
# sanitized libcudart.so.13 (label e2e-cpu).
# Without a corpus or benchmarks (their tests are the ptxas round trips and timings, not memory
# safety). Extra arguments go to ctest. Prints the wall time of each ctest run.
#   scripts/test-sanitized.sh [--e2e] [ctest arguments...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${OCELOT_BUILD_DIR:-$root/build-sanitize}
jobs=${OCELOT_JOBS:-$(nproc)}
e2e=0
if [ "${1:-}" = "--e2e" ]; then
  e2e=1
  shift
fi
export PATH="/usr/local/cuda/bin:$PATH"
export OCELOT_CACHE_DIR=${OCELOT_CACHE_DIR:-$build/ocelot-cache}
# A UBSan finding aborts (-fno-sanitize-recover); the stack says where.
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
launchers=()
command -v ccache >/dev/null 2>&1 &&
  launchers=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
generator=()
command -v ninja >/dev/null 2>&1 && [ ! -f "$build/CMakeCache.txt" ] && generator=(-G Ninja)
cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DOCELOT_SANITIZE=ON -DOCELOT_BUILD_CORPUS=OFF -DOCELOT_BUILD_BENCHMARKS=OFF "${launchers[@]}"
cmake --build "$build" -j "$jobs"

labels='^(runtime|cpu|driverapi|instrumentation|layers|probes|report|install|mpi)$'
status=0
start=$(date +%s)
# The benchmark smoke tests need OCELOT_BUILD_BENCHMARKS, off here. The nvJitLink shim opens
# NVIDIA's libnvJitLink.so.13 with RTLD_DEEPBIND (its own calls must reach itself, not the shim's
# same-named functions), which ASan refuses (google/sanitizers#611): its tests run unsanitized only.
ctest --test-dir "$build" --output-on-failure -L "$labels" \
  -E 'Corpus|^instrumentation\.(bench|launch_bench)_|^NvJitLinkShim\.|^driverapi\.nvjitlink_' \
  -j "$jobs" --timeout 600 "$@" || status=1
echo "sanitized units: $(($(date +%s) - start)) s"
# The runtime API fuzzer (issue 18: it runs under ASan/UBSan): its kept inputs, then the bounded
# run from seed 1 (label fuzz, which the units above leave out with the PTX fuzzer's clang build).
start=$(date +%s)
ctest --test-dir "$build" --output-on-failure -R '^fuzz\.runtime_api' --timeout 900 "$@" ||
  status=1
echo "sanitized runtime API fuzzer: $(($(date +%s) - start)) s"
if [ "$e2e" = 1 ]; then
  start=$(date +%s)
  ctest --test-dir "$build" --output-on-failure -L '^e2e-cpu$' -j "$jobs" --timeout 600 "$@" ||
    status=1
  echo "sanitized e2e-cpu: $(($(date +%s) - start)) s"
fi
exit $status
