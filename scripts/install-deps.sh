#!/usr/bin/env bash
# Installs what perfzero-cpp needs on Debian 12 (bookworm), from scripts/deps/packages.txt.
# usage: scripts/install-deps.sh [--build]
#   (default)  everything scripts/test.sh needs: the build set plus PoCL and the test set
#   --build    only what building perfzero, the launcher and the workers needs (scripts/quickstart.sh)
# Safe to run again: it only calls apt-get when a package is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
sets=(tools libs opencl test)
case "${1:-}" in
  --build) sets=(tools libs) ;;
  "") ;;
  *) echo "usage: scripts/install-deps.sh [--build]" >&2; exit 2 ;;
esac
# Through a variable: a failing list.sh (a malformed packages.txt) stops here under set -e.
list=$(scripts/deps/list.sh "${sets[@]}")
mapfile -t packages <<< "$list"

# Not from Debian: the CUDA toolkit (nvcc, cuBLAS, cuBLASLt, cuDNN) for perfzero-worker-cuda comes
# from NVIDIA (default location /usr/local/cuda); without it that worker is simply not built, and the
# GPU image (docker/build.sh --gpu) cannot be built. The driver's NVML is loaded at run time only.

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo > /dev/null || { echo "install-deps: run as root or install sudo" >&2; exit 1; }
  sudo=sudo
fi

# The infra runner test's local S3-compatible server; Debian packages none.
install_s3rver() {
  command -v s3rver > /dev/null && return 0
  # Debian's nodejs and npm, unless a Node.js with npm is already installed (e.g. NodeSource's).
  command -v npm > /dev/null || $sudo apt-get install -y -q --no-install-recommends nodejs npm
  echo "install-deps: installing s3rver 3.7.1 from the npm registry (infra runner test)"
  $sudo npm install -g --no-fund --no-audit s3rver@3.7.1
}

# Microsoft's local Blob Storage emulator, for the runner's Azure uploader; Debian packages none.
# 3.35.0: the last release that runs on Debian 12's Node.js 18 (3.36 wants 21, 3.37 wants 22).
install_azurite() {
  command -v azurite-blob > /dev/null && return 0
  command -v npm > /dev/null || $sudo apt-get install -y -q --no-install-recommends nodejs npm
  echo "install-deps: installing azurite 3.35.0 from the npm registry (infra runner test, Azure)"
  $sudo npm install -g --no-fund --no-audit azurite@3.35.0
}

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2> /dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present (sets: ${sets[*]})"
else
  echo "install-deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -q
  $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
if [[ " ${sets[*]} " == *" test "* ]]; then
  install_s3rver
  install_azurite
fi
