#!/usr/bin/env bash
# The Azure uploader and downloader (storage-azure.sh: Blob Storage's REST API with curl, as the
# runner sources it) against a FAKE of Blob Storage and of the metadata service
# (tests/infra/azure_blob_fake.py), since no Azure Blob emulator can be installed here (Azurite is
# an npm package; infra/README.md says what that leaves untested). What it holds the uploader to is
# what Azure's REST documentation asks of a request: Put Blob with x-ms-blob-type BlockBlob and an
# x-ms-version, the blob name percent-encoded with '/' kept, a SAS appended to a URL or the managed
# identity's bearer token (asked once, kept for root only); and that only a 404 counts as "not
# there", never a 403 or a dead endpoint.
# shellcheck disable=SC2016 # each eval'd check is expanded when it runs, not when it is written
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
script=$here/../../infra/terraform/cloud-init/scripts/storage-azure.sh
# shellcheck source=tests/infra/checks.sh
. "$here/checks.sh"
command -v curl > /dev/null || skip "curl is not installed"
work=$(mktemp -d)
fake_pid=""
trap '[ -n "$fake_pid" ] && kill "$fake_pid" 2> /dev/null; rm -rf "$work"' EXIT
/usr/bin/python3 "$here/azure_blob_fake.py" "$work/port" > "$work/fake.log" 2>&1 &
fake_pid=$!
for _ in $(seq 1 100); do [ -s "$work/port" ] && break; sleep 0.1; done
[ -s "$work/port" ] || { cat "$work/fake.log"; echo "FAILED: the fake did not start"; exit 1; }
endpoint=http://127.0.0.1:$(cat "$work/port")
curl -sSf -o /dev/null -X PUT -H "x-ms-version: 2020-10-02" "$endpoint/results?restype=container&sig=fake-signature" ||
  { echo "FAILED: creating the container"; exit 1; }

# az FUNCTION ARGS...: one of storage-azure.sh's functions in a shell of its own, as the runner runs
# it; with the managed identity's token unless sas= is set.
az() {
  PERFZERO_STATE_DIR=$work/state PERFZERO_METADATA_URL=${metadata:-$endpoint} PERFZERO_AZURE_BLOB_ENDPOINT=${blob:-$endpoint} \
    PERFZERO_AZURE_SAS=${sas:-} PERFZERO_RESULTS_BUCKET=results bash -c '. "$1" && shift && "$@"' _ "$script" "$@"
}
mkdir -p "$work/state" "$work/out"

run=$work/run
odd="m[p=1,q=2]"
cafe="caf$(printf '\xc3\xa9') au lait"
mkdir -p "$run/$odd/trial_1" "$run/$cafe"
printf 'one\n' > "$run/$odd/trial_1/perfzero_summary.json"
head -c 300000 /dev/urandom > "$run/$cafe/blob.bin"
printf '{"event":"trial"}\n' > "$run/journal.ndjson"

check "storage_put_dir uploads a run directory with the managed identity's token" az storage_put_dir "$run" "pre/run-1"
check "every Put Blob named BlockBlob, a version and a bearer token" \
  eval '[ "$(grep -c "\"PUT /results/pre/run-1/" "$work/fake.log")" -eq 3 ] &&
        ! grep "\"PUT /results/pre/run-1/" "$work/fake.log" | grep -qv "x-ms-version=2020-10-02 x-ms-blob-type=BlockBlob auth=bearer"'
check "names percent-encoded, '/' kept" grep -q '"PUT /results/pre/run-1/m%5Bp%3D1%2Cq%3D2%5D/trial_1/perfzero_summary.json' "$work/fake.log"
for name in "$odd/trial_1/perfzero_summary.json" "$cafe/blob.bin" journal.ndjson; do
  check "$name comes back byte for byte through storage_get" \
    eval 'az storage_get results "pre/run-1/$name" "$work/out/got" 2> "$work/err" && cmp -s "$work/out/got" "$run/$name"'
done
check "the token was asked of the metadata service once, and kept for root only" \
  eval '[ "$(grep -c "GET /metadata/identity/oauth2/token" "$work/fake.log")" -eq 1 ] &&
        [ "$(stat -c %a "$work/state/azure-storage-token")" = 600 ]'

sas="sv=2020-10-02&sig=fake-signature"
check "with a SAS instead: the upload goes through, the SAS appended" az storage_put_file "$run/journal.ndjson" "pre/sas/journal.ndjson"
check "... and reads back" eval 'az storage_get results pre/sas/journal.ndjson "$work/out/sas" && cmp -s "$work/out/sas" "$run/journal.ndjson"'
sas="sv=2020-10-02&sig=wrong"
check "a SAS the service refuses (403 AuthenticationFailed): the upload fails" \
  eval '! az storage_put_file "$run/journal.ndjson" pre/sas/x 2> /dev/null'
az storage_get results pre/sas/journal.ndjson "$work/out/refused" 2> "$work/err.refused"
rc=$?
check "a refused read: an error" test "$rc" -ne 0
check "... which storage_absent does not read as not there" eval '! az storage_absent "$work/err.refused"'
sas=""

az storage_get results pre/run-1/missing.json "$work/out/missing" 2> "$work/err.missing"
rc=$?
check "a blob that is not there: an error" test "$rc" -ne 0
check "... which storage_absent reads as not there (404)" az storage_absent "$work/err.missing"

blob=http://127.0.0.1:9 az storage_get results pre/run-1/journal.ndjson "$work/out/dead" 2> "$work/err.dead"
rc=$?
check "an endpoint that does not answer: an error" test "$rc" -ne 0
check "... which storage_absent does not read as not there" eval '! az storage_absent "$work/err.dead"'

rm -f "$work/state/azure-storage-token"
metadata=http://127.0.0.1:9 az storage_get results pre/run-1/journal.ndjson "$work/out/notoken" 2> "$work/err.notoken"
rc=$?
check "no token from the metadata service: an error that says so, not 'not there'" \
  eval '[ "$rc" -ne 0 ] && grep -q "no token" "$work/err.notoken" && ! az storage_absent "$work/err.notoken"'

[ "$failures" -eq 0 ] || { cat "$work/fake.log"; exit 1; }
echo "all Azure uploader and downloader checks passed (against a fake: infra/README.md)"
