#!/usr/bin/env bash
# perfzero-cluster: makes this instance one node of a Slurm cluster and, on the first node (the
# head), runs the suite through it. Installed by infra/terraform/cloud-init when its `cluster` input
# is set; cloud-init runs it once on every node:
#   perfzero-cluster.sh /etc/perfzero/run.env
# Every node: installs what is missing (Slurm, munge, Open MPI, NFS, and perfzero from the Debian
# package in object storage), fetches the munge key from the cloud's secret store (never from user
# data), names itself and its peers in /etc/hosts, and starts munged and slurmd (slurmctld on the
# head) with slurm-node.sh, the script the tests' cluster runs. The head exports the results folder
# over NFS (a method's ranks write their trial's files there from every node); the others mount it.
# The head waits until every node is idle in Slurm, then runs perfzero-runner.sh with perfzero on
# the host (PERFZERO_RUN_MODE=native: srun starts the ranks on the nodes' own perfzero-rank), which
# uploads the run and the head's timeline; it then tells the others (a file in the shared folder)
# and every node powers off. The hard time limit (cloud-init's bootcmd) powers off a node whatever
# happens.
#
# Settings: those of perfzero-runner.sh, and PERFZERO_CLUSTER_HOSTS ("name=address ...", the head
# first), PERFZERO_CLUSTER_INDEX (this node's place in it, 0 for the head), PERFZERO_MUNGE_KEY_SECRET
# (the secret's id in the cloud's store), PERFZERO_PACKAGE_OBJECTS (the perfzero .debs in
# PERFZERO_IMAGE_ARCHIVE_BUCKET; empty: perfzero must be installed), and, for tests on one machine,
# PERFZERO_CLUSTER_SHARED (nfs, the default, or local: the nodes already share the file system) and
# PERFZERO_CLUSTER_WAIT_SECONDS (how long the head waits for the nodes, default 900).
set -uo pipefail

config=${1:-/etc/perfzero/run.env}
if [ ! -f "$config" ]; then
  echo "perfzero-cluster: settings file '$config' not found" >&2
  exit 2
fi
# shellcheck source=/dev/null
. "$config"
: "${PERFZERO_LIB_DIR:=/usr/local/lib/perfzero}"
: "${PERFZERO_STATE_DIR:=/var/lib/perfzero}"
: "${PERFZERO_POWEROFF_COMMAND:=systemctl poweroff}"
: "${PERFZERO_CLUSTER_SHARED:=nfs}"
: "${PERFZERO_CLUSTER_WAIT_SECONDS:=900}"
: "${PERFZERO_PACKAGE_OBJECTS:=}"
export PERFZERO_STATE_DIR PERFZERO_LIB_DIR

# shellcheck source=/dev/null
. "$PERFZERO_LIB_DIR/storage-$PERFZERO_CLOUD.sh"

logs=$PERFZERO_STATE_DIR/logs
results=$PERFZERO_STATE_DIR/results
mkdir -p "$logs" "$results"
exec > >(tee -a "$logs/cluster.log") 2>&1

log() { echo "perfzero-cluster $(date -u +%Y-%m-%dT%H:%M:%SZ): $*" >&2; }
poweroff_now() {
  log "powering off: $PERFZERO_POWEROFF_COMMAND"
  sleep 2 # lets tee flush cluster.log
  $PERFZERO_POWEROFF_COMMAND
  exit "${1:-0}"
}

# The hosts, one "name address" per line; this node's name and the head's.
mapfile -t hosts < <(for entry in ${PERFZERO_CLUSTER_HOSTS:-}; do echo "${entry%%=*} ${entry#*=}"; done)
index=${PERFZERO_CLUSTER_INDEX:-}
if [ "${#hosts[@]}" -lt 2 ] || ! [[ "$index" =~ ^[0-9]+$ ]] || [ "$index" -ge "${#hosts[@]}" ]; then
  log "FAILED: PERFZERO_CLUSTER_HOSTS needs two hosts or more and PERFZERO_CLUSTER_INDEX one of them (got '${PERFZERO_CLUSTER_HOSTS:-}', '$index')"
  poweroff_now 2
fi
name=${hosts[$index]%% *}
head_name=${hosts[0]%% *}
head_addr=${hosts[0]#* }
ended_marker=$results/.cluster-ended
export PERFZERO_CLUSTER_HOSTS
# Every node's timeline goes up beside the run (instances/<node>-<boot id>.json): each is billed.
PERFZERO_INSTANCE_KEY=${PERFZERO_INSTANCE_KEY:-$name-$(tr -cd 'A-Za-z0-9-' < /proc/sys/kernel/random/boot_id 2> /dev/null)}
export PERFZERO_INSTANCE_KEY
# shellcheck source=/dev/null
. "$PERFZERO_LIB_DIR/instance-timeline.sh"
instance_key=${instance_key:?instance-timeline.sh sets it}

# upload_timeline END: this compute node's timeline (the head's goes up with the run).
upload_timeline() {
  local file=$PERFZERO_STATE_DIR/instance-timeline.json i
  write_timeline "$file" "$1"
  for i in 1 2 3; do
    storage_put_file "$file" "$PERFZERO_RESULTS_PATH/instances/$instance_key.json" > /dev/null && return 0
    [ "$i" -lt 3 ] && sleep $((i * 5))
  done
  log "uploading the instance timeline failed"
}

# install_missing: the cluster's packages, only those whose command is not there yet.
install_missing() {
  local want=() pkg cmd
  for pkg in slurmd:slurmd slurmctld:slurmctld srun:slurm-client munged:munge mpirun:openmpi-bin; do
    cmd=${pkg%%:*}
    command -v "$cmd" > /dev/null || want+=("${pkg#*:}")
  done
  if [ "$PERFZERO_CLUSTER_SHARED" = nfs ]; then
    if [ "$index" -eq 0 ]; then
      command -v exportfs > /dev/null || want+=(nfs-kernel-server)
    else
      command -v mount.nfs > /dev/null || want+=(nfs-common)
    fi
  fi
  if [ "${#want[@]}" -gt 0 ]; then
    log "installing ${want[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q && apt-get install -y -q --no-install-recommends "${want[@]}" || return 1
    # The packages start their daemons with the packaged configuration: this node runs its own.
    systemctl disable --now slurmd slurmctld munge > /dev/null 2>&1
  fi
  if ! command -v perfzero > /dev/null; then
    [ -n "$PERFZERO_PACKAGE_OBJECTS" ] || { log "perfzero is not installed and no package objects are set"; return 1; }
    local object debs=()
    for object in $PERFZERO_PACKAGE_OBJECTS; do
      debs+=("$PERFZERO_STATE_DIR/packages/$(basename "$object")")
      log "fetching $PERFZERO_IMAGE_ARCHIVE_BUCKET/$object"
      mkdir -p "$PERFZERO_STATE_DIR/packages"
      retry_storage_get "$object" "${debs[-1]}" || { log "cannot fetch $object"; return 1; }
    done
    # apt-get, not dpkg: it installs the packages' dependencies (Open MPI's library...) as well.
    apt-get install -y -q --no-install-recommends "${debs[@]}" || return 1
  fi
}

retry_storage_get() {
  local i
  for i in 1 2 3; do
    storage_get "$PERFZERO_IMAGE_ARCHIVE_BUCKET" "$1" "$2" && return 0
    [ "$i" -lt 3 ] && sleep $((i * 10))
  done
  return 1
}

# name_hosts: this node's hostname and every node's line in /etc/hosts, since Slurm and MPI find the
# nodes by these names.
name_hosts() {
  [ "$(hostname)" = "$name" ] || hostname "$name" || return 1
  local line
  for line in "${hosts[@]}"; do
    grep -qE "^${line#* }[[:space:]]+${line%% *}\$" /etc/hosts || echo "${line#* } ${line%% *}" >> /etc/hosts
  done
}

# munge_key: the cluster's shared key, from the cloud's secret store (retried: a new identity can be
# refused for a minute or two after boot).
munge_key() {
  local key=$PERFZERO_STATE_DIR/munge.key i
  umask 077
  for i in 1 2 3 4 5; do
    storage_secret "$PERFZERO_MUNGE_KEY_SECRET" "$key" && [ -s "$key" ] && break
    rm -f "$key"
    [ "$i" -lt 5 ] && sleep $((i * 10))
  done
  umask 022
  [ -s "$key" ] || { log "cannot read the munge key (secret $PERFZERO_MUNGE_KEY_SECRET)"; return 1; }
  chmod 400 "$key"
  echo "$key"
}

# share_results: the head exports the results folder to the other nodes, which mount it at the same
# path; with PERFZERO_CLUSTER_SHARED=local they already share it.
share_results() {
  [ "$PERFZERO_CLUSTER_SHARED" = local ] && return 0
  local line i
  if [ "$index" -eq 0 ]; then
    systemctl enable --now nfs-kernel-server > /dev/null 2>&1
    for line in "${hosts[@]:1}"; do
      exportfs -o rw,sync,no_root_squash,no_subtree_check "${line#* }:$results" || return 1
    done
  else
    for i in $(seq 1 60); do
      mountpoint -q "$results" && return 0
      mount -t nfs -o hard,vers=4 "$head_addr:$results" "$results" 2> /dev/null && return 0
      sleep 5
    done
    log "cannot mount $head_addr:$results"
    return 1
  fi
}

join_cluster() {
  local key
  install_missing || { log "cannot install the cluster's packages"; return 1; }
  storage_setup || { log "cannot set up the $PERFZERO_CLOUD storage client"; return 1; }
  name_hosts || { log "cannot set the hostname and /etc/hosts"; return 1; }
  key=$(munge_key) || return 1
  share_results || return 1
  if ! { "$PERFZERO_LIB_DIR/slurm-node.sh" config && "$PERFZERO_LIB_DIR/slurm-node.sh" munge "$key" &&
    "$PERFZERO_LIB_DIR/slurm-node.sh" start "$name"; }; then
    log "Slurm did not start on $name"
    return 1
  fi
  log "$name joined the cluster (head $head_name)"
}

log "node $name ($((index + 1)) of ${#hosts[@]}) of execution $PERFZERO_EXECUTION_ID on $PERFZERO_CLOUD"
if [ "$index" -ne 0 ]; then
  if ! join_cluster; then
    upload_timeline failed
    poweroff_now 1
  fi
  # The head says when the run is over; a head that is gone for good leaves the hard time limit.
  while [ ! -e "$ended_marker" ]; do sleep 5; done
  log "the head ended the run: $(cat "$ended_marker")"
  upload_timeline "done"
  poweroff_now 0
fi

# The head: what fails before the run is a failed run, uploaded as the runner uploads one.
setup_error=""
if ! join_cluster; then
  setup_error="the head could not join the cluster (see cluster.log)"
elif ! "$PERFZERO_LIB_DIR/slurm-node.sh" wait "${#hosts[@]}" "$PERFZERO_CLUSTER_WAIT_SECONDS"; then
  setup_error="not every node joined within $PERFZERO_CLUSTER_WAIT_SECONDS s: $(sinfo -h -N 2>&1 | tr '\n' ';')"
fi
export PERFZERO_RUN_MODE=native PERFZERO_HOST_SETUP="" PERFZERO_SETUP_ERROR="$setup_error"
PERFZERO_POWEROFF_COMMAND=true "$PERFZERO_LIB_DIR/perfzero-runner.sh" "$config"
rc=$?
echo "runner exited $rc at $(date -u +%Y-%m-%dT%H:%M:%SZ)" > "$ended_marker"
sleep 15 # the other nodes see the marker before the head's NFS server goes
poweroff_now "$rc"
