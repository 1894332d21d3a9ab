#!/usr/bin/env bash
# A ptxas for TRITON_PTXAS_PATH: runs the real ptxas (so that Triton sees its usual output and
# errors), then replaces the cubin it wrote with the PTX it was given. Triton loads that file with
# cuModuleLoadData; under `ocelot run` Ocelot's libcuda.so.1 receives PTX and can instrument it.
#   OCELOT_REAL_PTXAS  the real ptxas (default: ptxas next to nvcc, /usr/local/cuda/bin/ptxas)
real=${OCELOT_REAL_PTXAS:-/usr/local/cuda/bin/ptxas}
"$real" "$@" || exit $?
input="" output=""
while [ $# -gt 0 ]; do
  case "$1" in
    -o) output=$2; shift 2 ;;
    --output-file) output=$2; shift 2 ;;
    *.ptx) input=$1; shift ;;
    *) shift ;;
  esac
done
if [ -n "$input" ] && [ -n "$output" ] && [ -f "$output" ]; then
  # The driver needs the text NUL-terminated when it is handed over in memory.
  { cat "$input"; printf '\0'; } >"$output"
fi
