#!/usr/bin/env bash
# Peak memory of the PTX front end on large modules: `ocelot ptx parse` and `ocelot ptx instrument
# -i bbcount` on generated nvcc-like PTX of 20 MB and 200 MB (tests/support/GeneratedPtx.h: kernels
# of nvcc's shape, about 33 bytes of text per instruction; nvcc's own output has 35-43). Prints a
# Markdown table of peak RSS (the whole process: input, IR, output) per byte of PTX;
# docs/performance.md records it. The bar is 8 bytes per byte; CTest benchmarks.frontend_memory_bound
# (check_frontend_memory.py) checks it at 40 MB.
#
# Then the CPU device's peak RSS on tests/benchmarks/cpu_device_memory.cu (built here with nvcc
# -cudart shared, run with Ocelot's libcudart.so.13 and OCELOT_DEVICE=cpu): 16k recursing threads
# with the largest stack limit, and a printf flood through a small FIFO.
#
#   tests/benchmarks/memory_bench.sh [BUILD_DIR] [SIZES_MB...]
set -euo pipefail
build=${1:-${OCELOT_BUILD_DIR:-build}}
shift || true
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(20 200)
ocelot=$build/tools/ocelot
generate=$build/tests/benchmarks/ocelot_generate_ptx
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

peak() { # peak COMMAND... -> "seconds peak-KB"
  /usr/bin/time -o "$work/time" -f "%e %M" "$@" >/dev/null 2>"$work/stderr" ||
    { echo "failed: $* ($(head -c 300 "$work/stderr"))" >&2; exit 1; }
  cat "$work/time"
}

echo "| PTX MB | instructions | bytes/instr. | parse s | parse peak MB | parse bytes/byte | instrument s | instrument peak MB | instrument bytes/byte |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for mb in "${sizes[@]}"; do
  file=$work/nvcc-like-$mb.ptx
  "$generate" nvcc-like $((mb * 1000000)) "$file"
  bytes=$(stat -c %s "$file")
  instructions=$("$ocelot" ptx parse "$file" | awk '{print $(NF-1)}')
  read -r parseSeconds parseKb <<<"$(peak "$ocelot" ptx parse "$file")"
  read -r instrumentSeconds instrumentKb <<<"$(peak "$ocelot" ptx instrument -i bbcount "$file" -o /dev/null)"
  awk -v mb="$mb" -v b="$bytes" -v i="$instructions" -v ps="$parseSeconds" -v pk="$parseKb" \
      -v is="$instrumentSeconds" -v ik="$instrumentKb" 'BEGIN {
    printf "| %d | %d | %.1f | %.2f | %.0f | %.2f | %.2f | %.0f | %.2f |\n", mb, i, b / i, ps,
           pk / 1024, pk * 1024 / b, is, ik / 1024, ik * 1024 / b }'
  rm -f "$file"
done

if command -v nvcc >/dev/null 2>&1 && [ -f "$build/runtime/libcudart.so.13" ]; then
  source_dir=$(cd "$(dirname "$0")" && pwd)
  nvcc -cudart shared -arch=sm_90 -o "$work/cpu_device_memory" "$source_dir/cpu_device_memory.cu"
  echo
  echo "| CPU device | seconds | peak RSS MB | output lines |"
  echo "|---|---:|---:|---:|"
  for mode in stacks printf; do
    LD_LIBRARY_PATH="$build/runtime${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" OCELOT_DEVICE=cpu \
      /usr/bin/time -o "$work/time" -f "%e %M" "$work/cpu_device_memory" "$mode" >"$work/out" \
      2>"$work/stderr" || { echo "failed: $mode ($(head -c 300 "$work/stderr"))" >&2; exit 1; }
    read -r seconds kb <"$work/time"
    echo "| $mode | $seconds | $((kb / 1024)) | $(wc -l <"$work/out") |"
  done
fi
