#!/usr/bin/env bash
# CTest wrapper: run-e2e-cpu.sh NAME BIN_DIR RUNTIME_DIR EXPECTED_DIR SKIPS_FILE
# Runs one end-to-end program on Ocelot's CPU device (OCELOT_DEVICE=cpu, Ocelot's libcudart first
# on LD_LIBRARY_PATH) and compares its stdout and exit code with the GPU's (tests/e2e/expected).
# Exits 77 (skip) with a one-line reason for programs listed in SKIPS_FILE or not built.
set -u
name=$1 bin_dir=${OCELOT_E2E_BIN_DIR:-$2} runtime_dir=$3 expected_dir=$4 skips=$5
reason=$(grep -E "^${name}:" "$skips" | head -1 | cut -d: -f2- | sed 's/^ //')
if [ -n "$reason" ]; then
  echo "SKIP: $reason"
  exit 77
fi
if [ ! -x "$bin_dir/$name" ]; then
  echo "SKIP: $bin_dir/$name is not built (needs nvcc; OCELOT_BUILD_E2E=ON)"
  exit 77
fi
if [ ! -f "$expected_dir/$name.stdout" ]; then
  echo "SKIP: no GPU reference output in $expected_dir"
  exit 77
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
LD_LIBRARY_PATH="$runtime_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" OCELOT_DEVICE=cpu \
  OCELOT_CPU_WATCHDOG_MS=${OCELOT_CPU_WATCHDOG_MS:-120000} "$bin_dir/$name" > "$out"
rc=$?
expected_rc=$(cat "$expected_dir/$name.rc" 2>/dev/null || echo 0)
status=0
# Lines a program marks "hw: " describe the hardware (e.g. integrated memory): the CPU device
# answers them honestly and differently, so they are left out of the comparison with the GPU.
if ! diff -u <(grep -v '^hw: ' "$expected_dir/$name.stdout") <(grep -v '^hw: ' "$out"); then
  echo "FAIL: stdout differs from the GPU's"
  status=1
fi
if [ "$rc" != "$expected_rc" ]; then
  echo "FAIL: exit code $rc, the GPU's was $expected_rc"
  status=1
fi
exit $status
