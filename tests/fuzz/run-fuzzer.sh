#!/usr/bin/env bash
# Builds the PTX parser fuzzer with clang (libFuzzer + ASan + UBSan) in its own build folder and
# runs it. Used by CTest; also handy by hand:
#   tests/fuzz/run-fuzzer.sh SOURCE_DIR BUILD_DIR [SECONDS]   fuzz for SECONDS (default 60)
#   tests/fuzz/run-fuzzer.sh SOURCE_DIR BUILD_DIR --runs N    N inputs from seed 1, starting from
#       the seed inputs only (a fresh corpus): the same inputs on every run and machine (CTest);
#       OCELOT_FUZZ_SECONDS, when set, makes it a time-bounded run instead (long runs via CTest)
#   tests/fuzz/run-fuzzer.sh SOURCE_DIR BUILD_DIR --build     only configure and build the fuzzer
# A time-bounded run keeps growing BUILD_DIR/fuzz-corpus between runs. A crash leaves its input in
# BUILD_DIR/fuzz-artifacts: add it to tests/fuzz/regressions/.
set -euo pipefail
source_dir=$1
build_dir=$2
mode=seconds
seconds=${OCELOT_FUZZ_SECONDS:-60}
runs=0
case "${3:-}" in
  --build) mode=build ;;
  --runs)
    runs=${4:?--runs needs a count}
    [ -n "${OCELOT_FUZZ_SECONDS:-}" ] || mode=runs
    ;;
  "") ;;
  *) seconds=$3 ;;
esac
if ! command -v clang++ >/dev/null 2>&1; then
  echo "SKIP: clang++ not found (the fuzzer needs clang's -fsanitize=fuzzer)"
  exit 77
fi
generator=()
command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
if [ ! -f "$build_dir/CMakeCache.txt" ]; then
  CC=clang CXX=clang++ cmake -S "$source_dir" -B "$build_dir" "${generator[@]}" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOCELOT_FUZZ=ON -DOCELOT_BUILD_BENCHMARKS=OFF >/dev/null
fi
cmake --build "$build_dir" --target ptx_parser_fuzzer -j "$(nproc)" >/dev/null
[ "$mode" = build ] && exit 0
artifacts="$build_dir/fuzz-artifacts"
seeds=("$source_dir/tests/ir/data" "$source_dir/tests/ir/malformed" "$source_dir/tests/fuzz/regressions")
fuzzer=$(find "$build_dir" -name ptx_parser_fuzzer -type f -perm -u+x | head -n1)
if [ "$mode" = runs ]; then
  # New inputs go to an emptied folder, so earlier runs' finds do not change what this one runs.
  corpus="$build_dir/fuzz-corpus-runs"
  rm -rf "$corpus"
  bound=(-runs="$runs" -seed=1)
  echo "fuzzing the PTX parser: $runs inputs from seed 1"
else
  corpus="$build_dir/fuzz-corpus"
  bound=(-max_total_time="$seconds")
  echo "fuzzing the PTX parser for ${seconds}s"
fi
mkdir -p "$corpus" "$artifacts"
# libFuzzer exits 77 on a crash by default, which CTest reads as "skipped" (SKIP_RETURN_CODE):
# a crash the fuzzer found passed as a skip. Crashes, timeouts and OOMs fail the test.
"$fuzzer" "$corpus" "${seeds[@]}" "${bound[@]}" -max_len=65536 -timeout=10 \
  -rss_limit_mb=2048 -error_exitcode=1 -timeout_exitcode=1 -artifact_prefix="$artifacts/" \
  -print_final_stats=1 2>&1 | tail -n 25
