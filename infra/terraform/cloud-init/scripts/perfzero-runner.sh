#!/usr/bin/env bash
# perfzero-runner: runs one benchmark container on a cloud instance and brings its results back.
# Installed by the cloud-init template family (infra/terraform/cloud-init); cloud-init runs it once:
#   perfzero-runner.sh /etc/perfzero/run.env
# Steps: prepare the host, load the image (pull it, or fetch a `docker save` archive from object
# storage and `docker load` it), run the container under the time limit, upload its output
# directory to <bucket>/<results path>/, then the logs when any step failed, the instance's
# timeline (instances/<boot id>.json), and a FAILED marker when any step failed, or a DONE marker
# when all succeeded (the marker comes last, so a reader that sees it sees everything),
# and power the instance off so that a forgotten run cannot keep billing.
#
# Nothing finished is lost to a preemption: while the container runs, what the run wrote since the
# last upload goes up every PERFZERO_SYNC_SECONDS (30), the journal last; on spot capacity the
# cloud's preemption notice is watched, and the container is stopped so its running trial ends
# `interrupted`. A replacement instance with the same execution id finds the journal in storage,
# downloads the run and continues it with --resume (docs: infra/terraform/cloud-init/README.md).
#
# Settings come from the file given (docs: infra/terraform/cloud-init/README.md); these may also be
# set in it or in the environment: PERFZERO_STATE_DIR, PERFZERO_CONFIG_DIR, PERFZERO_LIB_DIR,
# PERFZERO_HOST_SETUP (empty: skip), PERFZERO_RUN_TIMEOUT_SECONDS (overrides the time left),
# PERFZERO_UPLOAD_RESERVE_SECONDS, PERFZERO_POWEROFF_COMMAND, PERFZERO_CONTAINER_NAME,
# PERFZERO_SYNC_SECONDS, PERFZERO_PREEMPTION_POLL_SECONDS, PERFZERO_METADATA_URL (the metadata
# service's base URL; a local stub in tests), PERFZERO_INSTANCE_KEY (the timeline's name),
# PERFZERO_RUN_MODE (container, or native: run-native.sh runs perfzero on the host, as a cluster's
# head does), PERFZERO_SETUP_ERROR (set by perfzero-cluster.sh: the run fails with it, uploaded) and
# PERFZERO_BEFORE_UPLOAD (a command run after the run, before the upload).
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
: "${PERFZERO_SYNC_SECONDS:=30}"
: "${PERFZERO_PREEMPTION_POLL_SECONDS:=5}"
: "${PERFZERO_CAPACITY:=on_demand}"
export PERFZERO_STATE_DIR PERFZERO_CONFIG_DIR PERFZERO_GPU PERFZERO_CLOUD PERFZERO_CONTAINER_NAME

# shellcheck source=/dev/null
. "$PERFZERO_LIB_DIR/storage-$PERFZERO_CLOUD.sh"

logs=$PERFZERO_STATE_DIR/logs
results=$PERFZERO_STATE_DIR/results
mkdir -p "$logs" "$results"
# The container runs as its own non-root user and writes here.
chmod 1777 "$results"
exec > >(tee -a "$logs/runner.log") 2>&1

# retry and the instance's timeline (booted_at, write_timeline): shared with perfzero-cluster.sh.
# shellcheck source=/dev/null
. "$PERFZERO_LIB_DIR/runner-lib.sh"
instance_key=${instance_key:?runner-lib.sh sets it}

failures=()
log() { echo "perfzero-runner $(date -u +%Y-%m-%dT%H:%M:%SZ): $*"; }
fail() {
  log "FAILED: $*"
  failures+=("$*")
}

out=$results/$PERFZERO_EXECUTION_ID
manifest=$PERFZERO_STATE_DIR/uploaded.txt
resume=""
finished_before=""
preempted=""

# listing DIR: "path<TAB>size<TAB>mtime" of every file under DIR, sorted for comm.
listing() { (cd "$1" && find . -type f -printf '%P\t%s\t%T@\n' | LC_ALL=C sort); }

# sync_results: uploads the run directory's files that are new or changed since the last upload,
# in one storage call (they are linked into a staging folder first), then the list of every file
# uploaded so far (uploaded-files.txt, what a replacement reads back by name), then the journal. The
# journal is the run's record (--resume keeps what it says finished), so the copy in storage must
# never name a trial whose files are not there yet: it is copied before the files are listed, and
# the harness writes a trial's files before its journal line.
sync_results() {
  [ -d "$out" ] || return 0
  local journal=$PERFZERO_STATE_DIR/journal-snapshot now=$PERFZERO_STATE_DIR/listing
  local stage=$PERFZERO_STATE_DIR/stage rel new=0
  touch "$manifest"
  rm -rf "$journal" "$stage"
  [ -f "$out/journal.ndjson" ] && cp "$out/journal.ndjson" "$journal"
  listing "$out" > "$now"
  while IFS=$'\t' read -r rel _; do
    [ "$rel" = journal.ndjson ] && continue
    mkdir -p "$stage/$(dirname "$rel")"
    ln "$out/$rel" "$stage/$rel" 2> /dev/null || cp "$out/$rel" "$stage/$rel" || return 1
    new=$((new + 1))
  done < <(LC_ALL=C comm -23 "$now" "$manifest")
  if [ "$new" -gt 0 ]; then
    storage_put_dir "$stage" "$PERFZERO_RESULTS_PATH" > /dev/null || return 1
    cut -f1 "$now" | grep -vx 'journal.ndjson' > "$PERFZERO_STATE_DIR/uploaded-files.txt"
    storage_put_file "$PERFZERO_STATE_DIR/uploaded-files.txt" "$PERFZERO_RESULTS_PATH/uploaded-files.txt" \
      > /dev/null || return 1
  fi
  rm -rf "$stage"
  if [ -f "$journal" ] && ! cmp -s "$journal" "$PERFZERO_STATE_DIR/journal-uploaded"; then
    storage_put_file "$journal" "$PERFZERO_RESULTS_PATH/journal.ndjson" > /dev/null || return 1
    mv "$journal" "$PERFZERO_STATE_DIR/journal-uploaded"
  fi
  mv "$now" "$manifest"
}

# sync_loop: sync_results every PERFZERO_SYNC_SECONDS, and the instance's timeline as `running`, so
# an instance taken without a notice (OCI gives none) is still on the bill. It ends once the stop
# file exists, looked for each second and between uploads, never inside one: the final upload must
# not race an older one. Not a TERM trap: bash 5.2 can fail to parse a trap that arrives while it
# reads a command substitution ("unexpected EOF while looking for matching `)'"), and the loop then
# never ends (a CI run hung so).
sync_stop=$PERFZERO_STATE_DIR/sync-stop
sync_loop() {
  local waited
  while :; do
    for ((waited = 0; waited < PERFZERO_SYNC_SECONDS; waited++)); do
      [ -e "$sync_stop" ] && return 0
      sleep 1
    done
    [ -e "$sync_stop" ] && return 0
    sync_results || log "an upload of the run so far failed; the next one tries again"
    write_timeline "$PERFZERO_STATE_DIR/timeline-running.json" running &&
      storage_put_file "$PERFZERO_STATE_DIR/timeline-running.json" \
        "$PERFZERO_RESULTS_PATH/instances/$instance_key.json" > /dev/null
  done
}

# stop_sync_loop PID: asks the loop to end and waits for it: the upload under way finishes first
# (each transfer ends within a minute of stalling: storage-rest.sh). Past 10 minutes it is killed:
# the final upload then still goes up, and the log says why it came late.
stop_sync_loop() {
  local waited=0
  touch "$sync_stop"
  while kill -0 "$1" 2> /dev/null && [ "$waited" -lt 600 ]; do
    sleep 1
    waited=$((waited + 1))
  done
  if kill -0 "$1" 2> /dev/null; then
    log "the upload of the run so far did not end within 10 minutes: stopping it"
    kill -9 "$1" 2> /dev/null
  fi
  wait "$1" 2> /dev/null
}

# preemption_noticed: exit 0 once the cloud has announced that it takes this spot instance back.
preemption_noticed() {
  local base token
  case "$PERFZERO_CLOUD" in
    aws) # IMDSv2: a session token, then spot/instance-action (404 until a notice).
      base=${PERFZERO_METADATA_URL:-http://169.254.169.254}
      token=$(curl -sf -m 2 -X PUT "$base/latest/api/token" -H "X-aws-ec2-metadata-token-ttl-seconds: 300") || return 1
      curl -sf -m 2 -o /dev/null -H "X-aws-ec2-metadata-token: $token" "$base/latest/meta-data/spot/instance-action"
      ;;
    gcp)
      base=${PERFZERO_METADATA_URL:-http://metadata.google.internal}
      [ "$(curl -sf -m 2 -H 'Metadata-Flavor: Google' "$base/computeMetadata/v1/instance/preempted")" = TRUE ]
      ;;
    azure) # Scheduled Events: a Preempt event about 30 s ahead.
      base=${PERFZERO_METADATA_URL:-http://169.254.169.254}
      curl -sf -m 2 -H 'Metadata: true' "$base/metadata/scheduledevents?api-version=2020-07-01" |
        grep -q '"EventType": *"Preempt"'
      ;;
    *) return 1 ;; # OCI announces no preemption on the instance itself
  esac
}

watch_preemption() {
  while sleep "$PERFZERO_PREEMPTION_POLL_SECONDS"; do
    if preemption_noticed; then
      log "preemption notice: stopping the container, so that its running trial ends interrupted"
      touch "$PERFZERO_STATE_DIR/preempted"
      docker stop --time 20 "$PERFZERO_CONTAINER_NAME" > /dev/null 2>&1
      return 0
    fi
  done
}

# stored OBJECT: 0 when the object is in the results bucket, 1 when storage says it is not (each
# cloud's own "no such object": storage_absent), 2 when it cannot tell (no identity yet, a policy
# still propagating, the network): asked for about five minutes, then an error, never "not there".
# Only the cloud's own word counts: OCI answers a refused read with NotAuthorizedOrNotFound, and
# starting afresh on that would overwrite the run an earlier instance left.
stored() {
  local err=$PERFZERO_STATE_DIR/probe.err i tries=${PERFZERO_PROBE_TRIES:-8}
  for ((i = 1; i <= tries; i++)); do
    storage_get "$PERFZERO_RESULTS_BUCKET" "$1" "$PERFZERO_STATE_DIR/probe" > /dev/null 2> "$err" && return 0
    storage_absent "$err" && return 1
    [ "$i" -lt "$tries" ] && sleep $((i * 10 < 60 ? i * 10 : 60))
  done
  log "cannot tell whether $1 is in storage: $(tr '\n' ' ' < "$err" | cut -c1-300)"
  return 2
}

# fetch_run DIR: the run an earlier instance uploaded, read back by name (uploaded-files.txt and the
# journal): no listing of the bucket, which GCS and OCI cannot grant for one prefix alone. Eight
# downloads at a time. The names come from storage: one that would leave DIR fails the fetch.
fetch_run() {
  local list=$PERFZERO_STATE_DIR/uploaded-files.txt rel pid failed=0 pids=()
  mkdir -p "$1"
  storage_get "$PERFZERO_RESULTS_BUCKET" "$PERFZERO_RESULTS_PATH/uploaded-files.txt" "$list" > /dev/null || return 1
  while IFS= read -r rel; do
    [ -n "$rel" ] || continue
    case "/$rel/" in //* | */../* | */./*)
      log "refusing to download $rel: it would leave the run's folder"
      return 1
      ;;
    esac
    mkdir -p "$1/$(dirname "$rel")"
    storage_get "$PERFZERO_RESULTS_BUCKET" "$PERFZERO_RESULTS_PATH/$rel" "$1/$rel" > /dev/null &
    pids+=($!)
    if [ "${#pids[@]}" -ge 8 ]; then
      for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
      pids=()
    fi
  done < "$list"
  for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
  [ "$failed" -eq 0 ] &&
    storage_get "$PERFZERO_RESULTS_BUCKET" "$PERFZERO_RESULTS_PATH/journal.ndjson" "$1/journal.ndjson" > /dev/null
}

fetch_afresh() { rm -rf "$1" && fetch_run "$1"; }

# restore_run: on a replacement spot instance, the run an earlier one left in storage, to continue it.
# On demand there is nothing to continue (and no right to read the prefix back).
restore_run() {
  [ "$PERFZERO_CAPACITY" = spot ] || return 0
  local marker rc
  stored "$PERFZERO_RESULTS_PATH/journal.ndjson"
  rc=$?
  if [ "$rc" -eq 1 ]; then
    log "no earlier run of $PERFZERO_EXECUTION_ID in storage: starting it"
    return 0
  elif [ "$rc" -ne 0 ]; then
    # Starting afresh would overwrite what an earlier instance finished.
    fail "cannot tell whether an earlier instance left a run of $PERFZERO_EXECUTION_ID in storage"
    return 1
  fi
  for marker in DONE FAILED; do
    stored "$PERFZERO_RESULTS_PATH/$marker"
    rc=$?
    if [ "$rc" -eq 0 ]; then
      log "$PERFZERO_EXECUTION_ID already ended ($marker in storage): nothing to run"
      finished_before=1
      return 0
    elif [ "$rc" -ne 1 ]; then
      fail "cannot tell whether $PERFZERO_EXECUTION_ID already ended"
      return 1
    fi
  done
  log "an earlier instance's run of $PERFZERO_EXECUTION_ID is in storage: downloading it to continue with --resume"
  # Into a folder of its own, moved into place whole: a half-downloaded run must never be uploaded
  # back over the good copy in storage.
  local fetched=$PERFZERO_STATE_DIR/fetched
  retry 3 fetch_afresh "$fetched" || {
    rm -rf "$fetched"
    fail "cannot download the earlier run from $(storage_url "$PERFZERO_RESULTS_PATH/") to resume it"
    return 1
  }
  if ! { rm -rf "$out" && mkdir -p "$(dirname "$out")" && mv "$fetched" "$out"; }; then
    fail "cannot move the downloaded run to $out"
    return 1
  fi
  # The earlier instances' markers, logs and timelines stay in storage; the run itself continues here.
  rm -rf "$out/logs" "$out/instances" "$out/FAILED"
  chmod -R a+rwX "$out"
  listing "$out" > "$manifest"
  cp "$out/journal.ndjson" "$PERFZERO_STATE_DIR/journal-uploaded"
  resume=1
}

prepare_host() {
  if [ -n "$PERFZERO_HOST_SETUP" ]; then
    log "host setup: $PERFZERO_HOST_SETUP"
    "$PERFZERO_HOST_SETUP" || { fail "host setup ($PERFZERO_HOST_SETUP) exited $?"; return 1; }
  fi
  storage_setup || { fail "cannot set up the $PERFZERO_CLOUD storage client"; return 1; }
}

load_image() {
  [ "${PERFZERO_RUN_MODE:-container}" = native ] && return 0
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
  if [ "${PERFZERO_RUN_MODE:-container}" = native ]; then
    run_native "$budget"
    return
  fi
  docker rm --force "$PERFZERO_CONTAINER_NAME" > /dev/null 2>&1
  log "starting the container (time limit ${budget} s)${resume:+, resuming the earlier run}"
  container_started_at=$(date +%s)
  "$PERFZERO_LIB_DIR/run-container.sh" ${resume:+--resume} || { fail "docker run failed (exit $?)"; return 1; }
  # On spot capacity the run goes up as it goes and the notice is watched. On demand it goes up
  # once, at the end: the identity then needs no right to overwrite objects (GCS's objectCreator,
  # OCI's OBJECT_CREATE), which repeated uploads of the journal would.
  local syncer="" watcher=""
  if [ "$PERFZERO_CAPACITY" = spot ]; then
    rm -f "$sync_stop"
    sync_loop &
    syncer=$!
    watch_preemption & # no trap of its own: a TERM ends it wherever it is
    watcher=$!
  fi
  rc=$(timeout "$budget" docker wait "$PERFZERO_CONTAINER_NAME")
  local wait_rc=$?
  if [ -n "$syncer" ]; then # a bare `wait` would also wait for the log's tee
    kill "$watcher" 2> /dev/null
    wait "$watcher" 2> /dev/null
    stop_sync_loop "$syncer"
  fi
  if [ -f "$PERFZERO_STATE_DIR/preempted" ]; then
    preempted=1
    log "preempted: perfzero exited $rc; the run so far is uploaded for a replacement to continue"
  elif [ "$wait_rc" -eq 124 ]; then
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

# run_native BUDGET: perfzero on this host, not in a container: a cluster's head, where the ranks
# run on the nodes' own perfzero-rank (perfzero-cluster.sh). Its output is container.log all the same.
run_native() {
  log "starting perfzero on this host (time limit $1 s)"
  # shellcheck disable=SC2034 # read by write_timeline (runner-lib.sh)
  container_started_at=$(date +%s)
  timeout --kill-after=30 "$1" "$PERFZERO_LIB_DIR/run-native.sh" > "$logs/container.log" 2>&1
  local rc=$?
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    fail "time limit of $1 s reached: perfzero was stopped"
  elif [ "$rc" -ne 0 ]; then
    fail "perfzero exited $rc (1: some trial did not succeed, 2: bad flags or suite; see container.log)"
  else
    log "perfzero exited 0"
  fi
  [ "${#failures[@]}" -eq 0 ]
}

upload() {
  if [ -d "$out" ]; then
    log "uploading what is new in $out to $(storage_url "$PERFZERO_RESULTS_PATH/")"
    retry 3 sync_results || fail "uploading the results failed"
  else
    fail "the run wrote no output directory ($out)"
  fi
  if [ -n "$preempted" ]; then
    # No marker: the run is not over, and a replacement continues it.
    write_timeline "$PERFZERO_STATE_DIR/instance-timeline.json" preempted
    retry 3 storage_put_file "$PERFZERO_STATE_DIR/instance-timeline.json" \
      "$PERFZERO_RESULTS_PATH/instances/$instance_key.json" || log "uploading the instance timeline failed"
    log "PREEMPTED"
    return
  fi
  local marker=DONE
  if [ "${#failures[@]}" -gt 0 ]; then
    marker=FAILED
    printf '%s\n' "${failures[@]}" > "$PERFZERO_STATE_DIR/$marker"
    log "uploading the logs"
    retry 3 storage_put_dir "$logs" "$PERFZERO_RESULTS_PATH/logs" || log "uploading the logs failed"
  else
    echo "execution_id=$PERFZERO_EXECUTION_ID $(what_ran) finished=$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
      > "$PERFZERO_STATE_DIR/$marker"
  fi
  local timeline=$PERFZERO_STATE_DIR/instance-timeline.json end="done"
  [ "$marker" = FAILED ] && end=failed
  write_timeline "$timeline" "$end"
  retry 3 storage_put_file "$timeline" "$PERFZERO_RESULTS_PATH/instances/$instance_key.json" ||
    log "uploading the instance timeline failed"
  retry 3 storage_put_file "$PERFZERO_STATE_DIR/$marker" "$PERFZERO_RESULTS_PATH/$marker" ||
    log "uploading the $marker marker failed"
  log "$marker"
}

# what_ran: the image, or on a cluster's head the packages perfzero came from.
what_ran() {
  if [ "${PERFZERO_RUN_MODE:-container}" = native ]; then
    echo "packages=$(printf '%s' "${PERFZERO_PACKAGE_OBJECTS:-preinstalled}" | tr ' ' ,)"
  else
    echo "image=$PERFZERO_IMAGE"
  fi
}
log "execution $PERFZERO_EXECUTION_ID on $PERFZERO_CLOUD, $(what_ran)"
if [ -n "${PERFZERO_SETUP_ERROR:-}" ]; then
  fail "$PERFZERO_SETUP_ERROR" # what ran this runner could not set the host up (perfzero-cluster.sh)
  storage_setup || fail "cannot set up the $PERFZERO_CLOUD storage client" # the failure still goes up
elif prepare_host && restore_run && [ -z "$finished_before" ] && load_image; then
  run_container
fi
# What must land with the run comes first: a cluster's head collects its nodes' timelines here.
if [ -n "${PERFZERO_BEFORE_UPLOAD:-}" ]; then
  $PERFZERO_BEFORE_UPLOAD || log "$PERFZERO_BEFORE_UPLOAD exited $?"
fi
[ -n "$finished_before" ] || upload
log "powering off: $PERFZERO_POWEROFF_COMMAND"
sleep 2 # lets tee flush runner.log
$PERFZERO_POWEROFF_COMMAND
