#!/usr/bin/env bash
# perfzero-runner: runs one benchmark container on a cloud instance and brings its results back.
# Installed by the cloud-init template family (infra/terraform/cloud-init); cloud-init runs it once:
#   perfzero-runner.sh /etc/perfzero/run.env
# Steps: prepare the host, load the image (pull it, or fetch a `docker save` archive from object
# storage and `docker load` it), run the container under the time limit, upload its output
# directory to <bucket>/<results path>/, then the logs and a FAILED marker when any step failed, or
# a DONE marker when all succeeded (the marker comes last, so a reader that sees it sees everything),
# and power the instance off so that a forgotten run cannot keep billing.
#
# Settings come from the file given (docs: infra/terraform/cloud-init/README.md); these may also be
# set in it or in the environment: PERFZERO_STATE_DIR, PERFZERO_CONFIG_DIR, PERFZERO_LIB_DIR,
# PERFZERO_HOST_SETUP (empty: skip), PERFZERO_RUN_TIMEOUT_SECONDS (overrides the time left),
# PERFZERO_UPLOAD_RESERVE_SECONDS, PERFZERO_POWEROFF_COMMAND, PERFZERO_CONTAINER_NAME.
set -uo pipefail

config=${1:-/etc/perfzero/run.env}
if [ ! -f "$config" ]; then
  echo "perfzero-runner: settings file '$config' not found" >&2
  exit 2
fi
# shellcheck source=/dev/null
. "$config"
: "${PERFZERO_LIB_DIR:=/usr/local/lib/perfzero}"
: "${PERFZERO_STATE_DIR:=/var/lib/perfzero}"
: "${PERFZERO_CONFIG_DIR:=/etc/perfzero}"
: "${PERFZERO_HOST_SETUP=$PERFZERO_LIB_DIR/host-setup.sh}"
: "${PERFZERO_UPLOAD_RESERVE_SECONDS:=600}"
: "${PERFZERO_POWEROFF_COMMAND:=systemctl poweroff}"
: "${PERFZERO_CONTAINER_NAME:=perfzero-run}"
export PERFZERO_STATE_DIR PERFZERO_CONFIG_DIR PERFZERO_GPU PERFZERO_CLOUD PERFZERO_CONTAINER_NAME

# shellcheck source=/dev/null
. "$PERFZERO_LIB_DIR/storage-$PERFZERO_CLOUD.sh"

logs=$PERFZERO_STATE_DIR/logs
results=$PERFZERO_STATE_DIR/results
mkdir -p "$logs" "$results"
# The container runs as its own non-root user and writes here.
chmod 1777 "$results"
exec > >(tee -a "$logs/runner.log") 2>&1

failures=()
log() { echo "perfzero-runner $(date -u +%Y-%m-%dT%H:%M:%SZ): $*"; }
fail() {
  log "FAILED: $*"
  failures+=("$*")
}

# retry N COMMAND...: object storage can refuse a new identity for a minute or two after boot.
retry() {
  local tries=$1 i
  shift
  for ((i = 1; i <= tries; i++)); do
    "$@" && return 0
    [ "$i" -lt "$tries" ] && sleep $((i * 10))
  done
  return 1
}

prepare_host() {
  if [ -n "$PERFZERO_HOST_SETUP" ]; then
    log "host setup: $PERFZERO_HOST_SETUP"
    "$PERFZERO_HOST_SETUP" || { fail "host setup ($PERFZERO_HOST_SETUP) exited $?"; return 1; }
  fi
  storage_setup || { fail "cannot set up the $PERFZERO_CLOUD storage client"; return 1; }
}

load_image() {
  if [ -n "${PERFZERO_IMAGE_ARCHIVE_OBJECT:-}" ]; then
    local archive=$PERFZERO_STATE_DIR/image-archive
    log "fetching image archive $PERFZERO_IMAGE_ARCHIVE_OBJECT from bucket $PERFZERO_IMAGE_ARCHIVE_BUCKET"
    retry 3 storage_get "$PERFZERO_IMAGE_ARCHIVE_BUCKET" "$PERFZERO_IMAGE_ARCHIVE_OBJECT" "$archive" ||
      { fail "cannot fetch image archive $PERFZERO_IMAGE_ARCHIVE_BUCKET/$PERFZERO_IMAGE_ARCHIVE_OBJECT"; return 1; }
    docker load --input "$archive" || { fail "docker load of $PERFZERO_IMAGE_ARCHIVE_OBJECT failed"; return 1; }
    rm -f "$archive"
  else
    log "pulling $PERFZERO_IMAGE"
    retry 3 docker pull --quiet "$PERFZERO_IMAGE" || { fail "cannot pull $PERFZERO_IMAGE"; return 1; }
  fi
  docker image inspect "$PERFZERO_IMAGE" > /dev/null 2>&1 ||
    { fail "image $PERFZERO_IMAGE is not there after loading (does the archive hold that name:tag?)"; return 1; }
}

# Seconds the container may run: what is left of the hard limit since boot, minus the upload reserve.
run_budget_seconds() {
  if [ -n "${PERFZERO_RUN_TIMEOUT_SECONDS:-}" ]; then
    echo "$PERFZERO_RUN_TIMEOUT_SECONDS"
    return
  fi
  local uptime_s
  uptime_s=$(cut -d. -f1 /proc/uptime)
  local left=$((PERFZERO_TIME_LIMIT_SECONDS - uptime_s - PERFZERO_UPLOAD_RESERVE_SECONDS))
  [ "$left" -gt 60 ] && echo "$left" || echo 60
}

run_container() {
  local budget rc
  budget=$(run_budget_seconds)
  docker rm --force "$PERFZERO_CONTAINER_NAME" > /dev/null 2>&1
  log "starting the container (time limit ${budget} s)"
  "$PERFZERO_LIB_DIR/run-container.sh" || { fail "docker run failed (exit $?)"; return 1; }
  rc=$(timeout "$budget" docker wait "$PERFZERO_CONTAINER_NAME")
  local wait_rc=$?
  if [ "$wait_rc" -eq 124 ]; then
    docker kill "$PERFZERO_CONTAINER_NAME" > /dev/null 2>&1
    fail "time limit of ${budget} s reached: the container was killed"
  elif [ "$wait_rc" -ne 0 ]; then
    fail "docker wait failed (exit $wait_rc)"
  elif [ "$rc" -ne 0 ]; then
    fail "perfzero exited $rc (1: some trial did not succeed, 2: bad flags or suite; see container.log)"
  else
    log "perfzero exited 0"
  fi
  docker logs "$PERFZERO_CONTAINER_NAME" > "$logs/container.log" 2>&1
  docker rm --force "$PERFZERO_CONTAINER_NAME" > /dev/null 2>&1
  [ "${#failures[@]}" -eq 0 ]
}

upload() {
  local out=$results/$PERFZERO_EXECUTION_ID
  if [ -d "$out" ]; then
    log "uploading $out to $(storage_url "$PERFZERO_RESULTS_PATH/")"
    retry 3 storage_put_dir "$out" "$PERFZERO_RESULTS_PATH" || fail "uploading the results failed"
  else
    fail "the run wrote no output directory ($out)"
  fi
  local marker=DONE
  if [ "${#failures[@]}" -gt 0 ]; then
    marker=FAILED
    printf '%s\n' "${failures[@]}" > "$PERFZERO_STATE_DIR/$marker"
    log "uploading the logs"
    retry 3 storage_put_dir "$logs" "$PERFZERO_RESULTS_PATH/logs" || log "uploading the logs failed"
  else
    echo "execution_id=$PERFZERO_EXECUTION_ID image=$PERFZERO_IMAGE finished=$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
      > "$PERFZERO_STATE_DIR/$marker"
  fi
  retry 3 storage_put_file "$PERFZERO_STATE_DIR/$marker" "$PERFZERO_RESULTS_PATH/$marker" ||
    log "uploading the $marker marker failed"
  log "$marker"
}

log "execution $PERFZERO_EXECUTION_ID on $PERFZERO_CLOUD, image $PERFZERO_IMAGE"
prepare_host && load_image && run_container
upload
log "powering off: $PERFZERO_POWEROFF_COMMAND"
sleep 2 # lets tee flush runner.log
$PERFZERO_POWEROFF_COMMAND
