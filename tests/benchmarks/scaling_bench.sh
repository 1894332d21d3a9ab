#!/usr/bin/env bash
# `ocelot ptx cfg` and `ocelot ptx instrument -i bbcount` on shapes that make superlinear
# analyses show: loops nested 1k..20k deep and call chains of 10k..100k functions
# (tests/support/GeneratedPtx.h). Prints a Markdown table of wall and CPU seconds and peak RSS;
# docs/performance.md records it. Not a test: tests/instrumentors/ScalingTest bounds the work.
#
#   tests/benchmarks/scaling_bench.sh [BUILD_DIR]
set -euo pipefail
build=${1:-${OCELOT_BUILD_DIR:-build}}
ocelot=$build/tools/ocelot
generate=$build/tests/benchmarks/ocelot_generate_ptx
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

measure() { # measure COMMAND... -> "wall s | cpu s | peak MB"
  /usr/bin/time -o "$work/time" -f "%e %U %S %M" "$@" >/dev/null 2>"$work/stderr" ||
    { echo "failed: $* ($(head -c 300 "$work/stderr"))" >&2; exit 1; }
  read -r wall user sys rss <"$work/time"
  awk -v w="$wall" -v u="$user" -v s="$sys" -v r="$rss" \
    'BEGIN { printf "%.2f | %.2f | %.0f", w, u + s, r / 1024 }'
}

echo "| input | PTX MB | cfg wall s | cfg CPU s | cfg peak MB | instrument wall s | instrument CPU s | instrument peak MB |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for shape in "nested-loops 1000" "nested-loops 2000" "nested-loops 4000" "nested-loops 10000" \
             "nested-loops 20000" "call-chain 10000" "call-chain 100000"; do
  set -- $shape
  file=$work/$1-$2.ptx
  "$generate" "$1" "$2" "$file"
  mb=$(awk -v b="$(stat -c %s "$file")" 'BEGIN { printf "%.1f", b / 1e6 }')
  echo "| $1 $2 | $mb | $(measure "$ocelot" ptx cfg "$file") | $(measure "$ocelot" ptx instrument -i bbcount "$file") |"
done
