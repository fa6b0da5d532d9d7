#!/usr/bin/env bash
# The CPU image built from source the way a user builds it (docker/build.sh: the project compiled
# inside Docker, no build tree of this machine's), then run: --list shows the built-in families, a
# method succeeds, and the image holds the same programs as the one docker.e2e builds from the ci
# build's binaries. Opt-in (label from_source): it compiles the whole project a second time, which
# the test command's 30 minutes cannot hold (docs/testing.md says where it runs).
# Exit 77 (ctest: skipped) with the reason when Docker cannot be made to work, unless CI=true.
# shellcheck disable=SC2016 # each eval'd check is expanded when it runs
set -uo pipefail
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
image=perfzero-cpp:from-source-test
trap 'docker rmi "$image" > /dev/null 2>&1; rm -rf "$work"' EXIT
# shellcheck source=tests/infra/checks.sh
. "$source_dir/tests/infra/checks.sh" # skip, check and the failure count
"$source_dir/scripts/docker-env.sh" || skip "Docker cannot start here (reason above)"
cd "$source_dir" || exit 1
started=$SECONDS
docker/build.sh --tag from-source-test > "$work/build.log" 2>&1 || { tail -n 30 "$work/build.log"; echo "FAILED: image build"; exit 1; }
echo "built from source in $((SECONDS - started)) s: $(tail -n 1 "$work/build.log")"
docker run --rm "$image" list > "$work/list.log" 2>&1
check "list shows the core and oneDNN families" eval 'grep -q speedcube.SpeedCube.benchmark_fused "$work/list.log" && grep -q perfzero-worker-onednn "$work/list.log"'
mkdir -p "$work/results" && chmod 777 "$work/results"
docker run --rm -v "$work/results:/results" "$image" --benchmark_methods=sanity.Sanity.benchmark_noop \
  --output_dir=/results/run > "$work/run.log" 2>&1
check "a method runs and succeeds" test -f "$work/results/run/sanity.Sanity.benchmark_noop/trial_1/perfzero_summary.json"
docker run --rm --entrypoint ls "$image" /opt/perfzero/libexec/perfzero > "$work/layout.log" 2>&1
if docker image inspect perfzero-cpp:e2e-test > /dev/null 2>&1; then
  docker run --rm --entrypoint ls perfzero-cpp:e2e-test /opt/perfzero/libexec/perfzero > "$work/layout-prebuilt.log" 2>&1
  check "the same programs as the image built from the ci build" cmp -s "$work/layout.log" "$work/layout-prebuilt.log"
fi
[ "$failures" -eq 0 ] || cat "$work/run.log"
echo "$failures failed"
[ "$failures" -eq 0 ]
