#!/usr/bin/env bash
# Every rendered cloud-init document (an x86, an Arm and a GPU shape per cloud, rendered through
# `terraform console` by render_cloud_init.py) passes `cloud-init schema --config-file`, run with
# Debian's cloud-init in a container built from the local debian:bookworm-slim; and a broken
# document fails it, so the check can fail. Exit 77 (skipped) with the reason when Docker or
# terraform cannot run here, except in CI.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source_dir=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
skip() {
  echo "$1"
  [ "${CI:-}" = "true" ] && exit 1
  exit 77
}
command -v terraform > /dev/null || skip "terraform is not on the PATH (infra/README.md)"
"$source_dir/scripts/docker-env.sh" || skip "Docker cannot start here (reason above)"

image=perfzero-test-cloud-init
docker build -q -t "$image" -f "$here/cloud_init_schema.Dockerfile" "$here" > "$work/build.log" 2>&1 ||
  { cat "$work/build.log"; echo "FAILED: building the cloud-init image"; exit 1; }
mkdir -p "$work/docs"
/usr/bin/python3 "$here/render_cloud_init.py" "$work/docs" > /dev/null || { echo "FAILED: rendering"; exit 1; }
printf '#cloud-config\nwrite_files: not-a-list\nruncmd: 7\n' > "$work/broken.yaml"

failures=0
count=0
for doc in "$work"/docs/*.yaml; do
  name=$(basename "$doc")
  count=$((count + 1))
  if out=$(docker run --rm --network none -v "$doc:/doc.yaml:ro" "$image" cloud-init schema --config-file /doc.yaml 2>&1); then
    echo "ok: $name: $out"
  else
    echo "FAILED: $name: $out"
    failures=$((failures + 1))
  fi
done
[ "$count" -eq 15 ] || { echo "FAILED: expected 15 rendered documents (3 shapes x 4 clouds, 2 cluster nodes, a discovering one), got $count"; failures=$((failures + 1)); }
if docker run --rm --network none -v "$work/broken.yaml:/doc.yaml:ro" "$image" cloud-init schema --config-file /doc.yaml > "$work/broken.log" 2>&1 ||
  ! grep -q "schema errors" "$work/broken.log"; then
  echo "FAILED: a broken document passed the schema check: $(cat "$work/broken.log")"
  failures=$((failures + 1))
else
  echo "ok: a broken document fails the schema check ($(grep "schema errors" "$work/broken.log"))"
fi
echo "$failures failed"
[ "$failures" -eq 0 ]
