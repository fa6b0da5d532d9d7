#!/usr/bin/env bash
# Installs everything perfzero-cpp needs to build and test on Debian 12 (bookworm).
# Safe to run again: it only calls apt-get when a package is missing.
set -euo pipefail

packages=(
  build-essential cmake ninja-build git pkg-config ccache
  libboost1.81-dev libboost-filesystem1.81-dev  # Boost.Process v2 (launching children)
  libyaml-cpp-dev                               # YAML suites
  nlohmann-json3-dev                            # reports, result protocol
  libfmt-dev                                    # formatting
  libcli11-dev                                  # command line
  libgtest-dev libbenchmark-dev                 # tests; Google Benchmark (micro family)
  libdnnl-dev ocl-icd-opencl-dev                # oneDNN (onednn family); its CMake config wants OpenCL
  python3 python3-jsonschema                    # report schema validation in tests
  python3-numpy python3-dask libopenblas0-pthread  # peer baselines (benchmarks/baselines)
  hyperfine                                     # the external-command overhead benchmark
  clang-format clang-tidy                       # style checks in the test command
  clang                                         # libFuzzer targets (tests/fuzz), run by the test command
  procps
)

# Not from Debian: the CUDA toolkit (nvcc, cuBLAS, cuBLASLt, cuDNN) for perfzero-worker-cuda comes
# from NVIDIA (default location /usr/local/cuda); without it that worker is simply not built, and the
# GPU image (docker/build.sh --gpu) cannot be built. The driver's NVML is loaded at run time only.

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: run as root or install sudo" >&2; exit 1; }
  sudo=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
