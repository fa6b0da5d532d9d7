# shellcheck shell=bash
# Azure Blob Storage for perfzero-runner.sh, through Blob Storage's REST API with curl (no CLI to
# install on every VM) and the VM's user-assigned managed identity: a token for
# https://storage.azure.com/ from the instance metadata service, whose role assignment is limited
# to the results prefix. PERFZERO_AZURE_SAS (a SAS token) and PERFZERO_AZURE_BLOB_ENDPOINT point it
# at another endpoint instead (tests/infra/storage_azure_test.sh; docs: infra/README.md).
# shellcheck source=/dev/null # storage-rest.sh, beside this file (checked on its own)
. "$(dirname "${BASH_SOURCE[0]}")/storage-rest.sh" # percent_encode, cached_token
azure_version=2020-10-02
storage_setup() { command -v curl > /dev/null || { apt-get update -q && apt-get install -y -q curl; }; }
azure_endpoint() { echo "${PERFZERO_AZURE_BLOB_ENDPOINT:-https://$PERFZERO_AZURE_STORAGE_ACCOUNT.blob.core.windows.net}"; }
# azure_path NAME: the blob name percent-encoded, '/' kept (case folders may hold '[', '=', ',').
azure_path() { percent_encode "$1" /; }
# azure_token: the managed identity's token for Blob Storage, from the metadata service (cached).
azure_token_fresh() {
  curl -sf -m 10 --retry 3 -H 'Metadata: true' \
    "${PERFZERO_METADATA_URL:-http://169.254.169.254}/metadata/identity/oauth2/token?api-version=2018-02-01&resource=https://storage.azure.com/" |
    sed -n 's/.*"access_token": *"\([^"]*\)".*/\1/p'
}
azure_token() { cached_token "${PERFZERO_STATE_DIR:-/tmp}/azure-storage-token" azure_token_fresh; }
# azure_curl URL ARGS...: curl with the SAS appended, or the managed identity's bearer token; -g: no
# globbing of [ ] in the URL or in -T FILE (a sweep point's folder holds them).
azure_curl() {
  local url=$1 token
  shift
  if [ -n "${PERFZERO_AZURE_SAS:-}" ]; then
    case "$url" in *\?*) url+="&$PERFZERO_AZURE_SAS" ;; *) url+="?$PERFZERO_AZURE_SAS" ;; esac
    rest_curl -gsSf --retry 2 -H "x-ms-version: $azure_version" "$@" "$url"
    return
  fi
  token=$(azure_token) || { echo "storage-azure: no token from the managed identity" >&2; return 1; }
  rest_curl -gsSf --retry 2 -H "x-ms-version: $azure_version" -H "Authorization: Bearer $token" "$@" "$url"
}
storage_url() { echo "$(azure_endpoint)/$PERFZERO_RESULTS_BUCKET/$1"; }
# storage_get CONTAINER BLOB FILE
storage_get() { azure_curl "$(azure_endpoint)/$1/$(azure_path "$2")" -o "$3"; }
# storage_put_file FILE BLOB (in the results container); one Put Blob call (up to 5,000 MiB).
storage_put_file() {
  azure_curl "$(azure_endpoint)/$PERFZERO_RESULTS_BUCKET/$(azure_path "$2")" -X PUT -T "$1" \
    -H "x-ms-blob-type: BlockBlob" -o /dev/null
}
# storage_put_dir DIR PREFIX: every file under DIR, as PREFIX/<its path>.
storage_put_dir() { put_each_file "$1" "$2"; }
# storage_absent ERRFILE: whether storage_get's error says the blob does not exist (curl -f: 404).
storage_absent() { grep -qE "error: 404|BlobNotFound" "$1"; }
# storage_secret SECRET_URL FILE: a Key Vault secret (https://VAULT.vault.azure.net/secrets/NAME),
# read with the managed identity's token for Key Vault (its role covers that secret only).
storage_secret() {
  local token
  token=$(curl -sf -m 10 --retry 3 -H 'Metadata: true' \
    "${PERFZERO_METADATA_URL:-http://169.254.169.254}/metadata/identity/oauth2/token?api-version=2018-02-01&resource=https://vault.azure.net" |
    sed -n 's/.*"access_token": *"\([^"]*\)".*/\1/p')
  [ -n "$token" ] || return 1
  curl -sf -m 30 --retry 3 -H "Authorization: Bearer $token" "$1?api-version=7.4" |
    sed -n 's/.*"value": *"\([^"]*\)".*/\1/p' > "$2"
}
