#!/usr/bin/env bash
# Installs what perfzero-cpp needs on Debian 12 (bookworm), from scripts/deps/packages.txt.
# usage: scripts/install-deps.sh [--build]
#   (default)  everything scripts/test.sh needs: the build set plus PoCL and the test set, and the
#              test set's PyPI packages in the virtual environment build/venv (PERFZERO_VENV)
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
# The test set's Python tools from PyPI (scripts/deps/requirements.txt: the cloud stand-ins), in a
# virtual environment of the checkout's own (docs/testing.md), never in Debian's Python. Made again
# when the requirements change; pip's own cache may be empty (CI's is).
if [[ " ${sets[*]} " == *" test "* ]]; then
  venv=${PERFZERO_VENV:-$PWD/build/venv}
  requirements=scripts/deps/requirements.txt
  stamp=$(sha256sum "$requirements" | cut -d' ' -f1)
  if [ "$(cat "$venv/.requirements.sha256" 2> /dev/null)" != "$stamp" ]; then
    echo "install-deps: making $venv from $requirements (PyPI)"
    rm -rf "$venv"
    /usr/bin/python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check --no-input -r "$requirements"
    echo "$stamp" > "$venv/.requirements.sha256"
  else
    echo "install-deps: $venv is up to date with $requirements"
  fi
fi
