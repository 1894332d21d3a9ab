#!/usr/bin/env bash
# Runs the whole test suite of an existing build (scripts/build.sh first).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${OCELOT_BUILD_DIR:-$root/build}
export PATH="/usr/local/cuda/bin:$PATH"
# The CPU device's LLVM executor caches compiled kernels in the build tree (reruns compile nothing).
export OCELOT_CACHE_DIR=${OCELOT_CACHE_DIR:-$build/ocelot-cache}
ctest --test-dir "$build" --output-on-failure -j "$(nproc)" "$@"
