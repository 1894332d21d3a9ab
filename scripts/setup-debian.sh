#!/usr/bin/env bash
# Installs every Debian package Ocelot's build, tests and benchmarks need. Idempotent.
# The CUDA 13 toolkit (nvcc, ptxas, headers) is expected under /usr/local/cuda; it is not a
# Debian package, so this script only checks for it.
set -euo pipefail
packages=(
  build-essential cmake ninja-build pkg-config git python3
  flex bison
  libboost-program-options-dev
  libzstd-dev liblz4-dev
  googletest libgtest-dev libgmock-dev libbenchmark-dev
  clang llvm-dev libclang-rt-dev clang-format
  llvm-19-dev
  zstd lz4 binutils
)
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
  echo "setup: Ocelot builds without it, but the PTX corpus and end-to-end programs need nvcc." >&2
fi
echo "setup: all Debian packages present"
