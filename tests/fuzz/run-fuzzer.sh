#!/usr/bin/env bash
# Builds the PTX parser fuzzer with clang (libFuzzer + ASan + UBSan) in its own build folder and
# runs it for a bounded time. Used by CTest; also handy by hand:
#   tests/fuzz/run-fuzzer.sh SOURCE_DIR BUILD_DIR [SECONDS]
# A crash leaves its input in BUILD_DIR/fuzz-artifacts: add it to tests/fuzz/regressions/.
set -euo pipefail
source_dir=$1
build_dir=$2
seconds=${3:-${OCELOT_FUZZ_SECONDS:-60}}
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
corpus="$build_dir/fuzz-corpus"
artifacts="$build_dir/fuzz-artifacts"
mkdir -p "$corpus" "$artifacts"
seeds=("$source_dir/tests/ir/data" "$source_dir/tests/ir/malformed" "$source_dir/tests/fuzz/regressions")
fuzzer=$(find "$build_dir" -name ptx_parser_fuzzer -type f -perm -u+x | head -n1)
echo "fuzzing the PTX parser for ${seconds}s"
"$fuzzer" "$corpus" "${seeds[@]}" -max_total_time="$seconds" -max_len=65536 -timeout=10 \
  -rss_limit_mb=2048 -artifact_prefix="$artifacts/" -print_final_stats=1 2>&1 | tail -n 25
