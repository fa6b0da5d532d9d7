#!/usr/bin/env bash
# Builds and tags the perfzero-cpp image with the git revision passed in, and prints its size.
# usage: docker/build.sh [--gpu | --opencl] [--tag TAG]
#   (default)  perfzero-cpp:VERSION and :latest, the CPU image without PoCL
#   --opencl   perfzero-cpp:VERSION-opencl and :opencl, the same plus PoCL (OpenCL on the CPU)
#   --gpu      perfzero-cpp:VERSION-gpu and :gpu, the CPU image plus the CUDA worker;
#              CUDA_ARCHITECTURES=90 (say) builds device code for one GPU only, faster.
set -euo pipefail
cd "$(dirname "$0")/.."
gpu=0
opencl=0
tag=""
while [ $# -gt 0 ]; do
  case "$1" in
    --gpu) gpu=1 ;;
    --opencl) opencl=1 ;;
    --tag) tag=$2; shift ;;
    *) echo "usage: docker/build.sh [--gpu | --opencl] [--tag TAG]" >&2; exit 2 ;;
  esac
  shift
done
[ $((gpu + opencl)) -le 1 ] || { echo "docker/build.sh: --gpu and --opencl are separate images" >&2; exit 2; }
version=$(sed -n 's/^project(perfzero_cpp VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
revision=$(git rev-parse HEAD 2>/dev/null || echo unknown)
[ -z "$(git status --porcelain --untracked-files=no 2>/dev/null)" ] || revision="${revision}-dirty"
name=perfzero-cpp
scripts/docker-env.sh
build_image() {  # build_image DOCKERFILE CONTEXT TAG EXTRA_TAG [ARGS...]
  local file=$1 context=$2 image_tag=$3 extra=$4
  shift 4
  docker build -f "$file" \
    --build-arg GIT_REVISION="$revision" --build-arg VERSION="$version" \
    --build-arg IMAGE_NAME="$name" --build-arg IMAGE_TAG="$image_tag" "$@" \
    -t "$name:$image_tag" -t "$name:$extra" "$context"
}
if [ "$gpu" -eq 1 ]; then
  # The GPU image is the CPU image plus the CUDA worker: build (or reuse, from the cache) that first.
  tag=${tag:-${version}-gpu}
  extra_tag=gpu
  cpu_tag="${version}-for-${tag}"
  build_image docker/Dockerfile . "$cpu_tag" "$cpu_tag"
  docker/gpu-context.sh build/docker-gpu
  build_image docker/Dockerfile.gpu build/docker-gpu "$tag" "$extra_tag" \
    --build-arg CPU_IMAGE="$name:$cpu_tag" ${CUDA_ARCHITECTURES:+--build-arg CUDA_ARCHITECTURES="$CUDA_ARCHITECTURES"}
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
