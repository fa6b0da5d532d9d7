#!/usr/bin/env bash
# Builds and tags the perfzero-cpp image with the git revision passed in, and prints its size.
# usage: docker/build.sh [--gpu | --opencl | --pytorch | --tensorflow] [--tag TAG] [--from-build BUILD_DIR]
#   (default)  perfzero-cpp:VERSION and :latest, the CPU image without PoCL
#   --opencl   perfzero-cpp:VERSION-opencl and :opencl, the same plus PoCL (OpenCL on the CPU)
#   --gpu      perfzero-cpp:VERSION-gpu and :gpu, the CPU image plus the CUDA worker;
#              CUDA_ARCHITECTURES=90 (say) builds device code for one GPU only, faster.
#   --pytorch  perfzero-cpp:VERSION-pytorch and :pytorch, the CPU image plus Debian's PyTorch
#   --tensorflow  perfzero-cpp:VERSION-tensorflow and :tensorflow, the CPU image plus TensorFlow from
#              PyPI in /opt/tensorflow (wheels downloaded here by docker/tensorflow-context.sh)
#   --from-build BUILD_DIR  the binaries of a Release build tree on this Debian 12 machine (the test
#              command's build/ci) instead of compiling them again inside Docker; without it the
#              image compiles the project itself, as a user's build does.
set -euo pipefail
cd "$(dirname "$0")/.."
usage="usage: docker/build.sh [--gpu | --opencl | --pytorch | --tensorflow] [--tag TAG] [--from-build BUILD_DIR]"
gpu=0
opencl=0
framework=""
kinds=0 # how many of the image kinds were asked for: one at most
tag=""
from_build=""
while [ $# -gt 0 ]; do
  case "$1" in
    --gpu) gpu=1 kinds=$((kinds + 1)) ;;
    --opencl) opencl=1 kinds=$((kinds + 1)) ;;
    --pytorch | --tensorflow) framework=${1#--} kinds=$((kinds + 1)) ;;
    --tag) tag=${2:?$usage}; shift ;;
    --from-build) from_build=${2:?$usage}; shift ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
  shift
done
[ "$kinds" -le 1 ] || { echo "docker/build.sh: --gpu, --opencl, --pytorch and --tensorflow are separate images" >&2; exit 2; }
version=$(sed -n 's/^project(perfzero_cpp VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
revision=$(git rev-parse HEAD 2>/dev/null || echo unknown)
[ -z "$(git status --porcelain --untracked-files=no 2>/dev/null)" ] || revision="${revision}-dirty"
name=perfzero-cpp
scripts/docker-env.sh
# The install tree the Dockerfile takes with BINARIES=prebuilt: every component the image's own
# build would have (the CUDA worker comes with --gpu; the MPI worker's libraries are not in the image),
# the Python package among them (docker/Dockerfile).
binaries=(--build-arg BINARIES=source)
rm -rf build/docker-prebuilt # never a stale tree in the context of an image compiled from source
if [ -n "$from_build" ]; then
  [ -x "$from_build/harness/perfzero" ] && [ -f "$from_build/install-components.txt" ] ||
    { echo "docker/build.sh: $from_build is not a perfzero build tree (no harness/perfzero, install-components.txt)" >&2; exit 2; }
  for component in $(cat "$from_build/install-components.txt") python3-perfzero; do
    case "$component" in worker_cuda | worker_mpi) continue ;; esac
    cmake --install "$from_build" --prefix build/docker-prebuilt/opt/perfzero --strip --component "$component" > /dev/null
  done
  binaries=(--build-arg BINARIES=prebuilt)
fi
build_image() {  # build_image DOCKERFILE CONTEXT TAG EXTRA_TAG [ARGS...]
  local file=$1 context=$2 image_tag=$3 extra=$4
  shift 4
  local replaced
  # One of the tags may not exist yet (inspect then fails, naming what it found of the others).
  replaced=$(docker image inspect --format '{{.Id}}' "$name:$image_tag" "$name:$extra" 2> /dev/null | sort -u || true)
  docker build -f "$file" \
    --build-arg GIT_REVISION="$revision" --build-arg VERSION="$version" \
    --build-arg IMAGE_NAME="$name" --build-arg IMAGE_TAG="$image_tag" "$@" \
    "${binaries[@]}" -t "$name:$image_tag" -t "$name:$extra" "$context"
  remove_untagged $replaced
}
# The images a rebuild took the tags from are left with none: on a machine that runs the tests often
# they were tens of GB within days. Only those, and only when nothing else names or uses them (docker
# rmi refuses an image a container or another image depends on).
remove_untagged() {
  local id
  for id in "$@"; do
    [ "$(docker image inspect --format '{{len .RepoTags}}' "$id" 2> /dev/null)" = 0 ] || continue
    docker rmi "$id" > /dev/null 2>&1 || true
  done
}
if [ "$gpu" -eq 1 ]; then
  # The GPU image is the CPU image plus the CUDA worker: build (or reuse, from the cache) that first.
  tag=${tag:-${version}-gpu}
  extra_tag=gpu
  cpu_tag="${version}-for-${tag}"
  build_image docker/Dockerfile . "$cpu_tag" "$cpu_tag"
  docker/gpu-context.sh build/docker-gpu ${from_build:+--from-build "$from_build"}
  build_image docker/Dockerfile.gpu build/docker-gpu "$tag" "$extra_tag" \
    --build-arg CPU_IMAGE="$name:$cpu_tag" ${CUDA_ARCHITECTURES:+--build-arg CUDA_ARCHITECTURES="$CUDA_ARCHITECTURES"}
  docker rmi "$name:$cpu_tag" > /dev/null
elif [ -n "$framework" ]; then
  # As the GPU image: the CPU image first (from the cache when nothing changed), then the framework
  # on top of it. The PyTorch image's context is the checkout (it needs the package list only); the
  # TensorFlow image's is the package list and the wheels (docker/tensorflow-context.sh).
  tag=${tag:-${version}-${framework}}
  extra_tag=$framework
  cpu_tag="${version}-for-${tag}"
  build_image docker/Dockerfile . "$cpu_tag" "$cpu_tag"
  context=.
  if [ "$framework" = tensorflow ]; then
    context=build/docker-tensorflow
    docker/tensorflow-context.sh "$context"
  fi
  build_image "docker/Dockerfile.$framework" "$context" "$tag" "$extra_tag" --build-arg CPU_IMAGE="$name:$cpu_tag"
  docker rmi "$name:$cpu_tag" > /dev/null
elif [ "$opencl" -eq 1 ]; then
  tag=${tag:-${version}-opencl}
  extra_tag=opencl
  build_image docker/Dockerfile . "$tag" "$extra_tag" --target opencl
else
  tag=${tag:-$version}
  extra_tag=latest
  build_image docker/Dockerfile . "$tag" "$extra_tag"
fi
size=$(docker image inspect --format '{{.Size}}' "$name:$tag")
echo "built $name:$tag ($name:$extra_tag), revision $revision, $((size / 1000000)) MB"
