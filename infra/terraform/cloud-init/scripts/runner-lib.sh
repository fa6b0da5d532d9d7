# shellcheck shell=bash
# What perfzero-runner.sh and perfzero-cluster.sh share (sourced): retry, and the instance's timeline.

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

# The instance's life, for `perfzero report`'s cost of the experiment (docs/report.md): boot (from
# /proc/uptime), the container's start and the upload's end, uploaded as instances/<key>.json beside
# the run, so a replacement instance, or another node of a cluster, adds its own and none overwrites
# another's. The key is PERFZERO_INSTANCE_KEY
# (a cluster node's name and boot id), else the boot id.
booted_at=$(awk -v now="$(date +%s)" '{ printf "%d", now - $1 }' /proc/uptime)
container_started_at=null
instance_key=$(printf '%s' "${PERFZERO_INSTANCE_KEY:-}" | tr -cd 'A-Za-z0-9.-')
[ -n "$instance_key" ] || instance_key=$(tr -cd 'A-Za-z0-9-' < /proc/sys/kernel/random/boot_id 2> /dev/null)
[ -n "$instance_key" ] || instance_key=$(hostname | tr -cd 'A-Za-z0-9.-')
safe() { printf '%s' "$1" | tr -cd 'A-Za-z0-9._-'; }
# write_timeline FILE END: the timeline as of now. END is done, failed or preempted (the upload has
# ended now), or running (alive now: last_seen_at).
write_timeline() {
  local ended=upload_ended_at
  [ "$2" = running ] && ended=last_seen_at
  # shellcheck disable=SC2154 # PERFZERO_CLOUD and PERFZERO_CAPACITY: set by the script that sources this
  printf '{"instance_timeline_version": 1, "instance": "%s", "provider": "%s", "shape": "%s", "capacity": "%s", "booted_at": %s, "container_started_at": %s, "%s": %s, "end": "%s"}\n' \
    "$(hostname | tr -cd 'A-Za-z0-9.-')" "$(safe "$PERFZERO_CLOUD")" "$(safe "${PERFZERO_SHAPE:-}")" \
    "$(safe "$PERFZERO_CAPACITY")" "$booted_at" "$container_started_at" "$ended" "$(date +%s)" "$2" > "$1"
}
