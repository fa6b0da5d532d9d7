# What every image test does first, sourced by tests/docker/*_test.sh: a scratch folder removed at
# exit, the ok/FAILED tally, Docker started (exit 77, ctest's skip, with the reason when it cannot
# be, unless CI=true, where that is a failure), and where the images' binaries come from.
# shellcheck shell=bash
source_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
passes=0
check() {  # check DESCRIPTION COMMAND...
  local what=$1
  shift
  if "$@"; then
    echo "ok: $what"
    passes=$((passes + 1))
  else
    echo "FAILED: $what"
    failures=$((failures + 1))
  fi
}

if ! "$source_dir/scripts/docker-env.sh"; then
  echo "Docker cannot start here (reason above)."
  [ "${CI:-}" = "true" ] && exit 1
  exit 77
fi

# images_from BUILD_DIR: `from` holds docker/build.sh's --from-build BUILD_DIR when one is given
# (and PERFZERO_IMAGE_FROM_SOURCE is not 1), else nothing: the image compiles the project itself.
images_from() {
  build_dir=${1:-}
  [ -z "$build_dir" ] || build_dir=$(cd "$build_dir" && pwd)
  from=()
  [ -n "$build_dir" ] && [ "${PERFZERO_IMAGE_FROM_SOURCE:-0}" != 1 ] && from=(--from-build "$build_dir")
  echo "the images' binaries: ${from[*]:-compiled from source inside Docker}"
}
