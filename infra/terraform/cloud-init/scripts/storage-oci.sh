# shellcheck shell=bash
# OCI Object Storage for perfzero-runner.sh, through the OCI CLI and the instance principal (the
# instance's dynamic group; no API key on the instance).
storage_setup() {
  if ! command -v oci > /dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q && apt-get install -y -q --no-install-recommends python3-venv || return 1
    python3 -m venv /opt/oci-cli && /opt/oci-cli/bin/pip install --quiet oci-cli || return 1
    ln -sf /opt/oci-cli/bin/oci /usr/local/bin/oci
  fi
}
oci_os() { oci os object "$@" --auth instance_principal --namespace "$PERFZERO_OCI_NAMESPACE"; }
storage_url() { echo "oci://$PERFZERO_RESULTS_BUCKET@$PERFZERO_OCI_NAMESPACE/$1"; }
# storage_get BUCKET OBJECT FILE
storage_get() { oci_os get --bucket-name "$1" --name "$2" --file "$3"; }
# storage_put_file FILE OBJECT (in the results bucket); --force: no existence check (no read right).
storage_put_file() { oci_os put --force --bucket-name "$PERFZERO_RESULTS_BUCKET" --name "$2" --file "$1" > /dev/null; }
# storage_put_dir DIR PREFIX: one put per file, since the policy allows creating objects only.
storage_put_dir() {
  local file
  while IFS= read -r -d '' file; do
    storage_put_file "$file" "$2/${file#"$1"/}" || return 1
  done < <(find "$1" -type f -print0)
}
# storage_absent ERRFILE: whether storage_get's error says the object does not exist. Only
# ObjectNotFound: a read the policy refuses is a 404 too (NotAuthorizedOrNotFound), and a dynamic
# group naming a new instance takes a while to apply.
storage_absent() { grep -q '"ObjectNotFound"' "$1"; }
# storage_secret SECRET_OCID FILE: a Vault secret's current content, read as the instance principal.
storage_secret() {
  oci secrets secret-bundle get --auth instance_principal --secret-id "$1" \
    --query 'data."secret-bundle-content".content' --raw-output | base64 -d > "$2"
}
