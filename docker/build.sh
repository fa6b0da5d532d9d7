#!/usr/bin/env bash
# Builds and tags the perfzero-cpp image with the git revision passed in, and prints its size.
# usage: docker/build.sh [--gpu] [--tag TAG]     (default tag: the version; also tagged latest/gpu)
set -euo pipefail
cd "$(dirname "$0")/.."
gpu=0
tag=""
while [ $# -gt 0 ]; do
  case "$1" in
    --gpu) gpu=1 ;;
    --tag) tag=$2; shift ;;
    *) echo "usage: docker/build.sh [--gpu] [--tag TAG]" >&2; exit 2 ;;
  esac
  shift
done
version=$(sed -n 's/^project(perfzero_cpp VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
revision=$(git rev-parse HEAD 2>/dev/null || echo unknown)
[ -z "$(git status --porcelain --untracked-files=no 2>/dev/null)" ] || revision="${revision}-dirty"
name=perfzero-cpp
if [ "$gpu" -eq 1 ]; then
  file=docker/Dockerfile.gpu
  tag=${tag:-${version}-gpu}
  extra_tag=gpu
else
  file=docker/Dockerfile
  tag=${tag:-$version}
  extra_tag=latest
fi
scripts/docker-env.sh
docker build -f "$file" \
  --build-arg GIT_REVISION="$revision" --build-arg VERSION="$version" \
  --build-arg IMAGE_NAME="$name" --build-arg IMAGE_TAG="$tag" \
  -t "$name:$tag" -t "$name:$extra_tag" .
size=$(docker image inspect --format '{{.Size}}' "$name:$tag")
echo "built $name:$tag ($name:$extra_tag), revision $revision, $((size / 1000000)) MB"
