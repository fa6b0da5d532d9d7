#!/usr/bin/env bash
# Builds perfzero-cpp:VERSION-arm64 on an x86 machine, offline but for the Debian mirror:
#   1. scripts/docker-arm64-env.sh: qemu-user-static via binfmt_misc, and the arm64 Debian base
#      perfzero-base-arm64:bookworm made locally with debootstrap;
#   2. cross-compiles (Debian's crossbuild-essential-arm64 and arm64 -dev packages of
#      scripts/deps/packages.txt, in the perfzero-cross-arm64 container) into build/arm64: the
#      runtime binaries (every worker the arm64 packages allow: core, onednn, opencl, storage) and the unit tests
#      (not the integration tests). The tree stays, and so does its compiler cache
#      (PERFZERO_ARM64_CCACHE, default ~/.cache/perfzero-arm64-ccache, shared by checkouts), so a
#      rerun only compiles what changed;
#   3. assembles the runtime image from the base (runtime libraries installed under qemu).
# With --save DIR it also writes DIR/perfzero-cpp-VERSION-{amd64,arm64}.tar.gz (`docker save`
# archives the Terraform modules load; the amd64 one from perfzero-cpp:VERSION, built when missing).
# With --debs DIR it also writes the arm64 Debian packages (docs/packages.md) into DIR.
# usage: docker/build-arm64.sh [--save DIR] [--debs DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
usage="usage: docker/build-arm64.sh [--save DIR] [--debs DIR]"
save_dir=""
debs_dir=""
while [ $# -gt 0 ]; do
  case "$1" in
    --save) save_dir=${2:?$usage}; shift ;;
    --debs) debs_dir=${2:?$usage}; shift ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
  shift
done
version=$(sed -n 's/^project(perfzero_cpp VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
revision=$(git rev-parse HEAD 2> /dev/null || echo unknown)
[ -z "$(git status --porcelain --untracked-files=no 2> /dev/null)" ] || revision="${revision}-dirty"
name=perfzero-cpp
tag=${version}-arm64

scripts/docker-arm64-env.sh
docker build -q -t perfzero-cross-arm64 -f docker/arm64/cross.Dockerfile . > /dev/null

ccache_dir=${PERFZERO_ARM64_CCACHE:-$HOME/.cache/perfzero-arm64-ccache}
mkdir -p build/arm64 "$ccache_dir"
docker run --rm --user "$(id -u):$(id -g)" -v "$PWD:/src" -w /src -v "$ccache_dir:/ccache" \
  -e CCACHE_DIR=/ccache -e CCACHE_BASEDIR=/src \
  perfzero-cross-arm64 sh -ec "
    cmake --fresh -S . -B build/arm64 -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_TOOLCHAIN_FILE=docker/arm64/aarch64-linux-gnu.cmake -DPERFZERO_BUILD_TESTS=ON \
      -DPERFZERO_GIT_REVISION='$revision' > build/arm64/configure.log
    cmake --build build/arm64 -j \$(nproc) --target perfzero perfzero-launch perfzero-rank perfzero_workers perfzero-micro \
      perfzero_manual perfzero_deb_changelog perfzero_unit_tests
    rm -rf build/arm64-image && mkdir -p build/arm64-image
    for c in \$(cat build/arm64/install-components.txt); do
      cmake --install build/arm64 --prefix /src/build/arm64-image/opt/perfzero --strip --component \$c > /dev/null
    done"
if [ -n "$debs_dir" ]; then
  docker run --rm --user "$(id -u):$(id -g)" -v "$PWD:/src" -w /src perfzero-cross-arm64 sh -ec "
    rm -rf build/arm64-debs
    cpack --config build/arm64/CPackConfig.cmake -G DEB -B build/arm64-debs > build/arm64/cpack.log ||
      { tail -n 30 build/arm64/cpack.log; exit 1; }"
  mkdir -p "$debs_dir"
  cp build/arm64-debs/*.deb "$debs_dir/"
  echo "arm64 packages in $debs_dir: $(cd build/arm64-debs && echo ./*.deb)"
fi
cp -r benchmarks/suites build/arm64-image/suites
cp -r scripts/deps build/arm64-image/deps
docker build -q --platform linux/arm64 -f docker/arm64/Dockerfile \
  --build-arg GIT_REVISION="$revision" --build-arg VERSION="$version" \
  --build-arg IMAGE_NAME="$name" --build-arg IMAGE_TAG="$tag" \
  -t "$name:$tag" -t "$name:latest-arm64" build/arm64-image > /dev/null
size=$(docker image inspect --format '{{.Size}}' "$name:$tag")
echo "built $name:$tag ($(docker image inspect --format '{{.Architecture}}' "$name:$tag")), revision $revision, $((size / 1000000)) MB"

if [ -n "$save_dir" ]; then
  mkdir -p "$save_dir"
  docker image inspect "$name:$version" > /dev/null 2>&1 || docker/build.sh
  docker tag "$name:$version" "$name:${version}-amd64"
  for arch in amd64 arm64; do
    docker save "$name:${version}-$arch" | gzip > "$save_dir/$name-${version}-$arch.tar.gz"
    echo "saved $save_dir/$name-${version}-$arch.tar.gz ($(du -h "$save_dir/$name-${version}-$arch.tar.gz" | cut -f1))"
  done
fi
