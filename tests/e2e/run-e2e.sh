#!/usr/bin/env bash
# CTest wrapper for one end-to-end CUDA program: run-e2e.sh PROGRAM [ARGS...]
# Without a GPU it prints "SKIP: no GPU" and exits 77 (the tests' SKIP_RETURN_CODE), unless
# OCELOT_E2E_FORCE=1 (for example to try Ocelot's CPU back end). With OCELOT_E2E_RUNTIME_DIR set,
# that directory is put first on LD_LIBRARY_PATH, so its libcudart.so.13 (Ocelot's) is the one loaded.
set -u
if [ "${OCELOT_E2E_FORCE:-0}" != 1 ]; then
  if [ ! -e /dev/nvidia0 ] && ! nvidia-smi -L >/dev/null 2>&1; then
    echo "SKIP: no GPU"
    exit 77
  fi
fi
if [ -n "${OCELOT_E2E_RUNTIME_DIR:-}" ]; then
  export LD_LIBRARY_PATH="${OCELOT_E2E_RUNTIME_DIR}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
exec "$@"
