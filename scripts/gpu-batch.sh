#!/usr/bin/env bash
# The one script the GPU machine runs, in a single call:
#
#   OUT=/path/to/out scripts/gpu-batch.sh [--only SECTION[,SECTION...]] [--programs REGEX] [--list]
#
# It never configures CMake (the GPU machine has no Flex/Bison/Boost): it uses the prebuilt build
# directory (OCELOT_BUILD_DIR, default build/) and, if build/tests/e2e/bin is missing, builds the
# end-to-end programs itself with nvcc (same flags as tests/e2e/CMakeLists.txt: tests/e2e/nvcc-flags.txt).
#
# Sections, run in this order (each is a function section_<name> below; to add one, write the
# function and append its name to SECTIONS):
#   gpuinfo  nvidia-smi, driver, toolkit and loader facts
#   e2e      every tests/e2e program twice: with NVIDIA's libcudart.so.13 and with Ocelot's
#            (<build>/runtime/libcudart.so.13; skipped with a note while it does not exist), each
#            under `timeout`, then stdout + exit status compared
#   instrumentation
#            the analytic programs (tests/e2e/programs/analytic_*, and rdc_three_units: a -rdc
#            program whose device functions are in two other units, linked at PTX level before
#            instrumenting, issue 14) under `ocelot run -i bbcount` in both modes and `-i ctaclock`: block counts against the printed analytic values,
#            output unchanged, every CTA recorded (tests/instrumentors/check_analytic_counts.py);
#            then every e2e program under `ocelot run -i bbcount,ctaclock` against its plain run
#   graph-plan  an executable graph replayed through its plan (issue 14: the instrumented kernels
#            stay in place across launches, one copy, fill and event per launch):
#            tests/runtime/programs/graph_replay.cu (built here with nvcc, -cudart shared) under
#            NVIDIA's runtime and under Ocelot's with bbcount: the same output (the kernels' sums,
#            also after a node's new arguments and a launch on a second stream), and one
#            instrumented profile per node launch (96)
#   fnptr    instrumentation keeps function-pointer identity and never reports a failed launch's
#            counts (issues 14 bug 3, 18 items 3 and 9): the e2e programs virtual_calls,
#            function_pointers, device_malloc and sticky_illegal_address under every instrumentor
#            configuration and each kernel alone against their plain run, and that against
#            NVIDIA's runtime (tests/instrumentors/check_identical_output.py); tests/instrumentors/
#            instrumentation_identity.cu (the in-process API: instrumentors added and removed
#            between launches, a null argument array, a faulting launch; then, reported apart,
#            device resets racing launches); the translation's cost, compare chain vs binary
#            search (tests/benchmarks/instrumentation/function_translation_bench.cpp, fnptr-bench.tsv)
#   runtime-bench  tests/benchmarks/runtime/runtime_bench.cu (built here with nvcc, PTX only) run
#            alternately with NVIDIA's and Ocelot's runtime, twice each; best value per metric,
#            ratio table with the bars of issue #4 (also $OUT/runtime-bench.tsv)
#   launch-bench  tests/benchmarks/instrumentation/launch_overhead_bench.cu (built here with nvcc,
#            -cudart shared): per-launch microseconds of a 1-CTA and a ~50 us kernel, async and
#            synced, and of a 1,000-node graph's node launches, under NVIDIA's runtime, Ocelot's,
#            and Ocelot's with bbcount, ctaclock and both; ratios against NVIDIA with issue 14's bars
#            (also $OUT/launch-bench.tsv); then bbcount with launch-site call stacks off, on, and
#            with host measures too: what each adds per launch against issue 16's 1 us
#   instr-bench  tests/benchmarks/instrumentation/instrumentation_bench.cu (built here with nvcc,
#            linked with Ocelot's libcudart.so.13 for ocelot/ocelot.h): kernel time plain and under
#            bbcount, bbcount-thread, ctaclock, slowdowns against the bars of issue #5 (also
#            $OUT/instr-bench.tsv); from its OCELOT_LOG=info log, each module's pipeline time next
#            to the driver's JIT (the paper's Figure 9)
#   scheduler  tools/online/credit_scheduler.cu: the paper's Experiment 4, GPU-time shares per
#            window without and with the credit scheduler (also $OUT/scheduler.tsv)
#   probes   probe tools (docs/probes.md) on the GPU: the analytic programs under the empty probe,
#            probecount (bbcount's counting as a probe) next to bbcount, the oracle probes and a
#            refused probe (tests/probes/check_probe_tools.py); every e2e program under the empty
#            probe and bbcount+probecount (same output, equal counts); then the slowdown benchmark
#            with --tools emptyprobe,probecount,ctaclockprobe next to bbcount and ctaclock (also
#            $OUT/probes-bench.tsv).
#            The tools come from <build>/tests/probes (libocelot-*.so), else are built here.
#            The shipped probe tools (tools/probes: memaccess, branchdiv, instmix, warpeff,
#            memtrace, from <build>/probe-tools) run in the same checks, all five in one run of
#            each program, and each in the slowdown benchmark, whose table gives geomean and worst
#            against issue 13's bars.
#   host-measures  issue 16's host-side measures on the GPU: launch-site call paths of
#            tests/e2e/programs/launch_sites.cu (tests/tools/check_report.py callpaths --device gpu);
#            timed copies, memsets and unprofiled kernels, API lanes, GCP in the report, and NVTX
#            ranges with --nvtx-include, of tests/e2e/programs/host_lanes.cu (hostlanes, nvtx);
#            the text summary's GCP with transfers and its host API line, and the HTML report's
#            NVTX tables (work per range, kernels by range stack)
#   multi-gpu  (run on a 2-GPU machine: `--only multi-gpu`) tests/e2e/programs/multi_gpu.cu under
#            `ocelot run -i bbcount`: both devices instrumented with exact counts, peer copies
#            timed, GCP per device and across in the report and the summary, a trace lane group
#            per device (check_report.py multigpu --device gpu; CI runs the same check on two CPU
#            devices, report.multigpu_cpu); skipped with one GPU; then two ranks on two GPUs
#            (tests/tools/rank_devices.cu, check_report.py rankdevices --device gpu; CI:
#            report.rank_devices_cpu)
#   cpu-bench  the CPU back end's throughput next to the same PTX on the GPU
#   sweep    tests/cpu/sweep/instruction_sweep.cu (built here with nvcc): the GPU's result of every
#            instruction of the sweep, as $OUT/sweep-reference.tar (sweep-<group>.bin.zst, or .bin
#            without a zstd command), which `tar -xf` into tests/cpu/reference refreshes
#   report   the README's main job on the GPU (scripts/main-job.sh): profile, `ocelot report`
#            (HTML, trace, TAU); $OUT/report.html; the profile's CFG and SM lanes checked
#   driver-api  issue 15: Ocelot's libcuda.so.1 (<build>/runtime/driverapi) in front of NVIDIA's
#            driver. The NVRTC program (tests/driverapi/nvrtc_analytic.cpp), a CuPy RawKernel (PTX
#            via CUPY_COMPILE_WITH_PTX=1) and a Numba-CUDA kernel against their analytic block
#            counts (check_analytic_counts.py); then each program of tests/driverapi/python (CuPy
#            default = cubin, Triton, Triton with ptxas_keep_ptx.sh, the PyTorch step) plain and
#            under `ocelot run -i bbcount`: same stdout, and the kernels Ocelot's summary lists;
#            the Python online API (tests/driverapi/python/online_api.py); the driver-API launch
#            overhead with and without the shim (tests/driverapi/launch_bench.cpp, ratio vs 1.02)
#   static-runtime  tests/tools/tiny_kernel.cu built by nvcc with NVIDIA's static runtime (nvcc's
#            default) and with -cudart shared, each under `ocelot run -i bbcount`: the static one
#            must be refused (exit 3, how to rebuild), run uninstrumented with
#            --allow-static-runtime, the shared one must not warn and must give a profile
#
# Output (at most 8 files come back from $OUT, so everything is aggregated):
#   $OUT/summary.md    readable report: GPU, per-program table, details of every difference
#   $OUT/results.tsv   one row per program run pair (machine-readable)
#   $OUT/logs.tar.gz   every stdout/stderr, GPU info, build logs
#
# Environment knobs: GPU_BATCH_TIMEOUT_S (per run, default 60), GPU_BATCH_BUDGET_S (whole e2e section,
# default 420: runs that would start later are recorded as skipped), GPU_BATCH_OCELOT_ENV (extra
# VAR=value words for the Ocelot runs), GPU_BATCH_NVIDIA_TWICE (default 1: run each program a second
# time with NVIDIA's runtime and flag output that differs between the two: a nondeterministic
# test), GPU_BATCH_INSTR_BENCH_ARGS and GPU_BATCH_SCHEDULER_ARGS (extra arguments of those two
# programs, e.g. "--reps 15 --kernels triad|scan"), GPU_BATCH_BASELINE_CUDART (a directory with
# another build's libcudart.so.13: launch-bench then also times each launch under it, alternating
# with this build's, for an A/B of a change in one run), CUDA_HOME.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${OCELOT_BUILD_DIR:-$ROOT/build}
TIMEOUT_S=${GPU_BATCH_TIMEOUT_S:-60}
BUDGET_S=${GPU_BATCH_BUDGET_S:-420}
OCELOT_ENV=${GPU_BATCH_OCELOT_ENV:-}
NVIDIA_TWICE=${GPU_BATCH_NVIDIA_TWICE:-1}
# The GPU machine has no python3-jsonschema and no package registry: the checkers skip the schema
# check there (with a note) and keep their own checks; CI validates every profile against it.
export OCELOT_PROFILE_SCHEMA_OPTIONAL=1
SECTIONS=(gpuinfo e2e runtime-bench launch-bench instrumentation graph-plan fnptr instr-bench scheduler
          probes cpu-bench sweep host-measures report static-runtime driver-api multi-gpu)

ONLY=""
PROGRAM_FILTER=""
while [ $# -gt 0 ]; do
  case "$1" in
    --only) ONLY=${2:-}; shift 2 ;;
    --only=*) ONLY=${1#--only=}; shift ;;
    --programs) PROGRAM_FILTER=${2:-}; shift 2 ;;
    --programs=*) PROGRAM_FILTER=${1#--programs=}; shift ;;
    --list) printf '%s\n' "${SECTIONS[@]}"; exit 0 ;;
    -h|--help) sed -n '2,/^set -uo pipefail/p' "$0" | sed '$d'; exit 0 ;;
    *) echo "gpu-batch: unknown argument: $1" >&2; exit 2 ;;
  esac
done

if [ -z "${OUT:-}" ]; then
  echo "gpu-batch: set OUT to the output directory" >&2
  exit 2
fi
mkdir -p "$OUT"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/ocelot-gpu-batch.XXXXXX")
LOGS=$WORK/logs
mkdir -p "$LOGS" "$WORK/cwd"
SUMMARY=$OUT/summary.md
RESULTS=$OUT/results.tsv
BATCH_START=$(date +%s)

# Pack the logs however the script ends (normally, on error, or when told to stop).
finish() {
  tar -C "$WORK" -czf "$OUT/logs.tar.gz" logs 2>/dev/null
  rm -rf "$WORK"
}
trap finish EXIT
trap 'echo "gpu-batch: interrupted" | tee -a "$SUMMARY"; exit 130' INT TERM

say() { printf '%s\n' "$*"; }
md() { printf '%s\n' "$*" >>"$SUMMARY"; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

section_wanted() {
  [ -z "$ONLY" ] && return 0
  case ",$ONLY," in *",$1,"*) return 0 ;; esac
  return 1
}

NVCC=""
find_nvcc() {
  for c in "${CUDA_HOME:-}/bin/nvcc" /usr/local/cuda/bin/nvcc "$(command -v nvcc 2>/dev/null)"; do
    if [ -n "$c" ] && [ -x "$c" ]; then NVCC=$c; return 0; fi
  done
  return 1
}

# The directory holding NVIDIA's libcudart.so.13.
NVIDIA_LIBDIR=""
find_nvidia_libdir() {
  for d in "${CUDA_HOME:-}/lib64" /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib \
           /usr/local/cuda-13.0/lib64 /usr/lib/x86_64-linux-gnu; do
    if [ -n "$d" ] && [ -e "$d/libcudart.so.13" ]; then NVIDIA_LIBDIR=$d; return 0; fi
  done
  local p
  p=$(ldconfig -p 2>/dev/null | awk '/libcudart\.so\.13 /{print $NF; exit}')
  if [ -n "$p" ]; then NVIDIA_LIBDIR=$(dirname "$p"); return 0; fi
  return 1
}

# ---------------------------------------------------------------------------------------------
section_gpuinfo() {
  local f=$LOGS/gpuinfo.txt
  {
    echo "== date"; date -u
    echo "== uname"; uname -a
    echo "== nvidia-smi"; nvidia-smi 2>&1
    echo "== nvidia-smi -L"; nvidia-smi -L 2>&1
    echo "== nvidia-smi -q (head)"; nvidia-smi -q 2>&1 | head -60
    echo "== nvcc --version"; ${NVCC:-nvcc} --version 2>&1
    echo "== libcudart / libcuda known to the loader"; ldconfig -p 2>/dev/null | grep -E 'libcudart|libcuda\.so' 
    echo "== CPUs"; nproc
  } >"$f" 2>&1
  cat "$f"
  md "## GPU"
  md ""
  md '```'
  nvidia-smi -L >>"$SUMMARY" 2>&1 || md "nvidia-smi -L failed"
  nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap --format=csv >>"$SUMMARY" 2>&1 || true
  ${NVCC:-nvcc} --version 2>&1 | tail -2 >>"$SUMMARY"
  md '```'
  md ""
}

# ---------------------------------------------------------------------------------------------
# End-to-end programs.
E2E_SRC=$ROOT/tests/e2e/programs

# The program names, from the source tree: programs/<name>.cu and programs/<name>/ directories.
e2e_program_names() {
  local f
  for f in "$E2E_SRC"/*.cu; do [ -e "$f" ] && basename "$f" .cu; done
  for f in "$E2E_SRC"/*/; do [ -d "$f" ] && ls "$f"*.cu >/dev/null 2>&1 && basename "$f"; done
}

e2e_common_flags() {
  grep -v -E '^[[:space:]]*(#|$)' "$ROOT/tests/e2e/nvcc-flags.txt"
}

# e2e_build_one NAME DEST_DIR: compile one program with nvcc; log in $LOGS/build/NAME.log.
e2e_build_one() {
  local name=$1 dest=$2 srcs extra=() flags common=()
  if [ -d "$E2E_SRC/$name" ]; then
    srcs=("$E2E_SRC/$name"/*.cu)
    extra+=(-rdc=true)
  else
    srcs=("$E2E_SRC/$name.cu")
  fi
  flags=$(grep -h '^// e2e-nvcc-flags:' "${srcs[@]}" | sed 's|^// e2e-nvcc-flags:||')
  # shellcheck disable=SC2206
  extra+=($flags)
  mapfile -t common < <(e2e_common_flags)
  "$NVCC" "${common[@]}" "${extra[@]}" -I"$E2E_SRC" "${srcs[@]}" -o "$dest/$name" >"$LOGS/build/$name.log" 2>&1
}

# e2e_build_all DEST_DIR: every program, nproc at a time.
e2e_build_all() {
  local dest=$1 jobs name running=0
  mkdir -p "$dest" "$LOGS/build"
  jobs=$(nproc 2>/dev/null || echo 4)
  for name in $(e2e_program_names); do
    if [ -n "$PROGRAM_FILTER" ] && ! [[ $name =~ $PROGRAM_FILTER ]]; then continue; fi
    e2e_build_one "$name" "$dest" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
  done
  wait
}

# run_program MODE NAME BIN LIBPATH: runs once, leaves stdout/stderr/rc/time files in $LOGS/e2e.
run_program() {
  local mode=$1 name=$2 bin=$3 libpath=$4 base t0 t1 rc
  base=$LOGS/e2e/$name.$mode
  t0=$(now)
  if [ "$mode" = ocelot ] && [ -n "$OCELOT_ENV" ]; then
    # shellcheck disable=SC2086
    (cd "$WORK/cwd" && env LD_LIBRARY_PATH="$libpath" $OCELOT_ENV timeout -k 5 "$TIMEOUT_S" "$bin") \
      >"$base.stdout" 2>"$base.stderr"
  else
    (cd "$WORK/cwd" && env LD_LIBRARY_PATH="$libpath" timeout -k 5 "$TIMEOUT_S" "$bin") \
      >"$base.stdout" 2>"$base.stderr"
  fi
  rc=$?
  t1=$(now)
  echo "$rc" >"$base.rc"
  elapsed "$t0" "$t1" >"$base.time"
}

section_e2e() {
  mkdir -p "$LOGS/e2e"
  md "## End-to-end programs: NVIDIA's runtime vs Ocelot's"
  md ""

  local bindir=$BUILD/tests/e2e/bin built_here=no
  if [ ! -d "$bindir" ] || [ -z "$(ls -A "$bindir" 2>/dev/null)" ]; then
    if [ -z "$NVCC" ]; then
      md "No $bindir and no nvcc: nothing to run."
      say "gpu-batch: no e2e binaries and no nvcc"
      return
    fi
    bindir=$WORK/e2e-bin
    say "gpu-batch: $BUILD/tests/e2e/bin missing, building the programs with $NVCC"
    local t0 t1
    t0=$(now)
    e2e_build_all "$bindir"
    t1=$(now)
    built_here=yes
    md "Programs built here with nvcc in $(elapsed "$t0" "$t1") s (build/tests/e2e/bin was missing)."
  else
    md "Programs from \`${bindir#"$ROOT"/}\` (prebuilt)."
  fi

  local nvlib=""
  if find_nvidia_libdir; then nvlib=$NVIDIA_LIBDIR; fi
  local ocelot_dir=$BUILD/runtime ocelot=no
  [ -e "$ocelot_dir/libcudart.so.13" ] && ocelot=yes
  md "NVIDIA runtime directory: \`${nvlib:-not found (loader default)}\`"
  if [ "$ocelot" = yes ]; then
    md "Ocelot runtime: \`${ocelot_dir#"$ROOT"/}/libcudart.so.13\`"
  else
    md "Ocelot runtime: **ocelot runtime not built** (\`${ocelot_dir#"$ROOT"/}/libcudart.so.13\` does not exist); NVIDIA runs only."
  fi
  # Keep the caller's LD_LIBRARY_PATH after ours: the driver (libcuda.so.1) may only be found there.
  local inherited=${LD_LIBRARY_PATH:-}
  local nv_path="${nvlib}${inherited:+:$inherited}"
  local oc_path="$ocelot_dir${nvlib:+:$nvlib}${inherited:+:$inherited}"

  # Which libcudart the loader really picks, under each setting (from one program).
  local probe=""
  for probe in "$bindir"/versions "$bindir"/*; do [ -x "$probe" ] && break; done
  probe=$(basename "$probe")
  if [ -x "$bindir/$probe" ]; then
    md ""
    md "Loader check (\`ldd $probe | grep cudart\`):"
    md '```'
    md "nvidia: $(LD_LIBRARY_PATH="$nv_path" ldd "$bindir/$probe" 2>&1 | grep -m1 cudart)"
    [ "$ocelot" = yes ] && md "ocelot: $(LD_LIBRARY_PATH="$oc_path" ldd "$bindir/$probe" 2>&1 | grep -m1 cudart)"
    md '```'
  fi
  md ""

  printf 'program\tnvidia_rc\tnvidia_s\tocelot_rc\tocelot_s\tstdout_same\tverdict\n' >"$RESULTS"
  local table=$WORK/table.md details=$WORK/details.md
  : >"$table"
  : >"$details"
  local n_total=0 n_match=0 n_diff=0 n_nvfail=0 n_nvonly=0 n_skip=0 n_missing=0
  local section_start name bin nrc ns orc os same verdict
  section_start=$(date +%s)
  for name in $(e2e_program_names); do
    if [ -n "$PROGRAM_FILTER" ] && ! [[ $name =~ $PROGRAM_FILTER ]]; then continue; fi
    n_total=$((n_total + 1))
    bin=$bindir/$name
    nrc=-; ns=-; orc=-; os=-; same=-
    if [ ! -x "$bin" ]; then
      verdict=MISSING
      n_missing=$((n_missing + 1))
      [ "$built_here" = yes ] && { echo "### $name: build failed"; echo '```'; tail -20 "$LOGS/build/$name.log"; echo '```'; } >>"$details"
    elif [ $(( $(date +%s) - section_start )) -ge "$BUDGET_S" ]; then
      verdict=SKIPPED-BUDGET
      n_skip=$((n_skip + 1))
    else
      run_program nvidia "$name" "$bin" "$nv_path"
      nrc=$(cat "$LOGS/e2e/$name.nvidia.rc"); ns=$(cat "$LOGS/e2e/$name.nvidia.time")
      local stable=yes
      if [ "$NVIDIA_TWICE" = 1 ]; then
        run_program nvidia2 "$name" "$bin" "$nv_path"
        if [ "$(cat "$LOGS/e2e/$name.nvidia2.rc")" != "$nrc" ] ||
           ! cmp -s "$LOGS/e2e/$name.nvidia.stdout" "$LOGS/e2e/$name.nvidia2.stdout"; then
          stable=no
        fi
      fi
      if [ "$ocelot" = yes ]; then
        run_program ocelot "$name" "$bin" "$oc_path"
        orc=$(cat "$LOGS/e2e/$name.ocelot.rc"); os=$(cat "$LOGS/e2e/$name.ocelot.time")
        if cmp -s "$LOGS/e2e/$name.nvidia.stdout" "$LOGS/e2e/$name.ocelot.stdout"; then same=yes; else same=no; fi
      fi
      if [ "$nrc" != 0 ]; then
        verdict=NVIDIA-FAIL
        [ "$nrc" = 124 ] && verdict=NVIDIA-TIMEOUT
        n_nvfail=$((n_nvfail + 1))
        {
          echo "### $name: fails with NVIDIA's runtime (exit $nrc)"
          echo '```'; tail -25 "$LOGS/e2e/$name.nvidia.stdout"; echo "--- stderr"; tail -10 "$LOGS/e2e/$name.nvidia.stderr"; echo '```'
        } >>"$details"
      elif [ "$stable" = no ]; then
        verdict=NVIDIA-NONDETERMINISTIC
        n_nvfail=$((n_nvfail + 1))
        {
          echo "### $name: two runs with NVIDIA's runtime differ (exit $nrc / $(cat "$LOGS/e2e/$name.nvidia2.rc"))"
          echo '```diff'; diff "$LOGS/e2e/$name.nvidia.stdout" "$LOGS/e2e/$name.nvidia2.stdout" | head -30; echo '```'
        } >>"$details"
      elif [ "$ocelot" = no ]; then
        verdict=NVIDIA-OK
        n_nvonly=$((n_nvonly + 1))
      elif [ "$same" = yes ] && [ "$orc" = "$nrc" ]; then
        verdict=MATCH
        n_match=$((n_match + 1))
      else
        verdict=DIFF
        [ "$orc" = 124 ] && verdict=OCELOT-TIMEOUT
        n_diff=$((n_diff + 1))
        {
          echo "### $name: exit nvidia $nrc / ocelot $orc, stdout same: $same"
          echo '```diff'
          diff "$LOGS/e2e/$name.nvidia.stdout" "$LOGS/e2e/$name.ocelot.stdout" | head -30
          echo "--- ocelot stderr (tail)"; tail -10 "$LOGS/e2e/$name.ocelot.stderr"
          echo '```'
        } >>"$details"
      fi
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$nrc" "$ns" "$orc" "$os" "$same" "$verdict" >>"$RESULTS"
    printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$name" "$nrc" "$ns" "$orc" "$os" "$same" "$verdict" >>"$table"
    printf 'e2e %-28s nvidia rc=%-3s %6ss  ocelot rc=%-3s %6ss  %s\n' "$name" "$nrc" "$ns" "$orc" "$os" "$verdict"
  done

  # The device after an unrecoverable fault and cudaDeviceReset: what each call answers depends on
  # the GPU (the CPU device recovers), so the program prints it only on request and the two
  # runtimes are compared here rather than through tests/e2e/expected.
  if [ "$ocelot" = yes ] && [ -x "$bindir/sticky_illegal_address" ] &&
     { [ -z "$PROGRAM_FILTER" ] || [[ sticky_illegal_address =~ $PROGRAM_FILTER ]]; }; then
    E2E_DEVICE_AFTER_RESET=1 run_program nvidia sticky_after_reset "$bindir/sticky_illegal_address" "$nv_path"
    E2E_DEVICE_AFTER_RESET=1 run_program ocelot sticky_after_reset "$bindir/sticky_illegal_address" "$oc_path"
    local after_reset=DIFF
    cmp -s "$LOGS/e2e/sticky_after_reset.nvidia.stdout" "$LOGS/e2e/sticky_after_reset.ocelot.stdout" &&
      after_reset=MATCH
    md ""
    md "Device after an unrecoverable fault and cudaDeviceReset (sticky_illegal_address with E2E_DEVICE_AFTER_RESET=1): **$after_reset**"
    md '```'
    grep "after the reset" "$LOGS/e2e/sticky_after_reset.nvidia.stdout" | sed 's/^/nvidia: /' >>"$SUMMARY"
    grep "after the reset" "$LOGS/e2e/sticky_after_reset.ocelot.stdout" | sed 's/^/ocelot: /' >>"$SUMMARY"
    md '```'
    say "e2e sticky_after_reset: $after_reset"
  fi

  # NVIDIA's outputs are the references the CPU device is compared with (tests/e2e/expected):
  # hand them back, and say which differ from the repo's copy (a stale reference).
  # One archive: only a few files come back from $OUT.
  mkdir -p "$WORK/e2e-expected"
  local stale="" f
  for f in "$LOGS"/e2e/*.nvidia.stdout; do
    [ -e "$f" ] || continue
    name=$(basename "$f" .nvidia.stdout)
    cp "$f" "$WORK/e2e-expected/$name.stdout"
    cp "$LOGS/e2e/$name.nvidia.rc" "$WORK/e2e-expected/$name.rc"
    if ! cmp -s "$f" "$ROOT/tests/e2e/expected/$name.stdout" ||
       ! cmp -s "$LOGS/e2e/$name.nvidia.rc" "$ROOT/tests/e2e/expected/$name.rc"; then
      stale="$stale $name"
    fi
  done
  tar czf "$OUT/e2e-expected.tar.gz" -C "$WORK" e2e-expected
  md "NVIDIA's outputs that differ from (or are missing in) tests/e2e/expected:${stale:- none}."
  md "Totals: $n_total programs; MATCH $n_match, DIFF $n_diff, NVIDIA-FAIL or -NONDETERMINISTIC $n_nvfail, NVIDIA-OK (no Ocelot run) $n_nvonly, MISSING $n_missing, SKIPPED-BUDGET $n_skip."
  md "Per-run timeout ${TIMEOUT_S} s; section budget ${BUDGET_S} s; section took $(( $(date +%s) - section_start )) s."
  md ""
  md "| program | NVIDIA exit | NVIDIA s | Ocelot exit | Ocelot s | same stdout | verdict |"
  md "|---|---|---|---|---|---|---|"
  cat "$table" >>"$SUMMARY"
  md ""
  if [ -s "$details" ]; then
    md "## Details"
    md ""
    cat "$details" >>"$SUMMARY"
  fi
  say "gpu-batch: e2e: $n_total programs, MATCH $n_match, DIFF $n_diff, NVIDIA-FAIL $n_nvfail, NVIDIA-OK $n_nvonly, MISSING $n_missing, SKIPPED $n_skip"
}

# ---------------------------------------------------------------------------------------------
# runtime-bench: the same benchmark binary with NVIDIA's runtime and with Ocelot's.
section_runtime-bench() {
  mkdir -p "$LOGS/runtime-bench"
  md "## Runtime benchmark: Ocelot's libcudart.so.13 vs NVIDIA's"
  md ""
  local src=$ROOT/tests/benchmarks/runtime/runtime_bench.cu bin=$WORK/runtime_bench
  if [ -z "$NVCC" ]; then
    md "No nvcc: benchmark not built."
    return
  fi
  # PTX only, so that both runtimes JIT the module (the module-load metric compares JIT costs).
  if ! "$NVCC" -O2 -std=c++17 -gencode arch=compute_90,code=compute_90 --cudart=shared "$src" \
      -o "$bin" >"$LOGS/runtime-bench/build.log" 2>&1; then
    md "Benchmark build failed:"
    md '```'
    tail -20 "$LOGS/runtime-bench/build.log" >>"$SUMMARY"
    md '```'
    return
  fi
  local nvlib=""
  if find_nvidia_libdir; then nvlib=$NVIDIA_LIBDIR; fi
  local ocelot_dir=$BUILD/runtime
  if [ ! -e "$ocelot_dir/libcudart.so.13" ]; then
    md "Ocelot runtime not built (\`${ocelot_dir#"$ROOT"/}/libcudart.so.13\` missing): skipped."
    return
  fi
  local inherited=${LD_LIBRARY_PATH:-}
  local nv_path="${nvlib}${inherited:+:$inherited}"
  local oc_path="$ocelot_dir${nvlib:+:$nvlib}${inherited:+:$inherited}"
  local round mode path rc
  # Alternate the runtimes so that drift of the machine affects both alike.
  for round in 1 2; do
    for mode in nvidia ocelot; do
      path=$nv_path
      [ "$mode" = ocelot ] && path=$oc_path
      # Ocelot logs at info: one line per module with its pipeline and device-load times.
      (cd "$WORK/cwd" && env LD_LIBRARY_PATH="$path" CUDA_CACHE_DISABLE=1 OCELOT_LOG=info OCELOT_DEVICE=gpu \
        timeout -k 5 180 "$bin") >"$LOGS/runtime-bench/$mode.$round.tsv" \
        2>"$LOGS/runtime-bench/$mode.$round.stderr"
      rc=$?
      if [ "$rc" != 0 ]; then
        md "Run $round with $mode's runtime failed (exit $rc):"
        md '```'
        tail -5 "$LOGS/runtime-bench/$mode.$round.stderr" >>"$SUMMARY"
        md '```'
      fi
    done
  done
  # Best of the rounds per metric and runtime, then the ratio Ocelot / NVIDIA. Bars (issue #4):
  # launch latency ratio <= 1.05, memcpy bandwidth ratio >= 0.98, module load: Ocelot's added time
  # under 5% of NVIDIA's (the driver's first JIT of the same module).
  awk -F'\t' '
    FNR == 1 { mode = (FILENAME ~ /ocelot\./) ? "ocelot" : "nvidia" }
    NF >= 4 {
      key = $1; unit[key] = $3; better[key] = $4
      if (!(key in order)) { order[key] = ++n; names[n] = key }
      v = $2 + 0
      if (!((mode, key) in best) || (better[key] == "lower" ? v < best[mode, key] : v > best[mode, key]))
        best[mode, key] = v
    }
    END {
      print "| metric | unit | NVIDIA | Ocelot | Ocelot / NVIDIA | bar |" > "/dev/stderr"
      print "|---|---|---|---|---|---|" > "/dev/stderr"
      for (i = 1; i <= n; ++i) {
        k = names[i]
        if (!(("nvidia", k) in best) || !(("ocelot", k) in best)) continue
        nv = best["nvidia", k]; oc = best["ocelot", k]
        ratio = nv != 0 ? oc / nv : 0
        bar = "-"
        if (k ~ /^launch_/) bar = (ratio <= 1.05 ? "ok (<= 1.05)" : "MISSED (<= 1.05)")
        else if (k ~ /^memcpy_256MiB/) bar = (ratio >= 0.98 ? "ok (>= 0.98)" : "MISSED (>= 0.98)")
        else if (k == "module_load_first_use") bar = "see the pipeline share below"
        printf "| %s | %s | %.3f | %.3f | %.3f | %s |\n", k, unit[k], nv, oc, ratio, bar > "/dev/stderr"
        printf "%s\t%s\t%.4f\t%.4f\t%.4f\t%s\n", k, unit[k], nv, oc, ratio, bar
      }
    }' "$LOGS"/runtime-bench/nvidia.*.tsv "$LOGS"/runtime-bench/ocelot.*.tsv \
    >"$OUT/runtime-bench.tsv" 2>"$WORK/bench-table.md"
  md "Best of 2 alternating runs each, \`CUDA_CACHE_DISABLE=1\`; module built as PTX only (both JIT)."
  md ""
  cat "$WORK/bench-table.md" >>"$SUMMARY"
  md ""
  md "Ocelot's module loads (pipeline = parse, passes, emit; device load = the driver's JIT):"
  md '```'
  grep -h "loaded Ocelot's module" "$LOGS"/runtime-bench/ocelot.*.stderr >>"$SUMMARY" 2>/dev/null
  md '```'
  # Issue #4's module-load bar: what Ocelot adds (its pipeline) under 5% of the driver's JIT of
  # the same module. The worst round counts.
  grep -h "loaded Ocelot's module" "$LOGS"/runtime-bench/ocelot.*.stderr 2>/dev/null |
    sed -n 's/.*(pipeline \([0-9.]*\) ms, device load \([0-9.]*\) ms).*/\1 \2/p' |
    awk '{ s = 100 * $1 / $2; if (s > worst) worst = s; ++n }
         END { if (n) printf "Pipeline share of the JIT, worst of %d loads: %.2f%% (%s)\n", n, worst,
                      worst < 5 ? "ok, bar < 5%" : "MISSED, bar < 5%" }' >"$WORK/pipeline-share.txt"
  md ""
  cat "$WORK/pipeline-share.txt" >>"$SUMMARY"
  cp "$WORK/pipeline-share.txt" "$LOGS/runtime-bench/module-load-share.txt"
  md ""
  say "gpu-batch: runtime-bench: $(wc -l <"$OUT/runtime-bench.tsv") metrics compared"
}

# cuda_program_ready DIR SRC BIN [NVCC FLAGS...]: builds SRC into BIN with nvcc (-std=c++17,
# --cudart=shared, the flags given; the log in DIR/build.log) for a section that runs it under both
# runtimes; fails, with a line in the summary, when there is no nvcc, it does not build, or
# Ocelot's runtime is not built.
cuda_program_ready() {
  local dir=$1 src=$2 bin=$3
  shift 3
  if [ -z "$NVCC" ]; then
    md "No nvcc: \`${src#"$ROOT"/}\` not built."
    return 1
  fi
  if ! "$NVCC" -std=c++17 --cudart=shared "$@" "$src" -o "$bin" >"$dir/build.log" 2>&1; then
    md "Build of \`${src#"$ROOT"/}\` failed:"
    md '```'
    tail -20 "$dir/build.log" >>"$SUMMARY"
    md '```'
    return 1
  fi
  if [ ! -e "$BUILD/runtime/libcudart.so.13" ]; then
    md "Ocelot runtime not built: skipped."
    return 1
  fi
}

# hostcost_table TSV...: the launch benchmark's metrics under bbcount with call stacks off
# (nostacks.N.tsv), on (stacks.N.tsv) and with host measures too (measures.N.tsv), best value per
# mode, as a Markdown table with what each adds per launch against issue 16's 1 us.
hostcost_table() {
  awk -F'\t' '
    FNR == 1 { n = split(FILENAME, parts, "/"); mode = substr(parts[n], 1, index(parts[n], ".") - 1) }
    $3 == "us" {
      if (!($1 in seen)) { seen[$1] = 1; names[++count] = $1 }
      v = $2 + 0
      if (!((mode, $1) in best) || v < best[mode, $1]) best[mode, $1] = v
    }
    END {
      print "| metric (us per launch) | stacks off | stacks on | + host measures | stacks add | measures add | <= 1 us |"
      print "|---|---:|---:|---:|---:|---:|---|"
      for (i = 1; i <= count; ++i) {
        k = names[i]
        if (!(("nostacks", k) in best) || !(("stacks", k) in best) || !(("measures", k) in best)) {
          print "| " k " | incomplete | | | | | |"
          continue
        }
        off = best["nostacks", k]; on = best["stacks", k]; all = best["measures", k]
        printf "| %s | %.2f | %.2f | %.2f | %.2f | %.2f | %s |\n", k, off, on, all, on - off, all - on,
               (all - off <= 1.0 ? "ok" : "MISSED")
      }
    }' "$@"
}

# ---------------------------------------------------------------------------------------------
# launch-bench: one program, run under NVIDIA's runtime, Ocelot's, and Ocelot's with instrumentors.
section_launch-bench() {
  local dir=$LOGS/launch-bench
  mkdir -p "$dir"
  md "## Launch overhead (issue 14): NVIDIA, Ocelot, Ocelot + instrumentors"
  md ""
  local src=$ROOT/tests/benchmarks/instrumentation/launch_overhead_bench.cu bin=$WORK/launch_bench
  cuda_program_ready "$dir" "$src" "$bin" -O2 -gencode=arch=compute_90,code=sm_90 \
    -gencode=arch=compute_90,code=compute_90 || return
  local nvlib=""
  if find_nvidia_libdir; then nvlib=$NVIDIA_LIBDIR; fi
  local inherited=${LD_LIBRARY_PATH:-}
  local nv_path="${nvlib}${inherited:+:$inherited}"
  local oc_path="$BUILD/runtime${nvlib:+:$nvlib}${inherited:+:$inherited}"
  # NVIDIA's run calibrates the ~50 us kernel; every other run does the same work.
  (cd "$WORK/cwd" && env LD_LIBRARY_PATH="$nv_path" timeout -k 5 300 "$bin") \
    >"$dir/nvidia.0.tsv" 2>"$dir/nvidia.0.stderr"
  local iters
  iters=$(awk -F'\t' '$1 == "work_iters" { print $2 }' "$dir/nvidia.0.tsv")
  if [ -z "$iters" ]; then
    md "NVIDIA's run failed:"
    md '```'
    tail -5 "$dir/nvidia.0.stderr" >>"$SUMMARY"
    md '```'
    return
  fi
  local round mode path instr rc
  # Alternating modes, twice, so that drift of the machine affects all alike; the best round counts.
  for round in 1 2; do
    # bbcount-event: bbcount with an event after every launch instead of the kernel's completion
    # word (OCELOT_COMPLETION_WORDS=0), to compare the two in one run.
    for mode in nvidia ocelot bbcount ctaclock both bbcount-event; do
      path=$oc_path instr="" words=1
      case $mode in
        nvidia) path=$nv_path ;;
        bbcount | ctaclock) instr=$mode ;;
        both) instr=bbcount,ctaclock ;;
        bbcount-event) instr=bbcount words=0 ;;
      esac
      (cd "$WORK/cwd" && env LD_LIBRARY_PATH="$path" OCELOT_DEVICE=gpu ${instr:+OCELOT_INSTRUMENTORS=$instr} \
        OCELOT_COMPLETION_WORDS=$words \
        OCELOT_SUMMARY="$dir/$mode.$round.summary.txt" timeout -k 5 300 "$bin" --work-iters "$iters") \
        >"$dir/$mode.$round.tsv" 2>"$dir/$mode.$round.stderr"
      rc=$?
      if [ "$rc" != 0 ]; then
        md "Run $round under $mode failed (exit $rc):"
        md '```'
        tail -5 "$dir/$mode.$round.stderr" >>"$SUMMARY"
        md '```'
      fi
    done
  done
  # Bars (issue 14): the 1-CTA kernel's async launch <= 1.25x NVIDIA's under every Ocelot mode;
  # the ~50 us kernel <= 1.05x under ctaclock, <= 1.10x under bbcount (both: reported, no bar).
  awk -F'\t' '
    FNR == 1 { split(FILENAME, parts, "/"); f = parts[length(parts)]; mode = substr(f, 1, index(f, ".") - 1) }
    $3 == "us" {
      key = $1
      if (!(key in seen)) { seen[key] = 1; names[++n] = key }
      v = $2 + 0
      if (!((mode, key) in best) || v < best[mode, key]) best[mode, key] = v
    }
    $1 == "checksum" { sums[mode] = sums[mode] " " $2 }
    END {
      m = split("ocelot bbcount ctaclock both bbcount-event", modes, " ")
      print "| metric (us per launch) | NVIDIA | Ocelot | bbcount | ctaclock | both | bbcount, event per launch | ratios to NVIDIA | bars |" > "/dev/stderr"
      print "|---|---|---|---|---|---|---|---|---|" > "/dev/stderr"
      for (i = 1; i <= n; ++i) {
        k = names[i]; nv = best["nvidia", k]
        line = sprintf("| %s | %.2f", k, nv); ratios = ""; bars = ""
        for (j = 1; j <= m; ++j) {
          md = modes[j]
          if (!((md, k) in best)) { line = line " | -"; continue }
          v = best[md, k]; r = nv > 0 ? v / nv : 0
          line = line sprintf(" | %.2f", v)
          ratios = ratios sprintf("%s%s %.2fx", ratios == "" ? "" : ", ", md, r)
          bar = 0
          if (k == "tiny_async" && md != "bbcount-event") bar = 1.25
          if (k == "work_async" && md == "ctaclock") bar = 1.05
          if (k == "work_async" && md == "bbcount") bar = 1.10
          if (bar > 0) bars = bars sprintf("%s%s %s (<= %.2f)", bars == "" ? "" : ", ", md, r <= bar ? "ok" : "MISSED", bar)
          printf "%s\t%s\t%.3f\t%.3f\t%.3f\t%s\n", k, md, nv, v, r, (bar > 0 ? (r <= bar ? "ok" : "MISSED") : "-")
        }
        print line " | " ratios " | " (bars == "" ? "-" : bars) " |" > "/dev/stderr"
      }
      for (md in sums) print "checksums " md ":" sums[md] > "/dev/stderr"
    }' "$dir"/*.[12].tsv >"$OUT/launch-bench.tsv" 2>"$dir/table.md"
  md "Best of 2 alternating rounds; ~50 us kernel: \`--work-iters $iters\` (calibrated under NVIDIA's runtime). TSV: launch-bench.tsv (metric, mode, NVIDIA, mode's value, ratio, bar)."
  md ""
  grep -v '^checksums' "$dir/table.md" >>"$SUMMARY"
  md ""
  md '```'
  grep '^checksums' "$dir/table.md" >>"$SUMMARY"
  # Coverage: what the instrumented runs' summaries say about graph launches and the rest.
  for mode in bbcount both; do
    [ -f "$dir/$mode.1.summary.txt" ] && { echo "--- $mode summary (head)"; head -15 "$dir/$mode.1.summary.txt"; } >>"$SUMMARY"
  done
  md '```'
  md ""
  # Issue 16's cost bar (launch-site capture and host measures <= 1 us per launch, or switchable):
  # bbcount launches with call stacks off (OCELOT_CALL_STACKS=0), with them on (the default; host
  # measures are off without a profile file), and with host measures on as well
  # (OCELOT_HOST_MEASURES=1); best of 2 alternating rounds, differences per launch.
  mkdir -p "$dir/hostcost"
  for round in 1 2; do
    for mode in nostacks stacks measures; do
      local switches=OCELOT_HOST_MEASURES=0
      case $mode in
        nostacks) switches="OCELOT_HOST_MEASURES=0 OCELOT_CALL_STACKS=0" ;;
        measures) switches=OCELOT_HOST_MEASURES=1 ;;
      esac
      # shellcheck disable=SC2086 # $switches is a list of VAR=value words
      (cd "$WORK/cwd" && env LD_LIBRARY_PATH="$oc_path" OCELOT_DEVICE=gpu OCELOT_INSTRUMENTORS=bbcount \
        $switches OCELOT_SUMMARY="$dir/hostcost/$mode.$round.summary.txt" timeout -k 5 300 "$bin" \
        --work-iters "$iters") >"$dir/hostcost/$mode.$round.tsv" 2>"$dir/hostcost/$mode.$round.stderr" ||
        md "Host-cost run $round under $mode failed (logs/launch-bench/hostcost/$mode.$round.stderr)."
    done
  done
  md "Launch-site call stacks and host measures under bbcount (issue 16: <= 1 us per launch, or switched off; best of 2 rounds):"
  md ""
  hostcost_table "$dir"/hostcost/*.tsv >>"$SUMMARY"
  md ""
  # Where the time of a 1-CTA launch goes: the launching thread's time inside each <<<>>>
  # (launch_host_cost.cu), and what a timing event after each launch costs natively.
  local hostsrc=$ROOT/tests/benchmarks/instrumentation/launch_host_cost.cu hostbin=$WORK/launch_host_cost
  if "$NVCC" -O2 -std=c++17 -gencode=arch=compute_90,code=sm_90 \
      -gencode=arch=compute_90,code=compute_90 --cudart=shared "$hostsrc" -o "$hostbin" \
      >"$dir/host-cost.build.log" 2>&1; then
    md "Time inside each launch call (launch_host_cost.cu, 20,000 launches of a 1-CTA kernel):"
    md '```'
    # With GPU_BATCH_BASELINE_CUDART: two alternating rounds, each instrumentor under the baseline
    # build (base-*) next to this one.
    local modes=(nvidia ocelot bbcount ctaclock) rounds=1
    if [ -n "${GPU_BATCH_BASELINE_CUDART:-}" ]; then
      modes=(nvidia base-bbcount bbcount base-ctaclock ctaclock)
      rounds=2
    fi
    local round
    for round in $(seq "$rounds"); do
      for mode in "${modes[@]}"; do
        path=$oc_path instr=""
        case $mode in
          nvidia) path=$nv_path ;;
          bbcount | ctaclock) instr=$mode ;;
          base-*)
            instr=${mode#base-}
            path="$GPU_BATCH_BASELINE_CUDART${nvlib:+:$nvlib}${inherited:+:$inherited}"
            ;;
        esac
        (cd "$WORK/cwd" && env LD_LIBRARY_PATH="$path" OCELOT_DEVICE=gpu ${instr:+OCELOT_INSTRUMENTORS=$instr} \
          timeout -k 5 120 "$hostbin") >"$dir/host-cost.$mode.$round.txt" 2>&1
        grep -E "host-in-launch|timing events|isolated" "$dir/host-cost.$mode.$round.txt" |
          sed "s/^/$mode: /" >>"$SUMMARY"
      done
    done
    md '```'
  else
    md "launch_host_cost.cu did not build (see logs/launch-bench/host-cost.build.log)."
  fi
  md ""
  say "gpu-batch: launch-bench: $(grep -c MISSED "$OUT/launch-bench.tsv") bars missed"
}

# The e2e programs the sections run: those the e2e section built here, else the build's.
e2e_bindir() {
  if [ -d "$WORK/e2e-bin" ]; then echo "$WORK/e2e-bin"; else echo "$BUILD/tests/e2e/bin"; fi
}

# ensure_e2e_programs: sections after e2e run its programs; when e2e was not among the sections of
# this call (e.g. `--only probes`) and nothing prebuilt is there, build them here first, or those
# sections would find no program and report "ok 0 failed 0".
ensure_e2e_programs() {
  local bindir
  bindir=$(e2e_bindir)
  [ -d "$bindir" ] && [ -n "$(ls -A "$bindir" 2>/dev/null)" ] && return 0
  [ -n "$NVCC" ] || return 0
  say "gpu-batch: no e2e programs yet, building them with $NVCC into $WORK/e2e-bin"
  e2e_build_all "$WORK/e2e-bin"
}

# ocelot_built TOOL: whether the `ocelot` tool and Ocelot's libcudart.so.13 are there (else a
# skip line in the summary).
ocelot_built() {
  if [ ! -x "$1" ] || [ ! -e "$BUILD/runtime/libcudart.so.13" ]; then
    md "Skipped: \`$1\` or Ocelot's libcudart.so.13 is not built."
    return 1
  fi
}

# ocelot_e2e_ready: the opening of a section that runs the e2e programs under `ocelot run`. Sets
# the caller's locals ocelot (the tool) and bindir (e2e_bindir); fails, with ocelot_built's skip
# line, when the tool or Ocelot's libcudart.so.13 is not built.
ocelot_e2e_ready() {
  ocelot=$BUILD/tools/ocelot
  ocelot_built "$ocelot" || return 1
  ensure_e2e_programs
  bindir=$(e2e_bindir)
}

# ---------------------------------------------------------------------------------------------
section_instrumentation() {
  mkdir -p "$LOGS/instrumentation"
  md "## Instrumentation: analytic block counts and unchanged output under \`ocelot run\`"
  md ""
  local ocelot bindir checker=$ROOT/tests/instrumentors/check_analytic_counts.py
  ocelot_e2e_ready || return
  if ! command -v python3 >/dev/null; then
    md "Skipped: no python3 for the checker."
    return
  fi
  local nvlib=""
  if find_nvidia_libdir; then nvlib=$NVIDIA_LIBDIR; fi
  md "| program | analytic check | seconds |"
  md "|---|---|---|"
  local name t0 t1 rc n_pass=0 n_fail=0
  for bin in "$bindir"/analytic_* "$bindir"/rdc_three_units; do
    [ -x "$bin" ] || continue
    name=$(basename "$bin")
    t0=$(now)
    # The driver may only be reachable through the caller's LD_LIBRARY_PATH: ocelot run prepends.
    LD_LIBRARY_PATH="${nvlib:+$nvlib:}${LD_LIBRARY_PATH:-}" timeout -k 5 600 python3 "$checker" \
      --ocelot "$ocelot" --keep "$LOGS/instrumentation" "$bin" >"$LOGS/instrumentation/$name.log" 2>&1
    rc=$?
    t1=$(now)
    if [ "$rc" = 0 ]; then n_pass=$((n_pass + 1)); else n_fail=$((n_fail + 1)); fi
    md "| $name | $(tail -1 "$LOGS/instrumentation/$name.log" | tr '|' '/') | $(elapsed "$t0" "$t1") |"
    say "instrumentation $name: rc=$rc $(tail -1 "$LOGS/instrumentation/$name.log")"
  done
  md ""
  for f in "$LOGS"/instrumentation/*.log; do
    if ! tail -1 "$f" | grep -q '^PASS'; then
      { echo "### $(basename "$f" .log)"; echo '```'; tail -30 "$f"; echo '```'; } >>"$SUMMARY"
    fi
  done

  # Every e2e program instrumented: the same stdout and exit status as its plain run under Ocelot.
  md ""
  md "Every e2e program under \`ocelot run -i bbcount,ctaclock\` vs \`ocelot run\` (no instrumentors):"
  md ""
  local same=0 differ=0 list=""
  for bin in "$bindir"/*; do
    [ -x "$bin" ] || continue
    name=$(basename "$bin")
    if [ -n "$PROGRAM_FILTER" ] && ! [[ $name =~ $PROGRAM_FILTER ]]; then continue; fi
    local base=$LOGS/instrumentation/$name
    (cd "$WORK/cwd" && LD_LIBRARY_PATH="${nvlib:+$nvlib:}${LD_LIBRARY_PATH:-}" timeout -k 5 "$TIMEOUT_S" \
      "$ocelot" run --summary off -- "$bin" >"$base.plain.stdout" 2>"$base.plain.stderr")
    echo $? >"$base.plain.rc"
    (cd "$WORK/cwd" && LD_LIBRARY_PATH="${nvlib:+$nvlib:}${LD_LIBRARY_PATH:-}" timeout -k 5 "$TIMEOUT_S" \
      "$ocelot" run -i bbcount,ctaclock --summary "$base.summary.txt" -o "$base.profile.json" -- "$bin" \
      >"$base.instr.stdout" 2>"$base.instr.stderr")
    echo $? >"$base.instr.rc"
    if cmp -s "$base.plain.stdout" "$base.instr.stdout" && cmp -s "$base.plain.rc" "$base.instr.rc"; then
      same=$((same + 1))
    else
      differ=$((differ + 1))
      list="$list $name(rc $(cat "$base.plain.rc")/$(cat "$base.instr.rc"))"
    fi
  done
  md "Same output and exit status: $same; different: $differ.${list:+ Different:$list}"
  md ""
  say "gpu-batch: instrumentation: analytic PASS $n_pass FAIL $n_fail; instrumented e2e same $same differ $differ"
}


# graph-plan: a graph replayed through its plan, under NVIDIA's runtime and Ocelot's with bbcount.
section_graph-plan() {
  local dir=$LOGS/graph-plan
  mkdir -p "$dir"
  md "## Graph plans (issue 14): a replayed graph's instrumented kernel nodes kept in place"
  md ""
  local src=$ROOT/tests/runtime/programs/graph_replay.cu bin=$WORK/graph_replay
  cuda_program_ready "$dir" "$src" "$bin" || return
  local nvlib=""
  if find_nvidia_libdir; then nvlib=$NVIDIA_LIBDIR; fi
  local inherited=${LD_LIBRARY_PATH:-}
  (cd "$WORK/cwd" && env LD_LIBRARY_PATH="${nvlib}${inherited:+:$inherited}" timeout -k 5 120 "$bin") \
    >"$dir/nvidia.stdout" 2>"$dir/nvidia.stderr"
  echo $? >"$dir/nvidia.rc"
  (cd "$WORK/cwd" && env LD_LIBRARY_PATH="$BUILD/runtime${nvlib:+:$nvlib}${inherited:+:$inherited}" \
    OCELOT_DEVICE=gpu OCELOT_INSTRUMENTORS=bbcount OCELOT_SUMMARY="$dir/summary.txt" \
    OCELOT_PROFILE_OUTPUT="$dir/profiles.jsonl" timeout -k 5 120 "$bin") \
    >"$dir/ocelot.stdout" 2>"$dir/ocelot.stderr"
  echo $? >"$dir/ocelot.rc"
  local same=no instrumented counted
  cmp -s "$dir/nvidia.stdout" "$dir/ocelot.stdout" && cmp -s "$dir/nvidia.rc" "$dir/ocelot.rc" && same=yes
  instrumented=$(grep -o '"execution":"instrumented"' "$dir/profiles.jsonl" 2>/dev/null | wc -l)
  counted=$(grep -o '"block_executions":32,' "$dir/profiles.jsonl" 2>/dev/null | wc -l)
  md "Same output and exit status as under NVIDIA's runtime: **$same** (last line: \`$(tail -1 "$dir/ocelot.stdout")\`, exit $(cat "$dir/ocelot.rc")). Instrumented node profiles: **$instrumented** (expected 96: 8 nodes x 12 instrumented launches); with 32 block executions (one block, 32 threads): **$counted** (expected 96)."
  if [ "$same" != yes ]; then
    md '```'
    diff "$dir/nvidia.stdout" "$dir/ocelot.stdout" | head -20 >>"$SUMMARY"
    tail -5 "$dir/ocelot.stderr" >>"$SUMMARY"
    md '```'
  fi
  md ""
  say "gpu-batch: graph-plan: same output $same, instrumented profiles $instrumented/96, counted $counted/96"
}

# fnptr: function-pointer identity, failed launches and null arguments under instrumentation.
section_fnptr() {
  md "## Function pointers, failed launches, null arguments under instrumentation (issues 14, 18)"
  md ""
  mkdir -p "$LOGS/fnptr"
  local ocelot=$BUILD/tools/ocelot bindir=$BUILD/tests/e2e/bin nvlib="" rc name
  bindir=$(e2e_bindir)
  if find_nvidia_libdir; then nvlib=$NVIDIA_LIBDIR; fi
  if [ -x "$ocelot" ] && [ -e "$BUILD/runtime/libcudart.so.13" ] && command -v python3 >/dev/null; then
    md "Each program under \`ocelot run\` with bbcount (per warp, per thread), ctaclock, both, and both on each kernel alone, against its plain run (same stdout and status, every selected launch instrumented, entry counts = threads), and the plain run against NVIDIA's runtime (${nvlib:-not found: not compared}):"
    md ""
    md "| program | result |"
    md "|---|---|"
    for name in virtual_calls function_pointers device_malloc sticky_illegal_address; do
      (cd "$WORK/cwd" && LD_LIBRARY_PATH="${nvlib:+$nvlib:}${LD_LIBRARY_PATH:-}" timeout -k 5 600 \
        python3 "$ROOT/tests/instrumentors/check_identical_output.py" --ocelot "$ocelot" --device gpu \
        --keep "$LOGS/fnptr" ${nvlib:+--reference-ld-path "$nvlib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"} \
        "$bindir/$name") >"$LOGS/fnptr/$name.log" 2>&1
      rc=$?
      md "| $name | rc $rc: $(tail -1 "$LOGS/fnptr/$name.log" | tr '|' '/') |"
      [ "$rc" = 0 ] || [ "$rc" = 77 ] || { md ""; md '```'; tail -12 "$LOGS/fnptr/$name.log" >>"$SUMMARY"; md '```'; md ""; }
      say "fnptr $name: rc=$rc $(tail -1 "$LOGS/fnptr/$name.log")"
    done
    md ""
  else
    md "\`ocelot\`, Ocelot's libcudart.so.13 or python3 missing: the e2e matrix is skipped."
  fi
  if ocelot_api_build identity "$ROOT/tests/instrumentors/instrumentation_identity.cu"; then
    (cd "$WORK/cwd" && env LD_LIBRARY_PATH="$(ocelot_api_path)" OCELOT_DEVICE=gpu timeout -k 5 300 \
      "$WORK/identity" --skip-reset-race) >"$LOGS/fnptr/identity.txt" 2>&1
    rc=$?
    md "instrumentation_identity (online API, null arguments, a faulting launch): exit $rc, $(grep -c ': ok$' "$LOGS/fnptr/identity.txt") checks ok:"
    md '```'
    grep -v ': ok$' "$LOGS/fnptr/identity.txt" | grep -v 'ocelot\[' | tail -20 >>"$SUMMARY"
    md '```'
    say "fnptr identity: rc=$rc"
    # Resets racing launches are undefined behaviour for the application; reported, not judged
    # with the rest (what matters: no profile carries counts a disturbed launch left behind). In a
    # process of its own: after the faulting launch above the GPU stays unusable, resets or not,
    # under NVIDIA's runtime too (e2e sticky_illegal_address).
    (cd "$WORK/cwd" && env LD_LIBRARY_PATH="$(ocelot_api_path)" OCELOT_DEVICE=gpu timeout -k 5 300 \
      "$WORK/identity" --reset-race-only) >"$LOGS/fnptr/identity-reset-race.txt" 2>&1
    rc=$?
    md "with device resets racing launches: exit $rc"
    md '```'
    grep -E 'reset (race|storm)|RESULT|FATAL|launch [0-9]+: entry' "$LOGS/fnptr/identity-reset-race.txt" | tail -24 >>"$SUMMARY"
    md '```'
    md ""
    say "fnptr identity with reset race: rc=$rc"
  fi
  # The translation's cost: the pass's two code shapes timed through the driver API.
  local bench=$BUILD/tests/benchmarks/instrumentation/ocelot_function_translation_bench
  if [ ! -x "$bench" ] && [ -n "$NVCC" ]; then
    bench=$WORK/fnptr-bench
    "$NVCC" -O2 -std=c++17 "$ROOT/tests/benchmarks/instrumentation/function_translation_bench.cpp" \
      -o "$bench" -ldl >"$LOGS/fnptr/bench-build.log" 2>&1 || bench=""
  fi
  if [ -n "$bench" ] && [ -x "$bench" ]; then
    (cd "$WORK/cwd" && LD_LIBRARY_PATH="${nvlib:+$nvlib:}${LD_LIBRARY_PATH:-}" timeout -k 5 300 "$bench") \
      >"$OUT/fnptr-bench.tsv" 2>"$LOGS/fnptr/bench.stderr"
    rc=$?
    md "Translation cost (kernel ns per loop iteration, one indirect call per thread; fnptr-bench.tsv), exit $rc:"
    md '```'
    cat "$OUT/fnptr-bench.tsv" >>"$SUMMARY"
    md '```'
    md ""
    say "fnptr bench: rc=$rc"
  fi
}

# ---------------------------------------------------------------------------------------------
# Programs that call Ocelot's in-process API (ocelot/ocelot.h) link Ocelot's libcudart.so.13.

# ocelot_api_build NAME SOURCE: nvcc SOURCE into $WORK/NAME (log in $LOGS/NAME/build.log); says
# why in the summary and fails when it cannot.
ocelot_api_build() {
  local name=$1 src=$2 log=$LOGS/$1/build.log
  mkdir -p "$LOGS/$name"
  if [ -z "$NVCC" ]; then
    md "No nvcc: \`$name\` not built."
    return 1
  fi
  if [ ! -e "$BUILD/runtime/libcudart.so.13" ]; then
    md "Ocelot runtime not built (\`${BUILD#"$ROOT"/}/runtime/libcudart.so.13\` missing; set OCELOT_BUILD_DIR): skipped."
    return 1
  fi
  if ! "$NVCC" -cudart shared -std=c++20 -O2 -lineinfo -gencode=arch=compute_90,code=sm_90 \
      -gencode=arch=compute_90,code=compute_90 -I"$ROOT" "$src" -L"$BUILD/runtime" -lcudart \
      -Xlinker -rpath -Xlinker "$BUILD/runtime" -o "$WORK/$name" >"$log" 2>&1; then
    md "\`$name\` build failed:"
    md '```'
    tail -20 "$log" >>"$SUMMARY"
    md '```'
    return 1
  fi
}

# ocelot_api_path: LD_LIBRARY_PATH with Ocelot's runtime first (the driver may only be reachable
# through the caller's path).
ocelot_api_path() {
  local nvlib=""
  if find_nvidia_libdir; then nvlib=$NVIDIA_LIBDIR; fi
  printf '%s' "$BUILD/runtime${nvlib:+:$nvlib}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
}

# instr-bench: the slowdown table, then the pipeline's cost next to the JIT from the info log.
# CUDA_CACHE_DISABLE and eager loading: every module is JIT-compiled inside the timed load.
section_instr-bench() {
  md "## Instrumentation slowdown benchmark (issue #5)"
  md ""
  ocelot_api_build instr-bench "$ROOT/tests/benchmarks/instrumentation/instrumentation_bench.cu" || return
  local dir=$LOGS/instr-bench rc
  # shellcheck disable=SC2086
  (cd "$WORK/cwd" && env LD_LIBRARY_PATH="$(ocelot_api_path)" OCELOT_DEVICE=gpu OCELOT_LOG=info \
    CUDA_CACHE_DISABLE=1 CUDA_MODULE_LOADING=EAGER timeout -k 5 540 "$WORK/instr-bench" \
    ${GPU_BATCH_INSTR_BENCH_ARGS:-} --tsv "$OUT/instr-bench.tsv") >"$dir/stdout.txt" 2>"$dir/stderr.txt"
  rc=$?
  md "Exit status $rc; \`CUDA_CACHE_DISABLE=1 CUDA_MODULE_LOADING=EAGER OCELOT_LOG=info\`${GPU_BATCH_INSTR_BENCH_ARGS:+, arguments \`$GPU_BATCH_INSTR_BENCH_ARGS\`}; TSV in instr-bench.tsv."
  md ""
  md '```'
  # The readable tables; the TSV copy on stdout starts at its header.
  awk -F'\t' '$1 == "kernel" && $2 == "config" { exit } { print }' "$dir/stdout.txt" >>"$SUMMARY"
  tail -1 "$dir/stdout.txt" >>"$SUMMARY"
  [ "$rc" = 0 ] || { echo "--- stderr (tail)"; grep -v 'ocelot\[info\]' "$dir/stderr.txt" | tail -15; } >>"$SUMMARY"
  md '```'
  md ""
  # Figure 9: the runtime's info log has one line per module built (the application's, and an
  # instrumented one each time an instrumentor is added: the benchmark adds each once per kernel).
  md "Pipeline next to the driver's JIT (from \`OCELOT_LOG=info\`): the application's module (parse + emit, then the device load) and the instrumented modules (parse, analyze, passes, emit, then their JIT); mean over the builds:"
  md ""
  md "| module | builds | Ocelot ms | driver load/JIT ms | share |"
  md "|---|---:|---:|---:|---:|"
  sed -nE "s/.*: loaded Ocelot's module on .* \(pipeline ([0-9.]+) ms, device load ([0-9.]+) ms\).*/application\t\1\t\2/p; s/.*instrumentation: .* instrumented for ([^ ]+) in ([0-9.]+) ms, JIT ([0-9.]+) ms.*/\1\t\2\t\3/p" \
    "$dir/stderr.txt" |
    awk -F'\t' '!($1 in n) { order[++k] = $1 } { ++n[$1]; ours[$1] += $2; jit[$1] += $3 }
      END { for (i = 1; i <= k; ++i) { m = order[i]
              printf "| %s | %d | %.2f | %.2f | %.1f%% |\n", m, n[m], ours[m] / n[m], jit[m] / n[m],
                     (jit[m] > 0 ? 100 * ours[m] / jit[m] : 0) } }' >>"$SUMMARY"
  md ""
  # The occupancy guard's decisions: kernels whose instrumented code got a register cap.
  md "Register caps (\`.maxnreg\`) the occupancy guard gave instrumented kernels:"
  md ""
  md '```'
  grep -E 'instrumentation: .*registers capped' "$dir/stderr.txt" | sed -E 's/.*instrumentation: //' |
    sort | uniq -c >>"$SUMMARY" || echo "(none)" >>"$SUMMARY"
  md '```'
  md ""
  say "gpu-batch: instr-bench: rc=$rc $(tail -1 "$dir/stdout.txt")"
}

# scheduler: the credit-based scheduler's windows, unscheduled then scheduled.
section_scheduler() {
  md "## Online credit-based scheduler (the paper's Experiment 4)"
  md ""
  ocelot_api_build scheduler "$ROOT/tools/online/credit_scheduler.cu" || return
  local dir=$LOGS/scheduler rc
  # shellcheck disable=SC2086
  (cd "$WORK/cwd" && env LD_LIBRARY_PATH="$(ocelot_api_path)" OCELOT_DEVICE=gpu timeout -k 5 300 \
    "$WORK/scheduler" ${GPU_BATCH_SCHEDULER_ARGS:-} --tsv "$OUT/scheduler.tsv") \
    >"$dir/stdout.txt" 2>"$dir/stderr.txt"
  rc=$?
  md "Exit status $rc${GPU_BATCH_SCHEDULER_ARGS:+, arguments \`$GPU_BATCH_SCHEDULER_ARGS\`}; per-window TSV in scheduler.tsv."
  md ""
  md '```'
  cat "$dir/stdout.txt" >>"$SUMMARY"
  [ "$rc" = 0 ] || { echo "--- stderr (tail)"; tail -15 "$dir/stderr.txt"; } >>"$SUMMARY"
  md '```'
  md ""
  say "gpu-batch: scheduler: rc=$rc $(tail -1 "$dir/stdout.txt")"
}

# ---------------------------------------------------------------------------------------------
# probe_tool NAME: $PROBE_TOOL = the probe tool libocelot-NAME.so of examples/probes/NAME (or
# tests/probes/tools/NAME.cu): the prebuilt one in <build>/tests/probes, else built here with nvcc
# (probes to PTX), cmake -P (embedded) and nvcc's host compiler (the default tool, no host code).
probe_tool() {
  local name=$1 dir=$WORK/probe-tools/$1 source
  PROBE_TOOL=$BUILD/tests/probes/libocelot-$name.so
  [ -e "$PROBE_TOOL" ] && return 0
  source=$ROOT/examples/probes/$name/probes.cu
  [ -e "$source" ] || source=$ROOT/tests/probes/tools/$name.cu
  mkdir -p "$dir"
  PROBE_TOOL=$dir/libocelot-$name.so
  [ -n "$NVCC" ] && command -v cmake >/dev/null || return 1
  "$NVCC" -rdc=true -ptx -arch=compute_75 -O3 -std=c++17 -I"$ROOT" -I"$ROOT/tests/probes/tools" \
    -o "$dir/probes.ptx" "$source" >"$dir/build.log" 2>&1 || return 1
  cmake -DINPUTS="$dir/probes.ptx" -DOUTPUT="$dir/modules.cpp" -DFORMAT=modules \
    -P "$ROOT/cmake/OcelotEmbed.cmake" >>"$dir/build.log" 2>&1 || return 1
  printf '#include "ocelot/ProbeTool.h"\nstatic ocelot::ProbeToolDefinition definition() {\n  return {"%s", "probe tool %s", ocelot::embeddedProbeModules(), {}, {}};\n}\nOCELOT_PROBE_TOOL(definition)\n' \
    "$name" "$name" >"$dir/tool.cpp"
  "$NVCC" -shared -Xcompiler -fPIC -std=c++20 -I"$ROOT" "$dir/tool.cpp" "$dir/modules.cpp" \
    -o "$PROBE_TOOL" >>"$dir/build.log" 2>&1
}

# probes_bench NAME TOOLS TSV: the slowdown benchmark (built as $WORK/probes-bench) under the probe
# tools TOOLS on the GPU, its table into $OUT/TSV, its output into $LOGS/probes/NAME.std{out,err}.txt;
# returns its exit status.
probes_bench() {
  # shellcheck disable=SC2086
  (cd "$WORK/cwd" && env LD_LIBRARY_PATH="$(ocelot_api_path)" OCELOT_DEVICE=gpu timeout -k 5 540 \
    "$WORK/probes-bench" ${GPU_BATCH_INSTR_BENCH_ARGS:-} --tools "$2" --tsv "$OUT/$3") \
    >"$LOGS/probes/$1.stdout.txt" 2>"$LOGS/probes/$1.stderr.txt"
}

section_probes() {
  mkdir -p "$LOGS/probes"
  md "## Probes: exact counts and unchanged output under probe tools, and their cost"
  md ""
  local ocelot bindir checker=$ROOT/tests/probes/check_probe_tools.py
  ocelot_e2e_ready || return
  local empty probecount oracle bad
  probe_tool emptyprobe && empty=$PROBE_TOOL
  probe_tool probecount && probecount=$PROBE_TOOL
  probe_tool oracle && oracle=$PROBE_TOOL
  local ctaprobe=""
  probe_tool ctaclockprobe && ctaprobe=$PROBE_TOOL
  bad=$WORK/probe-tools/recursion.ptx
  mkdir -p "$WORK/probe-tools"
  [ -n "$NVCC" ] && "$NVCC" -rdc=true -ptx -arch=compute_75 -O3 -std=c++17 -I"$ROOT" -o "$bad" \
    "$ROOT/tests/probes/bad/recursion.cu" >/dev/null 2>&1 || bad=""
  if [ -z "${empty:-}" ] || [ -z "${probecount:-}" ]; then
    md "Skipped: the probe tools are neither prebuilt (\`$BUILD/tests/probes\`) nor buildable here (see logs)."
    cp -r "$WORK/probe-tools" "$LOGS/probes/" 2>/dev/null
    return
  fi
  local nvlib=""
  if find_nvidia_libdir; then nvlib=$NVIDIA_LIBDIR; fi
  local path="${nvlib:+$nvlib:}${LD_LIBRARY_PATH:-}"
  # The shipped probe tools, when built (`ocelot run -i NAME` finds them in <build>/probe-tools).
  local shipped="" shipped_paths="" tool
  for tool in memaccess branchdiv instmix warpeff memtrace; do
    [ -e "$BUILD/probe-tools/libocelot-$tool.so" ] || continue
    shipped="$shipped${shipped:+,}$tool"
    shipped_paths="$shipped_paths,$BUILD/probe-tools/libocelot-$tool.so"
    # memtrace traces every access: room for 2^20 warp records per launch, the file in $WORK
    # (at most 2 GB: later launches still trace, the host drops what passes the cap).
    [ "$tool" = memtrace ] && shipped_paths="$shipped_paths:file=$WORK/memtrace.zst:records.count=1048576:max-mb=2048"
  done
  md "Tools: \`${empty#"$ROOT"/}\`, \`${probecount#"$ROOT"/}\`${oracle:+, \`${oracle#"$ROOT"/}\`}; shipped: ${shipped:-none built}."
  md ""
  md "| program | check | seconds |"
  md "|---|---|---|"
  local name t0 t1 rc n_pass=0 n_fail=0
  for bin in "$bindir"/analytic_*; do
    [ -x "$bin" ] || continue
    name=$(basename "$bin")
    t0=$(now)
    LD_LIBRARY_PATH="$path" timeout -k 5 600 python3 "$checker" --ocelot "$ocelot" --device gpu \
      --tools "$empty,$probecount" ${oracle:+--oracle "$oracle"} ${bad:+--bad "$bad"} --analytic \
      ${shipped:+--shipped "$shipped"} "$bin" >"$LOGS/probes/$name.log" 2>&1
    rc=$?
    t1=$(now)
    if [ "$rc" = 0 ]; then n_pass=$((n_pass + 1)); else n_fail=$((n_fail + 1)); fi
    md "| $name | $(tail -1 "$LOGS/probes/$name.log" | tr '|' '/') | $(elapsed "$t0" "$t1") |"
    say "probes $name: rc=$rc $(tail -1 "$LOGS/probes/$name.log")"
  done
  md ""
  for f in "$LOGS"/probes/analytic_*.log; do
    [ -e "$f" ] || continue
    if ! tail -1 "$f" | grep -q '^ok'; then
      { echo "### $(basename "$f" .log)"; echo '```'; tail -30 "$f"; echo '```'; } >>"$SUMMARY"
    fi
  done

  # Every e2e program: same output under the empty probe; probecount's counts equal bbcount's.
  local ok=0 failed=0 skipped=0 list=""
  for bin in "$bindir"/*; do
    [ -x "$bin" ] || continue
    name=$(basename "$bin")
    case "$name" in analytic_*) continue ;; esac
    if [ -n "$PROGRAM_FILTER" ] && ! [[ $name =~ $PROGRAM_FILTER ]]; then continue; fi
    (cd "$WORK/cwd" && LD_LIBRARY_PATH="$path" timeout -k 5 $((4 * TIMEOUT_S)) python3 "$checker" \
      --ocelot "$ocelot" --device gpu --tools "$empty,$probecount" --timeout "$TIMEOUT_S" \
      ${shipped:+--shipped "$shipped"} "$bin" >"$LOGS/probes/e2e.$name.log" 2>&1)
    rc=$?
    if [ "$rc" = 0 ]; then ok=$((ok + 1));
    elif [ "$rc" = 77 ]; then skipped=$((skipped + 1));
    else failed=$((failed + 1)); list="$list $name"; fi
  done
  md "Every e2e program under the empty probe, under bbcount+probecount${shipped:+ and under $shipped}: ok $ok, failed $failed, skipped $skipped.${list:+ Failed:$list}"
  md ""
  for f in "$LOGS"/probes/e2e.*.log; do
    [ -e "$f" ] || continue
    if grep -q '^FAIL' "$f"; then
      { echo "### $(basename "$f" .log)"; echo '```'; tail -15 "$f"; echo '```'; } >>"$SUMMARY"
    fi
  done

  # The cost: the slowdown benchmark's kernels plain, under bbcount and under the probe tools.
  ocelot_api_build probes-bench "$ROOT/tests/benchmarks/instrumentation/instrumentation_bench.cu" || return
  local dir=$LOGS/probes
  probes_bench bench "$empty,$probecount${ctaprobe:+,$ctaprobe}$shipped_paths" probes-bench.tsv
  rc=$?
  md "Slowdown benchmark with \`--tools emptyprobe,probecount${ctaprobe:+,ctaclockprobe}${shipped:+,$shipped}\` (exit status $rc; TSV in probes-bench.tsv):"
  md ""
  md '```'
  awk -F'\t' '$1 == "kernel" && $2 == "config" { exit } { print }' "$dir/bench.stdout.txt" >>"$SUMMARY"
  tail -1 "$dir/bench.stdout.txt" >>"$SUMMARY"
  [ "$rc" = 0 ] || { echo "--- stderr (tail)"; tail -15 "$dir/bench.stderr.txt"; } >>"$SUMMARY"
  md '```'
  md ""

  # The same tools with every counter update atomic (loop-registers=off: docs/probes.md, "Counters
  # in loops"), on the same GPU right after: what keeping loop counters in registers gains.
  local atomic_paths="" rc_atomic=skipped
  for tool in branchdiv instmix memaccess warpeff; do
    [ -e "$BUILD/probe-tools/libocelot-$tool.so" ] &&
      atomic_paths="$atomic_paths${atomic_paths:+,}$BUILD/probe-tools/libocelot-$tool.so:loop-registers=off"
  done
  if [ -n "$atomic_paths" ]; then
    probes_bench bench-atomic "$atomic_paths" probes-bench-atomic.tsv
    rc_atomic=$?
    md "The same shipped tools with \`loop-registers=off\` (every counter update atomic; exit status $rc_atomic; TSV in probes-bench-atomic.tsv):"
    md ""
    md '```'
    awk -F'\t' '$1 == "kernel" && $2 == "config" { exit } { print }' "$dir/bench-atomic.stdout.txt" | sed -n '/^config  *geomean/,$p' >>"$SUMMARY"
    tail -1 "$dir/bench-atomic.stdout.txt" >>"$SUMMARY"
    [ "$rc_atomic" = 0 ] || { echo "--- stderr (tail)"; tail -15 "$dir/bench-atomic.stderr.txt"; } >>"$SUMMARY"
    md '```'
    md ""
  fi
  say "gpu-batch: probes: analytic ok $n_pass failed $n_fail; e2e ok $ok failed $failed skipped $skipped; bench rc=$rc, atomic rc=$rc_atomic"
}

# cpu-bench: the CPU back end's throughput (1 and 2 workers) next to the same PTX on the GPU.
section_cpu-bench() {
  md "## CPU back end vs GPU (ocelot_cpu_bench)"
  md ""
  local bench=$BUILD/tests/cpu/ocelot_cpu_bench
  if [ ! -x "$bench" ]; then
    md "\`${bench#"$ROOT"/}\` not built: skipped."
    return
  fi
  mkdir -p "$LOGS/cpu-bench"
  local nvlib=""
  if find_nvidia_libdir; then nvlib=$NVIDIA_LIBDIR; fi
  (cd "$WORK/cwd" && env LD_LIBRARY_PATH="${nvlib}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    timeout -k 5 300 "$bench" 1 2) >"$LOGS/cpu-bench/stdout.txt" 2>"$LOGS/cpu-bench/stderr.txt"
  local rc=$?
  md "Exit status $rc; host CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')."
  md ""
  md '```'
  cat "$LOGS/cpu-bench/stdout.txt" >>"$SUMMARY"
  [ "$rc" = 0 ] || tail -5 "$LOGS/cpu-bench/stderr.txt" >>"$SUMMARY"
  md '```'
  md ""
  say "gpu-batch: cpu-bench: rc=$rc"
}

# static-runtime: `ocelot run` on a program linked with NVIDIA's static runtime and on the same
# program built with -cudart shared.
section_static-runtime() {
  md "## \`ocelot run\` and NVIDIA's static runtime"
  md ""
  local dir=$LOGS/static-runtime ocelot=$BUILD/tools/ocelot
  mkdir -p "$dir"
  if [ -z "$NVCC" ] || [ ! -x "$ocelot" ]; then
    md "nvcc or \`${ocelot#"$ROOT"/}\` missing: skipped."
    return
  fi
  local source=$ROOT/tests/tools/tiny_kernel.cu kind rc
  "$NVCC" -arch=native "$source" -o "$WORK/tiny_static" >"$dir/build.txt" 2>&1 &&
    "$NVCC" -arch=native -cudart shared "$source" -o "$WORK/tiny_shared" >>"$dir/build.txt" 2>&1 ||
    { md "nvcc failed: $(tail -3 "$dir/build.txt")"; return; }
  md "| build | exit | warned | profile written |"
  md "|---|---:|---|---|"
  for kind in static static-allowed shared; do
    local program=$WORK/tiny_${kind%-allowed} flags=()
    [ "$kind" = static-allowed ] && flags=(--allow-static-runtime)
    (cd "$WORK/cwd" && timeout -k 5 120 "$ocelot" run -i bbcount -o "$WORK/$kind.json" \
      "${flags[@]}" -- "$program") >"$dir/$kind.stdout" 2>"$dir/$kind.stderr"
    rc=$?
    local warned=no written=no
    grep -q "static CUDA runtime" "$dir/$kind.stderr" && warned=yes
    [ -s "$WORK/$kind.json" ] && written=yes
    md "| $kind | $rc | $warned | $written |"
  done
  md ""
  md "Expected: static exits 3 (not run), warned yes, no profile; static-allowed"
  md "(--allow-static-runtime) exits 0, warned yes, no profile (Ocelot never sees it); shared"
  md "exits 0, warned no, profile written."
  md ""
  say "gpu-batch: static-runtime done"
}

# sweep: the GPU's results of the instruction sweep, the references of tests/cpu/CpuSweepTest.cpp.
section_sweep() {
  md "## Instruction sweep (tests/cpu/sweep)"
  md ""
  local dir=$LOGS/sweep tables=$WORK/sweep rc
  mkdir -p "$dir" "$tables"
  if [ -z "$NVCC" ]; then
    md "nvcc not found: skipped."
    return
  fi
  "$NVCC" -std=c++17 -O2 -arch=sm_90 -o "$WORK/instruction_sweep" \
    "$ROOT/tests/cpu/sweep/instruction_sweep.cu" >"$dir/build.txt" 2>&1
  rc=$?
  if [ "$rc" != 0 ]; then
    md "Build failed (exit $rc):"
    md '```'
    tail -20 "$dir/build.txt" >>"$SUMMARY"
    md '```'
    return
  fi
  (cd "$WORK/cwd" && timeout -k 5 300 "$WORK/instruction_sweep" "$tables") >"$dir/stdout.txt" \
    2>"$dir/stderr.txt"
  rc=$?
  local compressed=no
  if command -v zstd >/dev/null 2>&1; then
    for f in "$tables"/sweep-*.bin; do
      [ -e "$f" ] || continue
      zstd -q -19 -f "$f" -o "$f.zst" && rm -f "$f"
    done
    compressed=yes
  fi
  tar -C "$tables" -cf "$OUT/sweep-reference.tar" . 2>>"$dir/stderr.txt"
  local hint=""
  [ "$compressed" = yes ] || hint=", then \`zstd -19\` each .bin into .bin.zst"
  md "Exit status $rc; GPU $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1); tables in sweep-reference.tar. Refresh the references with \`tar -xf sweep-reference.tar -C tests/cpu/reference\`$hint."
  md ""
  md '```'
  cat "$dir/stdout.txt" >>"$SUMMARY"
  [ "$rc" = 0 ] || tail -5 "$dir/stderr.txt" >>"$SUMMARY"
  md '```'
  md ""
  say "gpu-batch: sweep: rc=$rc"
}

# report: the main job on the GPU, then what `ocelot report` makes of its profile.
section_report() {
  md "## The main job and its report (scripts/main-job.sh, ocelot report)"
  md ""
  mkdir -p "$LOGS/report"
  (cd "$WORK/cwd" && env OCELOT_BUILD_DIR="$BUILD" OCELOT_MAIN_JOB_DEVICE=gpu timeout -k 5 300 \
    "$ROOT/scripts/main-job.sh") >"$LOGS/report/stdout.txt" 2>"$LOGS/report/stderr.txt"
  local rc=$? work=$BUILD/main-job
  md "Exit status $rc."
  md ""
  md '```'
  tail -40 "$LOGS/report/stderr.txt" >>"$SUMMARY"
  tail -8 "$LOGS/report/stdout.txt" >>"$SUMMARY"
  if [ -f "$work/profile.json" ]; then
    # The CFG once per module, every CTA on an SM below the device's count, more than the CPU
    # device's 2 SMs.
    python3 - "$work/profile.json" "$ROOT/tests/support" >>"$SUMMARY" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
profiles = d["profiles"]
cfgs = sum(1 for p in profiles if "cfg" in p["results"].get("bbcount", {}))
sms = max(len(p["results"].get("ctaclock", {}).get("sms", [])) for p in profiles)
complete = all(p["results"].get("ctaclock", {}).get("complete", False) for p in profiles)
print("profile: %d launches, CFG written %d time(s), %d SMs, ctaclock complete: %s" %
      (len(profiles), cfgs, sms, complete))
try:
    sys.path.insert(0, sys.argv[2])
    import profile_schema
    profile_schema.validate_file(sys.argv[1])
    print("profile: valid against docs/profile.schema.json")
except ImportError:
    print("profile: schema not checked (no python3-jsonschema here)")
except Exception as e:
    print("profile: SCHEMA ERROR %s" % e)
PY
    cp "$work/profile.json" "$LOGS/report/" 2>/dev/null
    cp -r "$work/trace.json" "$work/tau" "$LOGS/report/" 2>/dev/null
  fi
  md '```'
  [ -f "$work/report.html" ] && cp "$work/report.html" "$OUT/report.html" && md "The report: report.html."
  md ""
  say "gpu-batch: report: rc=$rc"
}

# ---------------------------------------------------------------------------------------------
section_host-measures() {
  mkdir -p "$LOGS/host-measures"
  md "## Host-side measures (issue 16): launch-site call paths on the GPU"
  md ""
  local ocelot=$BUILD/tools/ocelot bindir=$BUILD/tests/e2e/bin
  bindir=$(e2e_bindir)
  if [ ! -x "$ocelot" ] || [ ! -x "$bindir/launch_sites" ]; then
    md "Skipped: \`$ocelot\` or \`$bindir/launch_sites\` is not built."
    return
  fi
  local rc=0
  md '```'
  python3 "$ROOT/tests/tools/check_report.py" callpaths --device gpu --ocelot "$ocelot" \
    --program "$bindir/launch_sites" --work "$LOGS/host-measures" >>"$SUMMARY" 2>&1 || rc=$?
  md '```'
  md "callpaths: rc=$rc (0: two call paths, prepare_weights 1 launch, apply_weights 2; none with --no-call-stacks)"
  local check
  for check in hostlanes nvtx; do
    if [ ! -x "$bindir/host_lanes" ]; then
      md "$check: skipped, \`$bindir/host_lanes\` is not built."
      continue
    fi
    local crc=0
    md '```'
    python3 "$ROOT/tests/tools/check_report.py" "$check" --device gpu --ocelot "$ocelot" \
      --program "$bindir/host_lanes" --work "$LOGS/host-measures" >>"$SUMMARY" 2>&1 || crc=$?
    md '```'
    md "$check: rc=$crc (0: as on the CPU device in CI, CTest report.$check)"
    [ "$crc" = 0 ] || rc=$crc
  done
  md ""
  say "gpu-batch: host-measures: rc=$rc"
}

# ---------------------------------------------------------------------------------------------
# driver-api: modules loaded through the driver API (issue 15), through Ocelot's libcuda.so.1.
section_driver-api() {
  local dir=$LOGS/driver-api
  # ocelot run puts the shim in front by default, on a GPU too (docs/driver-api.md); said here
  # anyway so that a caller's OCELOT_DRIVER_API=0 does not turn this section into another one.
  local OCELOT_DRIVER_API=1
  export OCELOT_DRIVER_API
  mkdir -p "$dir"
  md "## Driver API (issue 15): NVRTC, CuPy, Numba, Triton and PyTorch through Ocelot's libcuda.so.1"
  md ""
  local ocelot=$BUILD/tools/ocelot py=$ROOT/tests/driverapi/python
  local checker=$ROOT/tests/instrumentors/check_analytic_counts.py
  ocelot_built "$ocelot" || return
  if [ ! -e "$BUILD/runtime/driverapi/libcuda.so.1" ]; then
    md "Skipped: Ocelot's libcuda.so.1 (\`$BUILD/runtime/driverapi\`) is not built."
    return
  fi
  local nvlib=""
  if find_nvidia_libdir; then nvlib=$NVIDIA_LIBDIR; fi
  export CUPY_CACHE_DIR=$WORK/cupy-cache TRITON_CACHE_DIR=$WORK/triton-cache
  export NUMBA_CACHE_DIR=$WORK/numba-cache
  local ldpath="${nvlib:+$nvlib:}${LD_LIBRARY_PATH:-}"

  # 1. Exact counts: the checker runs each program under ocelot run plain, bbcount (both modes)
  #    and ctaclock; here it is also compared with its run without Ocelot.
  md "| analytic program | without Ocelot | check_analytic_counts.py (ocelot run, GPU) | seconds |"
  md "|---|---|---|---|"
  local name prog rc t0 t1 plain extra
  for entry in "driverapi_nvrtc:$BUILD/tests/driverapi/driverapi_nvrtc:" \
               "driverapi_nvjitlink:$BUILD/tests/driverapi/driverapi_nvjitlink:" \
               "cupy_rawkernel(PTX):$py/cupy_rawkernel.py:CUPY_COMPILE_WITH_PTX=1" \
               "numba_kernel:$py/numba_kernel.py:"; do
    IFS=: read -r name prog extra <<<"$entry"
    if [ ! -x "$prog" ]; then md "| $name | not built | - | - |"; continue; fi
    local tag=${name//[()]/_}
    (cd "$WORK/cwd" && env $extra LD_LIBRARY_PATH="$ldpath" timeout -k 5 300 "$prog" \
      >"$dir/$tag.nvidia.stdout" 2>"$dir/$tag.nvidia.stderr")
    rc=$?
    plain="exit $rc"
    [ "$rc" = 77 ] && plain="skip: $(head -1 "$dir/$tag.nvidia.stdout")"
    t0=$(now)
    (cd "$WORK/cwd" && env $extra LD_LIBRARY_PATH="$ldpath" timeout -k 5 900 python3 "$checker" \
      --ocelot "$ocelot" --keep "$dir/$tag.profiles" "$prog" >"$dir/$tag.check.log" 2>&1)
    t1=$(now)
    # Same stdout as without Ocelot (the checker compares Ocelot's runs among themselves).
    local ocelot_out=$dir/$tag.ocelot.stdout
    (cd "$WORK/cwd" && env $extra LD_LIBRARY_PATH="$ldpath" timeout -k 5 300 "$ocelot" run \
      --summary off -- "$prog" >"$ocelot_out" 2>"$dir/$tag.ocelot.stderr")
    if cmp -s "$dir/$tag.nvidia.stdout" "$ocelot_out"; then plain="$plain, same stdout under Ocelot"
    else plain="$plain, **stdout differs under Ocelot**"; fi
    md "| $name | $plain | $(tail -1 "$dir/$tag.check.log" | tr '|' '/') | $(elapsed "$t0" "$t1") |"
    say "driver-api $name: $(tail -1 "$dir/$tag.check.log")"
  done
  md ""
  for f in "$dir"/*.check.log; do
    [ -e "$f" ] || continue
    if ! tail -1 "$f" | grep -q '^PASS'; then
      { echo "### $(basename "$f" .check.log)"; echo '```'; tail -30 "$f"; echo '```'; } >>"$SUMMARY"
    fi
  done

  # The launch overhead with and without the shim (issue 15's bar: <= 1.02x uninstrumented),
  # alternately twice each, best of each.
  local bench=$BUILD/tests/driverapi/driverapi_launch_bench kernels=$ROOT/tests/driverapi/kernels.ptx
  if [ -x "$bench" ]; then
    local i
    for i in 1 2; do
      (cd "$WORK/cwd" && LD_LIBRARY_PATH="$ldpath" timeout -k 5 120 "$bench" "$kernels" \
        >>"$dir/launch-bench.nvidia.txt" 2>&1)
      (cd "$WORK/cwd" && LD_LIBRARY_PATH="$ldpath" timeout -k 5 120 "$ocelot" run --summary off -- \
        "$bench" "$kernels" >>"$dir/launch-bench.ocelot.txt" 2>&1)
    done
    md "| driver-API launch (ns, best) | NVIDIA's driver | through Ocelot's libcuda.so.1 | ratio (bar 1.02) |"
    md "|---|---:|---:|---:|"
    local metric a b
    for metric in cuLaunchKernel_enqueue_ns cuLaunchKernel_sync_ns; do
      a=$(awk -v m=$metric '$1 == m { if (best == "" || $2 < best) best = $2 } END { print best }' "$dir/launch-bench.nvidia.txt")
      b=$(awk -v m=$metric '$1 == m { if (best == "" || $2 < best) best = $2 } END { print best }' "$dir/launch-bench.ocelot.txt")
      md "| $metric | ${a:-?} | ${b:-?} | $(awk -v a="$a" -v b="$b" 'BEGIN { if (a > 0 && b > 0) printf "%.3f", b / a; else print "?" }') |"
    done
    md ""
  fi

  # The Python online API (tools/python/ocelot.py) on a module loaded with ctypes over libcuda.
  (cd "$WORK/cwd" && PYTHONPATH="$ROOT/tools/python" LD_LIBRARY_PATH="$ldpath" timeout -k 5 300 \
    "$ocelot" run --summary off -- python3 "$py/online_api.py" "$ROOT/tests/driverapi/kernels.ptx" \
    >"$dir/online_api.stdout" 2>"$dir/online_api.stderr")
  rc=$?
  md "Python online API (\`tests/driverapi/python/online_api.py\`): exit $rc, $(tail -1 "$dir/online_api.stdout")"
  md ""

  # 2. Frameworks: plain python vs ocelot run -i bbcount: stdout, and what the summary lists.
  md "| program | without Ocelot | under \`ocelot run -i bbcount\` | summary (first lines) |"
  md "|---|---|---|---|"
  for entry in "cupy_rawkernel(cubin):$py/cupy_rawkernel.py:" \
               "triton_kernel:$py/triton_kernel.py:" \
               "triton_kernel(PTX via ptxas_keep_ptx.sh):$py/triton_kernel.py:TRITON_PTXAS_PATH=$py/ptxas_keep_ptx.sh" \
               "torch_step:$py/torch_step.py:CUBLAS_WORKSPACE_CONFIG=:4096:8"; do
    name=${entry%%:*}; entry=${entry#*:}; prog=${entry%%:*}; extra=${entry#*:}
    local tag=${name//[^A-Za-z0-9_]/_}
    (cd "$WORK/cwd" && env $extra LD_LIBRARY_PATH="$ldpath" timeout -k 5 300 python3 "$prog" \
      >"$dir/$tag.nvidia.stdout" 2>"$dir/$tag.nvidia.stderr")
    local rc_plain=$?
    (cd "$WORK/cwd" && env $extra LD_LIBRARY_PATH="$ldpath" timeout -k 5 600 "$ocelot" run \
      -i bbcount --summary "$dir/$tag.summary.txt" -o "$dir/$tag.profile.json" -- python3 "$prog" \
      >"$dir/$tag.ocelot.stdout" 2>"$dir/$tag.ocelot.stderr")
    local rc_ocelot=$?
    local verdict="exit $rc_ocelot"
    if [ "$rc_plain" = "$rc_ocelot" ] && cmp -s "$dir/$tag.nvidia.stdout" "$dir/$tag.ocelot.stdout"; then
      verdict="$verdict, same stdout"
    else
      verdict="$verdict, **differs** (plain exit $rc_plain)"
    fi
    local listed=""
    [ -e "$dir/$tag.summary.txt" ] && listed=$(head -12 "$dir/$tag.summary.txt" | tr '|\n' '/;' | cut -c1-600)
    md "| $name | exit $rc_plain | $verdict | $listed |"
    say "driver-api $name: plain $rc_plain, ocelot $rc_ocelot"
  done
  md ""
  # The shim's cost end to end on the PyTorch step (issue 15's bar: <= 1.05x uninstrumented): 200
  # timed steps after the warm-up, alternately without Ocelot and under `ocelot run` (no
  # instrumentor), best of 3 each.
  local best_plain="" best_ocelot="" ms round
  for round in 1 2 3; do
    ms=$(cd "$WORK/cwd" && env CUBLAS_WORKSPACE_CONFIG=:4096:8 TORCH_STEP_TIMING=200 \
      LD_LIBRARY_PATH="$ldpath" timeout -k 5 300 python3 "$py/torch_step.py" 2>&1 >/dev/null \
      | sed -n 's/^torch_step: 200 steps in \([0-9.]*\) ms$/\1/p')
    [ -n "$ms" ] && best_plain=$(python3 -c "print(min(float('$ms'), float('${best_plain:-1e30}')))")
    ms=$(cd "$WORK/cwd" && env CUBLAS_WORKSPACE_CONFIG=:4096:8 TORCH_STEP_TIMING=200 \
      LD_LIBRARY_PATH="$ldpath" timeout -k 5 300 "$ocelot" run --summary off -- \
      python3 "$py/torch_step.py" 2>&1 >/dev/null \
      | sed -n 's/^torch_step: 200 steps in \([0-9.]*\) ms$/\1/p')
    [ -n "$ms" ] && best_ocelot=$(python3 -c "print(min(float('$ms'), float('${best_ocelot:-1e30}')))")
  done
  if [ -n "$best_plain" ] && [ -n "$best_ocelot" ]; then
    md "PyTorch step, 200 steps (best of 3, ms): without Ocelot $best_plain, under \`ocelot run\` $best_ocelot, ratio $(python3 -c "print('%.3f' % ($best_ocelot / $best_plain))") (bar 1.05)"
    say "driver-api torch step: $best_plain ms vs $best_ocelot ms"
  else
    md "PyTorch step timing: no result (torch_step.py did not print its time)"
  fi
  md ""
  # A probe tool in a process whose libcudart.so.13 is NVIDIA's (PyTorch imported first, so the
  # shim loads Ocelot's runtime by path): the tool must load (docs/driver-api.md) and instrument
  # Triton's PTX kernel.
  local tag=triton_instmix
  (cd "$WORK/cwd" && env TRITON_PTXAS_PATH="$py/ptxas_keep_ptx.sh" LD_LIBRARY_PATH="$ldpath" \
    timeout -k 5 600 "$ocelot" run -i instmix --summary "$dir/$tag.summary.txt" \
    -o "$dir/$tag.profile.json" -- python3 "$py/triton_kernel.py" \
    >"$dir/$tag.ocelot.stdout" 2>"$dir/$tag.ocelot.stderr")
  local rc_tool=$? loaded=yes
  grep -q "cannot load plugin" "$dir/$tag.ocelot.stderr" && loaded="**no** (cannot load plugin)"
  grep -q '"instmix"' "$dir/$tag.profile.json" 2>/dev/null || loaded="$loaded; no instmix result"
  md "Triton's PTX kernel under \`ocelot run -i instmix\` (a probe tool in the runtime the shim loads by path): exit $rc_tool, tool loaded and instrumenting: $loaded"
  say "driver-api triton under instmix: exit $rc_tool, loaded: $loaded"
  md ""
  md "Under Ocelot, stderr lines naming the driver API (first 40, all programs):"
  md '```'
  grep -h "libcuda\|driver API\|cuModule\|cuLaunch\|cuLibrary\|outside Ocelot" "$dir"/*.ocelot.stderr 2>/dev/null \
    | sort | uniq -c | sort -rn | head -40 >>"$SUMMARY"
  md '```'
  md ""
}

# ---------------------------------------------------------------------------------------------
# Issue 16 on a 2-GPU machine (run kind=nvidia-h100-x2): every GPU instrumented, exact counts.
section_multi-gpu() {
  mkdir -p "$LOGS/multi-gpu"
  md "## Several GPUs (issue 16): tests/e2e/programs/multi_gpu.cu"
  md ""
  local ocelot=$BUILD/tools/ocelot bindir
  bindir=$(e2e_bindir)
  if [ ! -x "$ocelot" ] || [ ! -x "$bindir/multi_gpu" ]; then
    md "Skipped: \`$ocelot\` or \`$bindir/multi_gpu\` is not built."
    return
  fi
  local gpus
  gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
  md "GPUs: ${gpus:-0}."
  local rc=0
  md '```'
  python3 "$ROOT/tests/tools/check_report.py" multigpu --device gpu --ocelot "$ocelot" \
    --program "$bindir/multi_gpu" --work "$LOGS/multi-gpu" >>"$SUMMARY" 2>&1 || rc=$?
  md '```'
  md "multigpu: rc=$rc (0: both devices instrumented with exact counts and GCP/GLB across them; 77: fewer than 2 GPUs)"
  md ""
  say "gpu-batch: multi-gpu: rc=$rc"

  # Two ranks on two GPUs: tests/tools/rank_devices.cu, one process per device, started by mpirun
  # when the machine has one, else as two processes with Open MPI's rank variables set; per-rank
  # profiles on their own device, merged into one report (CI: report.rank_devices_cpu).
  local ranks_rc=0 program=$LOGS/multi-gpu/rank_devices
  if [ -z "$NVCC" ]; then
    md "rankdevices: skipped (no nvcc)"
    return
  fi
  if ! "$NVCC" -O2 -std=c++17 -lineinfo --cudart=shared -gencode=arch=compute_90,code=sm_90 \
      -gencode=arch=compute_90,code=compute_90 "$ROOT/tests/tools/rank_devices.cu" -o "$program" \
      >"$LOGS/multi-gpu/rank_devices.build.log" 2>&1; then
    md "rankdevices: nvcc failed (logs/multi-gpu/rank_devices.build.log)"
    return
  fi
  md '```'
  python3 "$ROOT/tests/tools/check_report.py" rankdevices --device gpu --ocelot "$ocelot" \
    --program "$program" --work "$LOGS/multi-gpu" >>"$SUMMARY" 2>&1 || ranks_rc=$?
  md '```'
  md "rankdevices: rc=$ranks_rc (0: rank 0 on GPU 0 and rank 1 on GPU 1, both instrumented, merged report; 77: fewer than 2 GPUs)"
  md ""
  say "gpu-batch: multi-gpu rankdevices: rc=$ranks_rc"
}

# ---------------------------------------------------------------------------------------------
find_nvcc || true
{
  echo "# Ocelot GPU batch"
  echo ""
  echo "Started $(date -u '+%Y-%m-%d %H:%M:%S UTC') on $(hostname); commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$ROOT" diff --quiet 2>/dev/null || echo ' (with local changes)'); sections: ${ONLY:-all}."
  echo ""
} >"$SUMMARY"

for s in "${SECTIONS[@]}"; do
  if section_wanted "$s"; then
    say "== gpu-batch section: $s"
    "section_$s"
  fi
done
md "Finished after $(( $(date +%s) - BATCH_START )) s."
say "gpu-batch: done in $(( $(date +%s) - BATCH_START )) s; results in $OUT (summary.md, results.tsv, logs.tar.gz)"
