#!/usr/bin/env bash
# Installs everything perfzero-cpp needs to build and test on Debian 12 (bookworm).
# Safe to run again: it only calls apt-get when a package is missing.
set -euo pipefail

packages=(
  build-essential cmake ninja-build git pkg-config ccache
  libboost1.81-dev libboost-filesystem1.81-dev  # Boost.Process v2 (launching children); Boost.Math (compare's p-values)
  libyaml-cpp-dev                               # YAML suites
  nlohmann-json3-dev                            # reports, result protocol
  libfmt-dev                                    # formatting
  libcli11-dev                                  # command line
  libsqlite3-dev                                # results history: the default SQLite database
  libpqxx-dev                                   # results history on a team's PostgreSQL server
  postgresql                                    # tests start a real PostgreSQL (initdb/pg_ctl) for the history
  libgtest-dev libbenchmark-dev                 # tests; Google Benchmark (micro family)
  libdnnl-dev ocl-icd-opencl-dev                # oneDNN (onednn family); its CMake config wants OpenCL
  libclblast-dev                                # CLBlast GEMM (opencl family; the ICD loader is above)
  pocl-opencl-icd clinfo                        # this CPU as an OpenCL device: the opencl family's tests run for real
  python3-pyopencl                              # the PyOpenCL vector-sum peer (benchmarks/baselines)
  python3 python3-jsonschema                    # report schema validation in tests
  python3-numpy python3-dask libopenblas0-pthread  # peer baselines (benchmarks/baselines)
  hyperfine                                     # the external-command overhead benchmark
  chromium fonts-dejavu-core                    # perfzero report's HTML page rendered headless in a test
  influxdb curl                                 # export tests: a real influxd 1.x, written and queried over HTTP
  prometheus python3-prometheus-client          # export tests: promtool check metrics, the OpenMetrics parser
  clang-format clang-tidy                       # style checks in the test command
  clang                                         # libFuzzer targets (tests/fuzz), run by the test command
  openmpi-bin libopenmpi-dev                    # launch: mpirun (multi-rank methods); the mpi family's worker
  python3-mpi4py python3-distributed            # the mpi4py allreduce and Dask distributed speed cube peers (benchmarks/baselines)
  slurm-wlm munge iproute2                      # launch: slurm; the test cluster (scripts/slurm-test-cluster.sh)
  libaio-dev                                    # the storage family's worker (direct I/O kept in flight)
  fio iperf3                                    # the storage and network peers, and their output read as method kinds
  procps
  shellcheck                                    # infra tests: the scripts cloud-init installs
  zsh fish man-db groff-base                    # perfzero completion and perfzero(1) checked in the shells and man
  patchelf                                      # scripts/gpu-bundle.sh: the bundled binaries find their libraries
  awscli                                        # infra runner test: the S3 client the runner uses
)

# The infra runner test's local S3-compatible server; Debian packages none.
install_s3rver() {
  command -v s3rver > /dev/null && return 0
  # Debian's nodejs and npm, unless a Node.js with npm is already installed (e.g. NodeSource's).
  command -v npm > /dev/null || $sudo apt-get install -y -q --no-install-recommends nodejs npm
  echo "install-deps: installing s3rver 3.7.1 from the npm registry (infra runner test)"
  $sudo npm install -g --no-fund --no-audit s3rver@3.7.1
}

# Not from Debian: the CUDA toolkit (nvcc, cuBLAS, cuBLASLt, cuDNN) for perfzero-worker-cuda comes
# from NVIDIA (default location /usr/local/cuda); without it that worker is simply not built, and the
# GPU image (docker/build.sh --gpu) cannot be built. The driver's NVML is loaded at run time only.

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: run as root or install sudo" >&2; exit 1; }
  sudo=sudo
fi
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  install_s3rver
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
install_s3rver
