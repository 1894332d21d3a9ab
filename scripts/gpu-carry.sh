#!/usr/bin/env bash
# Packs what scripts/gpu-batch.sh needs from a build directory into a small, stripped directory
# with the same layout, to carry to the GPU machine (which has no Flex/Bison/Boost and so cannot
# configure the build itself):
#
#   scripts/gpu-carry.sh [DEST]        # DEST defaults to .device-carry/build (git-ignored)
#   # on the GPU machine:  OCELOT_BUILD_DIR=$PWD/DEST OUT=... scripts/gpu-batch.sh
#
# The end-to-end programs (tests/e2e/bin, ~5 MB) are carried when they are built: every section
# that runs them would otherwise build all of them there with nvcc first (~100 s of device time).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${OCELOT_BUILD_DIR:-$root/build}
dest=${1:-$root/.device-carry/build}

# Paths relative to the build directory; a missing optional one is skipped with a note.
required=(runtime/libcudart.so.13 tools/ocelot)
optional=(
  tests/benchmarks/instrumentation/ocelot_function_translation_bench
  tests/cpu/ocelot_cpu_bench
  runtime/driverapi/libcuda.so.1
  runtime/driverapi/libnvJitLink.so.13
  tests/driverapi/driverapi_launch_bench
  tests/driverapi/driverapi_nvrtc
  tests/driverapi/driverapi_nvjitlink
)
# Every probe tool and plugin the build produced (shared objects under tools/ and instrumentors/).
mapfile -t plugins < <(cd "$build" && find tools instrumentors probes probe-tools tests/probes -maxdepth 3 -name '*.so' \
  -type f 2>/dev/null | sort)

# The benchmarks gpu-batch.sh runs are out of the default build (OCELOT_BUILD_BENCHMARKS): build
# the ones this build directory has targets for (a build without the driver API shim has no
# driverapi_launch_bench).
benchmarks=()
for target in ocelot_function_translation_bench ocelot_cpu_bench driverapi_launch_bench; do
  cmake --build "$build" --target help 2>/dev/null | grep -q "^\.\.\. $target\b\|^$target:" &&
    benchmarks+=("$target")
done
if [ ${#benchmarks[@]} -gt 0 ]; then
  cmake --build "$build" -j "$(nproc)" --target "${benchmarks[@]}" >/dev/null ||
    echo "gpu-carry: building ${benchmarks[*]} failed; the missing ones are skipped" >&2
fi

rm -rf "$dest"
mkdir -p "$dest"
copy() { # $1: path relative to the build directory
  local src=$build/$1 out=$dest/$1
  mkdir -p "$(dirname "$out")"
  cp -L "$src" "$out"
  strip --strip-unneeded "$out" 2>/dev/null || true
}
for p in "${required[@]}"; do
  if [ ! -e "$build/$p" ]; then
    echo "gpu-carry: $build/$p is missing: build it first (scripts/build.sh)" >&2
    exit 1
  fi
  copy "$p"
done
for p in "${optional[@]}" "${plugins[@]}"; do
  if [ -e "$build/$p" ]; then copy "$p"; else echo "gpu-carry: skipping $p (not built)"; fi
done
if [ -d "$build/tests/e2e/bin" ]; then
  mkdir -p "$dest/tests/e2e/bin"
  for program in "$build"/tests/e2e/bin/*; do
    [ -f "$program" ] && copy "tests/e2e/bin/$(basename "$program")"
  done
fi
# The runtime library's soname links, as the build has them.
(cd "$dest/runtime" && mv libcudart.so.13 libcudart.so.13.0.0 && ln -s libcudart.so.13.0.0 libcudart.so.13 &&
  ln -s libcudart.so.13 libcudart.so)
# The shim's development name: Numba opens "libcuda.so" before "libcuda.so.1"; a copy instead of
# a link would load a second shim.
if [ -e "$dest/runtime/driverapi/libcuda.so.1" ]; then
  ln -s libcuda.so.1 "$dest/runtime/driverapi/libcuda.so"
fi
du -sh "$dest" | sed 's/^/gpu-carry: /'
