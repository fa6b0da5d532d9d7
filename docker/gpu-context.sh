#!/usr/bin/env bash
# Assembles the GPU image's build context in DIR (default build/docker-gpu): the sources the build
# stage compiles, and the part of the local CUDA toolkit (CUDA_HOME, default /usr/local/cuda) that
# nvcc and the CUDA worker need. No registry serves nvidia/cuda here, so the toolkit comes from this
# machine; only the compiler, headers and the libraries the worker links are taken (about 0.8 GB of
# the toolkit's 2.7 GB). A separate context keeps the CPU image's context small. Refreshed in place;
# files keep their times, so Docker's layer cache holds while nothing changed.
# With --from-build BUILD_DIR the context holds that build's CUDA worker (stripped) and the CUDA
# libraries it loads (out/, what the build stage would make) instead: nothing is compiled in Docker.
# usage: docker/gpu-context.sh [DIR] [--from-build BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
dest=${1:-build/docker-gpu}
from_build=""
[ "${2:-}" = --from-build ] && from_build=${3:?usage: docker/gpu-context.sh [DIR] [--from-build BUILD_DIR]}
cuda=${CUDA_HOME:-/usr/local/cuda}
# Kept in one place: docker/Dockerfile.gpu copies the same list into the image.
cudnn_sublibraries() {
  local name
  for name in cnn ops graph heuristic engines_precompiled engines_runtime_compiled; do echo "libcudnn_$name.so.9"; done
}
# context.txt: always there, so that each of the Dockerfile's COPY lines has a source in either kind
# of context (the others are wildcards that match only in theirs).
if [ -n "$from_build" ]; then
  worker=$from_build/harness/perfzero-worker-cuda
  [ -x "$worker" ] || { echo "gpu-context: $worker was not built (the CUDA toolkit, PERFZERO_WITH_CUDA)" >&2; exit 1; }
  rm -rf "${dest:?}" && mkdir -p "$dest/out/bin" "$dest/out/lib"
  echo prebuilt > "$dest/context.txt"
  strip -o "$dest/out/bin/perfzero-worker-cuda" "$worker"
  # The libraries ldd finds in the toolkit, as the build stage takes them, and cuDNN's sublibraries.
  ldd "$worker" | awk '$3 != "" {print $3}' | while read -r lib; do
    case "$(readlink -f "$lib")" in "$(readlink -f "$cuda")"/*) cp -L "$lib" "$dest/out/lib/" ;; esac
  done
  for lib in $(cudnn_sublibraries); do cp -L "$cuda/lib/$lib" "$dest/out/lib/"; done
  du -sh "$dest" | awk '{print "gpu-context: " $2 " holds " $1 " (prebuilt)"}'
  exit 0
fi
if [ ! -x "$cuda/bin/nvcc" ]; then
  echo "gpu-context: no CUDA toolkit at $cuda (set CUDA_HOME)" >&2
  exit 1
fi
rm -rf "${dest:?}/out" && mkdir -p "$dest/cuda/lib"
echo source > "$dest/context.txt"
# cp -u keeps a file that is already current, so its layer stays cached.
copy() { cp -a -u "$@"; }
# The sources, as the CPU image's context has them (cp -a keeps their times: the cache holds).
rm -rf "${dest:?}/src" && mkdir -p "$dest/src"
cp -a CMakeLists.txt CMakePresets.json cmake harness benchmarks "$dest/src/"
mkdir -p "$dest/src/scripts" && cp -a scripts/deps "$dest/src/scripts/"
# The compiler: nvcc and its tools, cicc and libdevice, the headers (cuBLAS and cuDNN's included).
copy "$cuda/bin" "$cuda/nvvm" "$cuda/include" "$dest/cuda/"
# CMake's FindCUDAToolkit looks for targets/<arch>/include and lib.
mkdir -p "$dest/cuda/targets/x86_64-linux"
ln -sfn ../../include "$dest/cuda/targets/x86_64-linux/include"
ln -sfn ../../lib "$dest/cuda/targets/x86_64-linux/lib"
# The libraries: what the worker links (cudart, cuBLAS, cuBLASLt, cuDNN's loader, NCCL; the build stage
# checks the list with ldd), the cuDNN sublibraries that loader opens at run time (ldd cannot see
# them: read with LD_DEBUG=files on an H100 running the cnn method; cuDNN's adv library, for RNNs
# and attention, is not opened), and the static pieces CMake's compiler check links.
for lib in libcudart.so libcudart.so.13 libcudart_static.a libcudadevrt.a libculibos.a libcublas.so libcublas.so.13 \
           libcublasLt.so libcublasLt.so.13 libcudnn.so libcudnn.so.9 libnccl.so libnccl.so.2 $(cudnn_sublibraries); do
  copy "$cuda/lib/$lib" "$dest/cuda/lib/"
done
mkdir -p "$dest/cuda/lib/stubs" && copy "$cuda/lib/stubs/libcuda.so" "$dest/cuda/lib/stubs/"
du -sh "$dest" | awk '{print "gpu-context: " $2 " holds " $1}'
