#!/usr/bin/env bash
# Ends an Azure VM's billing from inside it: a VM that only powers off stays allocated, and its
# compute is billed. The VM's managed identity may deallocate this VM and nothing else (the azure
# module's custom role); the instance metadata service gives the token and the VM's resource id.
# If the call fails, the VM powers off anyway and the log says it may still be billed.
set -uo pipefail
imds=${PERFZERO_METADATA_URL:-http://169.254.169.254}
log() { echo "azure-deallocate: $*" | tee -a /dev/kmsg 2> /dev/null || echo "azure-deallocate: $*"; }
client_id=${PERFZERO_AZURE_CLIENT_ID:-}
token=$(curl -sf -m 10 -H 'Metadata: true' \
  "$imds/metadata/identity/oauth2/token?api-version=2018-02-01&resource=https://management.azure.com/${client_id:+&client_id=$client_id}" |
  sed -n 's/.*"access_token": *"\([^"]*\)".*/\1/p')
resource=$(curl -sf -m 10 -H 'Metadata: true' "$imds/metadata/instance/compute/resourceId?api-version=2021-02-01&format=text")
if [ -n "$token" ] && [ -n "$resource" ] &&
  curl -sf -m 30 -X POST -H "Authorization: Bearer $token" -H 'Content-Length: 0' \
    "https://management.azure.com$resource/deallocate?api-version=2023-03-01" > /dev/null; then
  log "deallocation of $resource requested"
  exit 0
fi
log "could not ask Azure to deallocate this VM: powering off, but the VM stays allocated and billed until it is deallocated or deleted"
systemctl poweroff
