#!/usr/bin/env bash
# The GCS downloader (storage-gcp.sh's storage_get and storage_absent), which reads an object by
# name through the JSON API with the metadata server's token, against a local stand-in for both
# (tests/infra/gcs_stub.py: no GCS emulator is packaged for Debian; the stand-in answers as the
# JSON API documents: 200 with the bytes, 404 for no such object, 403 for a refused one, 401
# without the token). What it checks: names a run can have ('[', '=', ',', spaces, bytes that are
# not ASCII) come back byte for byte; only a 404 counts as "not there", never a 403 or a dead
# endpoint (a replacement that took those for "not there" would start the run afresh over an
# earlier instance's); the token is asked once and kept where only its owner reads it.
# shellcheck disable=SC2016 # each eval'd check is expanded when it runs, not when it is written
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/infra/checks.sh
. "$here/checks.sh"
command -v curl > /dev/null || skip "curl is not installed"
work=$(mktemp -d)
stub_pid=""
trap '[ -n "$stub_pid" ] && kill "$stub_pid" 2> /dev/null; rm -rf "$work"' EXIT

objects=$work/objects/results-bucket
mkdir -p "$objects/run/m[p=1,q=2]/trial_1" "$objects/run/caf$(printf '\xc3\xa9') au lait" "$objects/run/refused"
printf 'one\n' > "$objects/run/m[p=1,q=2]/trial_1/perfzero_summary.json"
head -c 300000 /dev/urandom > "$objects/run/caf$(printf '\xc3\xa9') au lait/blob.bin"
printf 'secret\n' > "$objects/run/refused/x"
port_file=$work/port
/usr/bin/python3 "$here/gcs_stub.py" "$work/objects" "$port_file" > "$work/stub.log" 2>&1 &
stub_pid=$!
for _ in $(seq 1 50); do [ -s "$port_file" ] && break; sleep 0.1; done
[ -s "$port_file" ] || { cat "$work/stub.log"; echo "FAILED: the stand-in did not start"; exit 1; }
endpoint=http://127.0.0.1:$(cat "$port_file")

# get OBJECT FILE [ENDPOINT]: storage_get in a shell of its own, as the runner sources it.
get() {
  PERFZERO_STATE_DIR=$work/state PERFZERO_METADATA_URL=$endpoint PERFZERO_GCS_ENDPOINT=${3:-$endpoint} \
    bash -c '. "$1" && storage_get results-bucket "$2" "$3"' _ "$here/../../infra/terraform/cloud-init/scripts/storage-gcp.sh" "$1" "$2"
}
absent() {
  bash -c '. "$1" && storage_absent "$2"' _ "$here/../../infra/terraform/cloud-init/scripts/storage-gcp.sh" "$1"
}
mkdir -p "$work/state" "$work/out"

for name in "run/m[p=1,q=2]/trial_1/perfzero_summary.json" "run/caf$(printf '\xc3\xa9') au lait/blob.bin"; do
  check "an object named $name comes back byte for byte" \
    eval 'get "$name" "$work/out/got" 2> "$work/err" && cmp -s "$work/out/got" "$objects/$name"'
done
check "the token was asked of the metadata server once, and kept for root only" \
  eval '[ "$(grep -c "GET /computeMetadata/v1/instance/service-accounts/default/token" "$work/stub.log")" -eq 1 ] &&
        [ "$(stat -c %a "$work/state/gcs-token")" = 600 ]'

get "run/journal.ndjson" "$work/out/missing" 2> "$work/err.missing"
rc=$?
check "an object that is not there: an error, and no file left" eval '[ "$rc" -ne 0 ] && [ ! -e "$work/out/missing" ]'
check "... which storage_absent reads as not there (HTTP 404)" absent "$work/err.missing"

get "run/refused/x" "$work/out/refused" 2> "$work/err.refused"
rc=$?
check "a refused object (HTTP 403): an error, no file" eval '[ "$rc" -ne 0 ] && [ ! -e "$work/out/refused" ]'
check "... which storage_absent does not read as not there" eval '! absent "$work/err.refused"'

get "run/journal.ndjson" "$work/out/dead" "http://127.0.0.1:9" 2> "$work/err.dead"
rc=$?
check "an endpoint that does not answer: an error" test "$rc" -ne 0
check "... which storage_absent does not read as not there" eval '! absent "$work/err.dead"'

rm -f "$work/state/gcs-token"
PERFZERO_STATE_DIR=$work/state PERFZERO_METADATA_URL=http://127.0.0.1:9 PERFZERO_GCS_ENDPOINT=$endpoint \
  bash -c '. "$1" && storage_get results-bucket run/journal.ndjson "$2"' _ \
  "$here/../../infra/terraform/cloud-init/scripts/storage-gcp.sh" "$work/out/notoken" 2> "$work/err.notoken"
rc=$?
check "no token from the metadata server: an error that says so, not 'not there'" \
  eval '[ "$rc" -ne 0 ] && grep -q "no token" "$work/err.notoken" && ! absent "$work/err.notoken"'

[ "$failures" -eq 0 ] || { cat "$work/stub.log"; exit 1; }
echo "all GCS downloader checks passed"
