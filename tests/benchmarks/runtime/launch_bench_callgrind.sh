#!/bin/sh
# Instructions per launch of each row of ocelot_launch_bench, counted by callgrind (independent of
# the machine's load): runs the benchmark once under valgrind and divides each row's dump by N.
#
#   launch_bench_callgrind.sh BENCH [N]   (BENCH: the ocelot_launch_bench executable; N: launches)
set -eu
bench=$1
launches=${2:-2000}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
valgrind --tool=callgrind --dump-before=none --callgrind-out-file="$out/cg" \
  "$bench" --launches "$launches" --runs 1 --idle-only >/dev/null 2>"$out/log" ||
  { cat "$out/log" >&2; exit 1; }
echo "| row | instructions per launch |"
echo "|---|---:|"
for dump in $(cd "$out" && ls cg.* | sort -t. -k2 -n | sed "s|^|$out/|"); do
  label=$(sed -n 's/^desc: Trigger: Client Request: //p' "$dump")
  [ -n "$label" ] || continue
  total=$(sed -n 's/^\(summary\|totals\): *\([0-9]*\).*/\2/p' "$dump" | head -n 1)
  echo "| $label | $(awk -v t="$total" -v n="$launches" 'BEGIN { printf "%.0f", t / n }') |"
done
