#!/usr/bin/env bash
# Installs the Debian packages Ocelot needs. Idempotent.
#   setup-debian.sh              everything: the build, the tests, benchmarks, fuzzers, the report
#                                checks (what the README's test command and CI need)
#   setup-debian.sh --main-job   only what the README's main job needs: the compiler, CMake, the
#                                libraries of the `ocelot` tool and of libcudart.so.13
# The CUDA 13 toolkit (nvcc, ptxas, headers) is expected under /usr/local/cuda; it is not a
# Debian package, so this script only checks for it.
set -euo pipefail
mode=all
case "${1:-}" in
  --main-job) mode=main-job ;;
  "" | --all) ;;
  *) echo "usage: $0 [--main-job]" >&2; exit 2 ;;
esac
# The main job: configure and build `ocelot` and libcudart.so.13, run the demo, write the report.
packages=(
  build-essential cmake ninja-build pkg-config python3
  flex bison
  libboost-program-options-dev
  libzstd-dev liblz4-dev
  nlohmann-json3-dev
)
if [ "$mode" = all ]; then
  packages+=(
    git ccache
    googletest libgtest-dev libgmock-dev libbenchmark-dev
    clang llvm-dev llvm-19-dev libclang-rt-dev clang-format
    zstd lz4 binutils
    python3-jsonschema           # profile and trace schema checks
    openmpi-bin libopenmpi-dev   # the 2-rank MPI report test
    chromium                     # the HTML report in a real browser
  )
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update
  $sudo apt-get install -y --no-install-recommends "${missing[@]}"
fi
if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "setup: the CUDA 13 toolkit was not found (expected /usr/local/cuda/bin/nvcc)." >&2
  echo "setup: Ocelot builds without it, but the main job, the PTX corpus and the end-to-end" >&2
  echo "setup: programs need nvcc." >&2
fi
echo "setup: all Debian packages for '$mode' present"
