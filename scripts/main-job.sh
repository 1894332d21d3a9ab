#!/usr/bin/env bash
# Ocelot's main job: build the repo's demo CUDA program with nvcc (a normal `-cudart shared`
# executable, nothing Ocelot-specific), run it unmodified under Ocelot with the basic-block counter
# and the CTA clock, print the profile's summary, and write the report: an HTML page (CFG heat
# maps, source lines, SM timelines; docs/report-screenshot.png shows one), a Perfetto trace and
# TAU profiles. It runs on the GPU when there is one and on Ocelot's CPU back end otherwise
# (OCELOT_MAIN_JOB_DEVICE=cpu|gpu forces one). Needs `scripts/build.sh --main-job` first.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${OCELOT_BUILD_DIR:-$root/build}
export PATH="/usr/local/cuda/bin:$PATH"
work="$build/main-job"
mkdir -p "$work"
if [ ! -x "$build/tools/ocelot" ]; then
  echo "main-job: $build/tools/ocelot is missing: run ./scripts/build.sh --main-job first" >&2
  exit 1
fi

echo "== nvcc: tools/demo/histogram_demo.cu -> $work/histogram_demo"
nvcc -O2 -std=c++17 -lineinfo --cudart=shared \
  -gencode=arch=compute_90,code=sm_90 -gencode=arch=compute_90,code=compute_90 \
  "$root/tools/demo/histogram_demo.cu" -o "$work/histogram_demo"

device=${OCELOT_MAIN_JOB_DEVICE:-}
if [ -z "$device" ]; then
  if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
    device=gpu
  else
    device=cpu
  fi
fi
echo "== ocelot run -i bbcount,ctaclock --device $device (profile: $work/profile.json)"
"$build/tools/ocelot" run -i bbcount,ctaclock --device "$device" -o "$work/profile.json" \
  -- "$work/histogram_demo"
echo "== profile written to $work/profile.json ($(wc -c <"$work/profile.json") bytes)"
echo "== ocelot report"
"$build/tools/ocelot" report "$work/profile.json" -o "$work/report.html" \
  --trace "$work/trace.json" --tau "$work/tau"
echo "== open the report: file://$work/report.html"
