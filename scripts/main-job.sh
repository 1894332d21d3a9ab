#!/usr/bin/env bash
# Ocelot's main job on this machine: build the demo CUDA program of the repo and show what Ocelot
# sees in it. (Until the runtime lands, this is the PTX front end: parse, statistics, round trip
# through ptxas.)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${OCELOT_BUILD_DIR:-$root/build}
export PATH="/usr/local/cuda/bin:$PATH"
work="$build/main-job"
mkdir -p "$work"
arch=${OCELOT_PTX_ARCH:-compute_90}
echo "== nvcc: tools/demo/histogram_demo.cu -> PTX ($arch, -lineinfo)"
nvcc -ptx -arch="$arch" -lineinfo "$root/tools/demo/histogram_demo.cu" -o "$work/histogram_demo.ptx"
echo "== ocelot ptx stats"
"$build/tools/ocelot" ptx stats "$work/histogram_demo.ptx"
echo "== ocelot ptx emit, then ptxas on the original and on Ocelot's output"
"$build/tools/ocelot" ptx emit "$work/histogram_demo.ptx" -o "$work/histogram_demo.ocelot.ptx"
sm=${arch/compute_/sm_}
ptxas -arch="$sm" "$work/histogram_demo.ptx" -o "$work/original.cubin"
ptxas -arch="$sm" "$work/histogram_demo.ocelot.ptx" -o "$work/ocelot.cubin"
python3 "$root/scripts/cubin-compare.py" "$work/original.cubin" "$work/ocelot.cubin"
