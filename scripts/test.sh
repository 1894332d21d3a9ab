#!/usr/bin/env bash
# Runs the whole test suite of an existing build (scripts/build.sh first).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${OCELOT_BUILD_DIR:-$root/build}
export PATH="/usr/local/cuda/bin:$PATH"
# The CPU device's LLVM executor caches compiled kernels in the build tree (reruns compile nothing).
export OCELOT_CACHE_DIR=${OCELOT_CACHE_DIR:-$build/ocelot-cache}
# A fresh build has no test timings, and CTest would start tests in the order they are declared,
# so that a long one started last keeps one core busy alone at the end. tests/ctest-costs.txt
# holds the measured seconds of the tests that take longest: CTest starts those first. Later runs
# use the timings CTest records itself.
costs="$build/Testing/Temporary/CTestCostData.txt"
if [ ! -f "$costs" ]; then
  mkdir -p "$(dirname "$costs")"
  cp "$root/tests/ctest-costs.txt" "$costs"
fi
ctest --test-dir "$build" --output-on-failure -j "$(nproc)" "$@"
