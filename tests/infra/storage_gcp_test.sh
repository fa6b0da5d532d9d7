#!/usr/bin/env bash
# The GCS uploader and downloader (storage-gcp.sh: the JSON API with curl, as the runner sources it)
# against gcp-storage-emulator (PyPI, in build/venv) on loopback: what the runner uploads comes back
# byte for byte through its own downloader and through the emulator's listing, names a run can have
# ('[', '=', ',', spaces, bytes that are not ASCII) included. What no emulator provides is a FAKE
# (tests/infra/gcp_fakes.py): the metadata server's token (no service account exists here), Secret
# Manager, and GCS refusing a read (the emulator checks no permissions). Checked too: only a 404
# counts as "not there", never a 403 or a dead endpoint (a replacement that took those for "not
# there" would start the run afresh over an earlier instance's); the token is asked once and kept
# where only its owner reads it.
# shellcheck disable=SC2016 # each eval'd check is expanded when it runs, not when it is written
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
script=$here/../../infra/terraform/cloud-init/scripts/storage-gcp.sh
# shellcheck source=tests/infra/checks.sh
. "$here/checks.sh"
venv=${PERFZERO_VENV:-$here/../../build/venv}
command -v curl > /dev/null || skip "curl is not installed"
[ -x "$venv/bin/gcp-storage-emulator" ] || skip "gcp-storage-emulator is not in $venv (scripts/install-deps.sh makes it)"
work=$(mktemp -d)
pids=()
trap '[ "${#pids[@]}" -gt 0 ] && kill "${pids[@]}" 2> /dev/null; rm -rf "$work"' EXIT
free_port() { "$venv/bin/python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

bucket=results-bucket
port=$(free_port)
mkdir -p "$work/emulator"
(cd "$work/emulator" && exec "$venv/bin/gcp-storage-emulator" start --host 127.0.0.1 --port "$port" --in-memory \
  --default-bucket "$bucket") > "$work/emulator.log" 2>&1 &
pids+=($!)
printf 'munge-key-bytes' > "$work/secret"
"$venv/bin/python" "$here/gcp_fakes.py" "$work/fakes.port" projects/p/secrets/pz-munge "$work/secret" > "$work/fakes.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 100); do
  [ -s "$work/fakes.port" ] && curl -s -o /dev/null "http://127.0.0.1:$port/storage/v1/b" && break
  sleep 0.1
done
[ -s "$work/fakes.port" ] || { cat "$work/fakes.log"; echo "FAILED: the fakes did not start"; exit 1; }
curl -s -o /dev/null "http://127.0.0.1:$port/storage/v1/b" ||
  { cat "$work/emulator.log"; echo "FAILED: gcp-storage-emulator did not start"; exit 1; }
endpoint=http://127.0.0.1:$port
fakes=http://127.0.0.1:$(cat "$work/fakes.port")

# gcs FUNCTION ARGS...: one of storage-gcp.sh's functions in a shell of its own, as the runner runs it.
gcs() {
  PERFZERO_STATE_DIR=$work/state PERFZERO_METADATA_URL=${metadata:-$fakes} PERFZERO_GCS_ENDPOINT=${gcs_endpoint:-$endpoint} \
    PERFZERO_SECRETMANAGER_ENDPOINT=$fakes PERFZERO_RESULTS_BUCKET=$bucket \
    bash -c '. "$1" && shift && "$@"' _ "$script" "$@"
}
mkdir -p "$work/state" "$work/out"

# A run directory as the runner uploads it, with the names a sweep and a label can give.
run=$work/run
odd="m[p=1,q=2]"
cafe="caf$(printf '\xc3\xa9') au lait"
mkdir -p "$run/$odd/trial_1" "$run/$cafe"
printf 'one\n' > "$run/$odd/trial_1/perfzero_summary.json"
head -c 300000 /dev/urandom > "$run/$cafe/blob.bin"
printf '{"event":"trial"}\n' > "$run/journal.ndjson"
check "storage_put_dir uploads a run directory" gcs storage_put_dir "$run" "pre/run-1"
check "storage_put_file uploads one file" gcs storage_put_file "$run/journal.ndjson" "pre/run-1/journal-again.ndjson"
listing() {
  curl -gsS "$endpoint/storage/v1/b/$bucket/o?prefix=pre/" |
    "$venv/bin/python" -c 'import json, sys; print("\n".join(sorted(i["name"] for i in json.load(sys.stdin).get("items", []))))'
}
# shellcheck disable=SC2034 # read by the eval'd check below
expected=$(printf '%s\n' "pre/run-1/$cafe/blob.bin" "pre/run-1/journal-again.ndjson" "pre/run-1/journal.ndjson" \
  "pre/run-1/$odd/trial_1/perfzero_summary.json" | LC_ALL=C sort)
check "the emulator holds exactly the uploaded names" eval '[ "$(listing | LC_ALL=C sort)" = "$expected" ]'
for name in "$odd/trial_1/perfzero_summary.json" "$cafe/blob.bin" journal.ndjson; do
  check "$name comes back byte for byte through storage_get" \
    eval 'gcs storage_get "$bucket" "pre/run-1/$name" "$work/out/got" 2> "$work/err" && cmp -s "$work/out/got" "$run/$name"'
done
check "the token was asked of the metadata server once, and kept for root only" \
  eval '[ "$(grep -c "GET /computeMetadata/v1/instance/service-accounts/default/token" "$work/fakes.log")" -eq 1 ] &&
        [ "$(stat -c %a "$work/state/gcs-token")" = 600 ]'

gcs storage_get "$bucket" "pre/run-1/missing.json" "$work/out/missing" 2> "$work/err.missing"
rc=$?
check "an object that is not there: an error, and no file left" eval '[ "$rc" -ne 0 ] && [ ! -e "$work/out/missing" ]'
check "... which storage_absent reads as not there (HTTP 404)" gcs storage_absent "$work/err.missing"

gcs_endpoint=$fakes gcs storage_get "$bucket" "pre/run-1/journal.ndjson" "$work/out/refused" 2> "$work/err.refused"
rc=$?
check "a refused read (HTTP 403, the fake): an error, no file" eval '[ "$rc" -ne 0 ] && [ ! -e "$work/out/refused" ]'
check "... which storage_absent does not read as not there" eval '! gcs storage_absent "$work/err.refused"'
check "a refused upload (HTTP 403, the fake) fails" eval '! gcs_endpoint=$fakes gcs storage_put_file "$run/journal.ndjson" x 2> /dev/null'

gcs_endpoint=http://127.0.0.1:9 gcs storage_get "$bucket" "pre/run-1/journal.ndjson" "$work/out/dead" 2> "$work/err.dead"
rc=$?
check "an endpoint that does not answer: an error" test "$rc" -ne 0
check "... which storage_absent does not read as not there" eval '! gcs storage_absent "$work/err.dead"'

rm -f "$work/state/gcs-token"
metadata=http://127.0.0.1:9 gcs storage_get "$bucket" "pre/run-1/journal.ndjson" "$work/out/notoken" 2> "$work/err.notoken"
rc=$?
check "no token from the metadata server: an error that says so, not 'not there'" \
  eval '[ "$rc" -ne 0 ] && grep -q "no token" "$work/err.notoken" && ! gcs storage_absent "$work/err.notoken"'
check "... and no upload without one" eval '! metadata=http://127.0.0.1:9 gcs storage_put_file "$run/journal.ndjson" y 2> /dev/null'

check "storage_secret reads Secret Manager's latest version (the fake), decoded" \
  eval 'gcs storage_secret projects/p/secrets/pz-munge "$work/out/secret" && cmp -s "$work/out/secret" "$work/secret"'
check "... and fails on a secret that is not there" \
  eval '! gcs storage_secret projects/p/secrets/other "$work/out/other" 2> /dev/null'

[ "$failures" -eq 0 ] || { cat "$work/emulator.log" "$work/fakes.log"; exit 1; }
echo "all GCS uploader and downloader checks passed"
