# shellcheck shell=bash
# Google Cloud Storage for perfzero-runner.sh, through the JSON API with curl (uploads and
# downloads) and Secret Manager's REST API, as the instance's service account: no CLI to install on
# every VM, and the same requests a local emulator answers (tests/infra/storage_gcp_test.sh runs
# them against gcp-storage-emulator).
storage_setup() { command -v curl > /dev/null || { apt-get update -q && apt-get install -y -q curl; }; }
# shellcheck source=/dev/null # storage-rest.sh, beside this file (checked on its own)
. "$(dirname "${BASH_SOURCE[0]}")/storage-rest.sh" # percent_encode, cached_token
storage_url() { echo "gs://$PERFZERO_RESULTS_BUCKET/$1"; }
# gcs_token: the service account's access token from the metadata server (cached).
gcs_token_fresh() {
  curl -sf -m 10 --retry 3 -H 'Metadata-Flavor: Google' \
    "${PERFZERO_METADATA_URL:-http://metadata.google.internal}/computeMetadata/v1/instance/service-accounts/default/token" |
    sed -n 's/.*"access_token" *: *"\([^"]*\)".*/\1/p'
}
gcs_token() { cached_token "${PERFZERO_STATE_DIR:-/tmp}/gcs-token" gcs_token_fresh; }
# storage_get BUCKET OBJECT FILE: one object by name through the JSON API. Not `gcloud storage cp`:
# for an object that is not there it falls back to listing the prefix, which a prefix condition
# refuses (403 where a 404 was due), and it reads [ ] * ? in names as wildcards.
# PERFZERO_GCS_ENDPOINT points it at another endpoint (a test's stand-in).
storage_get() {
  local token code
  token=$(gcs_token) || { echo "storage-gcp: no token from the metadata server" >&2; return 1; }
  code=$(rest_curl -gsS --retry 2 -o "$3" -w '%{http_code}' -H "Authorization: Bearer $token" \
    "${PERFZERO_GCS_ENDPOINT:-https://storage.googleapis.com}/storage/v1/b/$1/o/$(percent_encode "$2")?alt=media") ||
    { rm -f "$3"; return 1; }
  [ "$code" = 200 ] && return 0
  rm -f "$3"
  echo "storage-gcp: GET gs://$1/$2: HTTP $code" >&2
  return 1
}
# storage_absent ERRFILE: whether storage_get's error says the object does not exist.
storage_absent() { grep -q "HTTP 404$" "$1"; }
# storage_put_file FILE OBJECT (in the results bucket): one simple upload (up to 5 TiB; a run's
# files are small, and an image archive is only ever read). -T streams the file; -g: no globbing of
# [ ] in the URL or in FILE (a sweep point's folder holds them).
storage_put_file() {
  local token
  token=$(gcs_token) || { echo "storage-gcp: no token from the metadata server" >&2; return 1; }
  rest_curl -gsSf --retry 2 -X POST -T "$1" -o /dev/null -H "Authorization: Bearer $token" \
    -H "Content-Type: application/octet-stream" \
    "${PERFZERO_GCS_ENDPOINT:-https://storage.googleapis.com}/upload/storage/v1/b/$PERFZERO_RESULTS_BUCKET/o?uploadType=media&name=$(percent_encode "$2")"
}
# storage_put_dir DIR PREFIX: every file under DIR, as PREFIX/<its path> (no listing, which the
# instance may not do).
storage_put_dir() { put_each_file "$1" "$2"; }
# storage_secret SECRET FILE: the latest version of a Secret Manager secret (projects/P/secrets/NAME),
# read with the service account (roles/secretmanager.secretAccessor on that secret only); the API
# returns the payload base64-encoded.
storage_secret() {
  local token
  token=$(gcs_token) || { echo "storage-gcp: no token from the metadata server" >&2; return 1; }
  curl -sSf -m 30 --retry 3 -H "Authorization: Bearer $token" \
    "${PERFZERO_SECRETMANAGER_ENDPOINT:-https://secretmanager.googleapis.com}/v1/$1/versions/latest:access" |
    sed -n 's/.*"data": *"\([^"]*\)".*/\1/p' | base64 -d > "$2" && [ -s "$2" ]
}
